// The OpenAPI 3.1 document of /v1, generated from the v1 router (served at /v1/openapi.json).
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { v1Router } from './v1.router';

const cache = new Map<string, OpenAPIObject>();

export function openApiDocument(baseURL: string): OpenAPIObject {
  let doc = cache.get(baseURL);
  if (!doc) {
    doc = generateOpenApiDocument(v1Router, {
      title: 'Mailvet API',
      version: '1.0.0',
      description:
        'Email validation API. Authenticate with "Authorization: Bearer <API key>" (keys are created on the API Keys page). ' +
        'Errors are JSON {code, message} with standard HTTP statuses; 429 carries Retry-After (seconds).',
      baseUrl: `${baseURL.replace(/\/$/, '')}/v1`,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Your API key (mv_live_…)' } },
    });
    cache.set(baseURL, doc);
  }
  return doc;
}
