// The OpenAPI 3.1 document of /v1, generated from the v1 router (served at /v1/openapi.json).
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import type { ApiScope } from '../contracts/api-keys';
import { jobWebhookPayloadSchema, scheduleRunWebhookPayloadSchema } from '../contracts/public-api';
import { MAX_WEBHOOK_ATTEMPTS, WEBHOOK_TIMEOUT_MS } from '../features/webhooks/webhooks.service';
import { SIGNATURE_HEADER } from '../features/webhooks/webhook-signing';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_RESPONSE_CAP_BYTES, type WebhookEventName } from '../contracts/webhooks';
import type { ProcedureMeta } from '../trpc/init';
import { v1Router } from './v1.router';

/** The app codes our error bodies carry for each status (see mount.ts publicError). */
const EXAMPLE_CODES: Record<string, string> = {
  BAD_REQUEST: 'BAD_INPUT',
  UNAUTHORIZED: 'INVALID_API_KEY',
  PAYMENT_REQUIRED: 'INSUFFICIENT_CREDITS',
  FORBIDDEN: 'PLAN_REQUIRED',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  TOO_MANY_REQUESTS: 'RATE_LIMITED',
  SERVICE_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_ERROR',
};

interface ErrorSchema {
  properties?: Record<string, unknown> & { code?: { example?: string }; issues?: { items?: { properties?: Record<string, unknown>; additionalProperties?: boolean } } };
  example?: { code?: string };
}

/** trpc-to-openapi describes errors with tRPC's codes; ours carry the app's codes and issue paths. */
function describeOurErrors(doc: OpenAPIObject): OpenAPIObject {
  for (const [id, raw] of Object.entries(doc.components?.schemas ?? {})) {
    if (!id.startsWith('error.')) continue;
    const schema = raw as ErrorSchema;
    const code = EXAMPLE_CODES[id.slice('error.'.length)];
    if (code && schema.properties?.code) schema.properties.code.example = code;
    if (code && schema.example) schema.example.code = code;
    const items = schema.properties?.issues?.items;
    if (items?.properties) items.properties.path = { type: 'string', description: 'The field the issue is about' };
    if (schema.properties) {
      // RFC 9457 problem details (the body is application/problem+json).
      schema.properties.type = { type: 'string', format: 'uri', description: 'Documentation of this error code' };
      schema.properties.title = { type: 'string', description: 'The HTTP status phrase' };
      schema.properties.status = { type: 'integer', description: 'The HTTP status code' };
      schema.properties.detail = { type: 'string', description: 'What went wrong, for a person (same as message)' };
    }
  }
  return doc;
}

/** The scope each /v1 operation requires (from apiKeyProcedure(scope)), in its description and as x-mailvet-scope. */
export function v1RouteScopes(): Array<{ method: string; path: string; scope: ApiScope | undefined }> {
  const procedures = (v1Router as unknown as { _def: { procedures: Record<string, { _def: { meta?: ProcedureMeta } }> } })._def.procedures;
  return Object.values(procedures)
    .map((p) => p._def.meta)
    .filter((m): m is ProcedureMeta & { openapi: { method: string; path: string } } => !!m?.openapi)
    .map((m) => ({ method: m.openapi.method, path: m.openapi.path, scope: m.apiScope }));
}

function describeScopes(doc: OpenAPIObject): OpenAPIObject {
  for (const { method, path, scope } of v1RouteScopes()) {
    const op = (doc.paths?.[path] as Record<string, { description?: string; 'x-mailvet-scope'?: string }> | undefined)?.[method.toLowerCase()];
    if (!op || !scope) continue;
    op['x-mailvet-scope'] = scope;
    op.description = `${op.description ? `${op.description} ` : ''}Key scope: ${scope}.`;
  }
  return doc;
}

const WEBHOOK_PAYLOADS: Record<WebhookEventName, z.ZodType> = {
  'job.completed': jobWebhookPayloadSchema,
  'job.failed': jobWebhookPayloadSchema,
  'schedule.run_completed': scheduleRunWebhookPayloadSchema,
};

/**
 * The `webhooks` of OpenAPI 3.1: the POSTs we send to a job's webhook_url and the account's
 * endpoints — one per event, with the headers we set and the body's schema (the same zod schemas
 * the server builds the bodies with).
 */
function describeWebhooks(doc: OpenAPIObject): OpenAPIObject {
  const header = (name: string, description: string) => ({ name, in: 'header' as const, required: true, description, schema: { type: 'string' as const } });
  const headers = [
    header(SIGNATURE_HEADER, 'sha256=<hex>: HMAC-SHA256 of the raw body with your webhook signing secret (whsec_…, API Keys page). Recompute over the exact bytes received and compare in constant time.'),
    header('X-Mailvet-Event', 'The event name.'),
    header('X-Mailvet-Delivery', "The delivery id, the same on every attempt (for a job's webhook_url, the job id): ignore a duplicate."),
    header('X-Mailvet-Attempt', 'The attempt number, from 1.'),
  ];
  const webhooks: NonNullable<OpenAPIObject['webhooks']> = {};
  const schemas = (doc.components ??= {}).schemas ??= {};
  for (const [event, schema] of Object.entries(WEBHOOK_PAYLOADS)) {
    // The payload's meta id names it: toJSONSchema puts it (and any named part) under $defs.
    const id = z.globalRegistry.get(schema)?.id;
    if (!id) throw new Error(`the ${event} payload schema has no meta id`);
    Object.assign(schemas, (z.toJSONSchema(schema, { io: 'output' }) as { $defs?: Record<string, unknown> }).$defs);
    webhooks[event] = {
      post: {
        operationId: `webhook-${event.replace(/\./g, '-')}`,
        summary: WEBHOOK_EVENT_LABELS[event as WebhookEventName],
        description:
          `Sent with Content-Type application/json. Answer with any 2xx within ${WEBHOOK_TIMEOUT_MS / 1000} seconds for the whole exchange ` +
          `(we read at most ${WEBHOOK_RESPONSE_CAP_BYTES / 1024} KB of your answer and never follow redirects); anything else is retried with ` +
          `exponential backoff, ${MAX_WEBHOOK_ATTEMPTS} attempts in all, each with the same body.`,
        tags: ['Webhooks'],
        parameters: headers,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${id}` } } } },
        responses: { '2XX': { description: 'Received.' } },
      },
    };
  }
  return { ...doc, webhooks };
}

const cache = new Map<string, OpenAPIObject>();

export function openApiDocument(baseURL: string): OpenAPIObject {
  let doc = cache.get(baseURL);
  if (!doc) {
    doc = describeWebhooks(describeScopes(describeOurErrors(
      generateOpenApiDocument(v1Router, {
        title: 'Mailvet API',
        version: '1.0.0',
        description:
          'Email validation API. Authenticate with "Authorization: Bearer <API key>" (keys are created on the API Keys page). ' +
          'Errors are application/problem+json (RFC 9457: type, title, status, detail) and keep the app code and message ({code, message}); 429 carries Retry-After (seconds). ' +
          'Every response carries X-Request-Id (yours echoed when you send one). Every POST takes an Idempotency-Key header, kept per API key: the same key and body from the same API key within 24 hours return the original answer (no second job, no second charge); the same key with another body is a 422.',
        baseUrl: `${baseURL.replace(/\/$/, '')}/v1`,
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Your API key (mv_live_…, or a test key mv_test_… that answers from the sandbox)' } },
      }),
    )));
    cache.set(baseURL, doc);
  }
  return doc;
}
