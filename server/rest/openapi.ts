// The OpenAPI 3.1 document of /v1, generated from the v1 router (served at /v1/openapi.json).
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import { API_SCOPES, type ApiScope } from '../contracts/api-keys';
import { jobWebhookPayloadSchema, scheduleRunWebhookPayloadSchema } from '../contracts/public-api';
import { WEBHOOK_TIMEOUT_MS } from '../features/webhooks/webhook-delivery';
import { DELIVERY_HEADER, SIGNATURE_HEADER, SIGNATURE_V2_HEADER, TIMESTAMP_HEADER, WEBHOOK_TOLERANCE_SECONDS } from '../features/webhooks/webhook-signing';
import { MAX_WEBHOOK_ATTEMPTS, WEBHOOK_EVENT_LABELS, WEBHOOK_RESPONSE_CAP_BYTES, WEBHOOK_RETRY_WINDOW_HOURS, type WebhookEventName } from '../contracts/webhooks';
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
  required?: string[];
  additionalProperties?: boolean;
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
      // RFC 9457 problem details (the body is application/problem+json), always present.
      schema.properties.type = { type: 'string', format: 'uri', description: 'Documentation of this error code' };
      schema.properties.title = { type: 'string', description: 'The HTTP status phrase' };
      schema.properties.status = { type: 'integer', description: 'The HTTP status code' };
      schema.properties.detail = { type: 'string', description: 'What went wrong, for a person (same as message)' };
      schema.required = [...new Set([...(schema.required ?? []), 'type', 'title', 'status', 'detail'])];
      // Some codes carry details of their own (RFC 9457 extension members): named here, and others may follow.
      Object.assign(schema.properties, ERROR_DETAILS);
      schema.additionalProperties = true;
    }
  }
  return doc;
}

/** The extension members our error bodies carry for some codes (AppError details). */
const ERROR_DETAILS = {
  scope: { type: 'string', enum: [...API_SCOPES], description: 'SCOPE_REQUIRED: the scope the key lacks' },
  job_status: { type: 'string', description: 'CONFLICT on cancel: the status of the finished job' },
  needed: { type: 'integer', description: 'INSUFFICIENT_CREDITS: the credits the request needs' },
  balance: { type: 'integer', description: 'INSUFFICIENT_CREDITS: the credits the account has' },
  held: { type: 'integer', description: "INSUFFICIENT_CREDITS on a bulk job: the credits of the balance held for the addresses the account's unfinished jobs have still to validate" },
  reason: { type: 'string', description: 'BAD_INPUT on a CSV upload: why the file was refused' },
} as const;

/** Refusals every POST can get before its procedure runs (body guard, Idempotency-Key). */
const POST_REFUSALS: Record<string, { schema: string; code: string; title: string; description: string }> = {
  '409': { schema: 'error.CONFLICT', code: 'CONFLICT', title: 'Conflict error (409)', description: 'A request with this Idempotency-Key is still being processed' },
  '413': { schema: 'error.PAYLOAD_TOO_LARGE', code: 'PAYLOAD_TOO_LARGE', title: 'Payload too large error (413)', description: 'The body is larger than this route accepts' },
  '415': { schema: 'error.UNSUPPORTED_MEDIA_TYPE', code: 'UNSUPPORTED_MEDIA_TYPE', title: 'Unsupported media type error (415)', description: 'The body is not UTF-8 JSON (or, on the bulk routes, a CSV as multipart/form-data)' },
  '422': { schema: 'error.UNPROCESSABLE', code: 'UNPROCESSABLE', title: 'Unprocessable error (422)', description: 'This Idempotency-Key was already used with a different request' },
};

/**
 * Refusals any request can get from the HTTP edge, before a route reads it (server/http/client-error.ts,
 * transfer-coding.ts): problem+json like every /v1 error. 408, 417 and 431 carry BAD_INPUT (the
 * schema of the 400), 501 NOT_IMPLEMENTED. `post`: only requests with a body get it.
 */
const EDGE_REFUSALS: Record<string, { schema: string; code?: string; title?: string; description: string; post?: true }> = {
  '408': { schema: 'error.BAD_REQUEST', description: 'The request did not arrive in time (its headers within 20 s, a body still owed without a byte for 20 s, the whole request within 120 s): code BAD_INPUT; the connection is closed' },
  '417': { schema: 'error.BAD_REQUEST', description: 'An Expect header other than 100-continue: code BAD_INPUT; the connection is closed', post: true },
  '431': { schema: 'error.BAD_REQUEST', description: 'The request line and headers are larger than the server accepts (16 KB): code BAD_INPUT; the connection is closed' },
  '501': {
    schema: 'error.NOT_IMPLEMENTED',
    code: 'NOT_IMPLEMENTED',
    title: 'Not implemented error (501)',
    description: 'A Transfer-Encoding other than chunked (a compressed body goes in Content-Encoding): code NOT_IMPLEMENTED; the connection is closed',
  },
};

/** Sent once the API key is known (its account's and key's per-second budget): on answers and refusals after the key check. */
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests per second this key may send (the tighter of the plan and the key limit).', schema: { type: 'integer', minimum: 1 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current second.', schema: { type: 'integer', minimum: 0 } },
} as const;

interface OperationObject {
  parameters?: unknown[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, { description?: string; content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
}

/** The 400 schema's shape, with a refusal's own examples (not BAD_INPUT's). */
function refusalSchema<T extends object>(base: T, title: string, code: string, message: string): T {
  const schema = { ...structuredClone(base), title, example: { code, message } };
  const props = (schema as ErrorSchema).properties as { code?: { example?: string }; message?: { example?: string } } | undefined;
  if (props?.code) props.code.example = code;
  if (props?.message) props.message.example = message;
  return schema;
}

/**
 * What trpc-to-openapi cannot know of our answers: errors leave as application/problem+json; every
 * POST takes an Idempotency-Key and can be refused by the body guard (413, 415) or for its key
 * (409 still running, 422 another body); a 429, a 503 and a 409 still running carry Retry-After; results also come as CSV; the
 * bulk routes also take a CSV file as multipart/form-data.
 */
function describeOurAnswers(doc: OpenAPIObject): OpenAPIObject {
  const schemas = (doc.components ??= {}).schemas ??= {};
  const base = schemas['error.BAD_REQUEST'];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, raw] of Object.entries(item as Record<string, OperationObject>)) {
      const op = raw;
      // trpc-to-openapi hands operations the same error response objects (every 401 is one object): each
      // operation gets its own copy, or a POST's headers (Idempotent-Replayed) were declared on the GETs' answers too.
      const responses = (op.responses = structuredClone(op.responses ?? {}));
      for (const [status, r] of Object.entries(EDGE_REFUSALS)) {
        if (r.post && method !== 'post') continue;
        if (r.code && base && !schemas[r.schema]) schemas[r.schema] = refusalSchema(base, r.title ?? r.schema, r.code, r.description);
        if (!schemas[r.schema]) continue;
        responses[status] ??= { description: r.description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${r.schema}` } } } };
      }
      if (method === 'post') {
        op.parameters = [
          ...(op.parameters ?? []),
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: 'Makes a retry safe: the same key and body from the same API key within 24 hours return the original answer (Idempotent-Replayed: true). 1–255 visible ASCII characters.',
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
          },
        ];
        for (const [status, r] of Object.entries(POST_REFUSALS)) {
          if (base && !schemas[r.schema]) schemas[r.schema] = refusalSchema(base, r.title, r.code, r.description);
          const existing = responses[status];
          if (existing) existing.description = `${existing.description ?? ''}; or: ${r.description}`;
          else responses[status] = { description: r.description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${r.schema}` } } } };
        }
        if (path === '/bulk' || path === '/bulk-validate') {
          (op.requestBody ??= {}).content = {
            ...op.requestBody.content,
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  file: { type: 'string', format: 'binary', description: 'The CSV (up to 10 MB): an email column, or the first column.' },
                  webhook_url: { type: 'string', description: 'As in the JSON body; an empty field (a form input left blank) is no webhook.' },
                },
                required: ['file'],
              },
            },
          };
        }
      }
      if (path === '/jobs/{id}/results' && responses['200']?.content) {
        responses['200'].content['text/csv'] = { schema: { type: 'string', description: 'The results as CSV (format=csv or Accept: text/csv); the next page is in the X-Next-Cursor header.' } };
      }
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400 || !response.content?.['application/json']) continue;
        response.content = { 'application/problem+json': response.content['application/json'] };
        if (status === '429' || status === '503') response.headers = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } } };
        // A 409 for a request still running says when to send it again; other conflicts (a finished job) do not.
        if (status === '409' && method === 'post') response.headers = { 'Retry-After': { description: 'With "still being processed" (Idempotency-Key): seconds to wait before sending the request again.', schema: { type: 'integer', minimum: 1 } } };
        if (status === '401') {
          response.headers = {
            'WWW-Authenticate': { description: 'Bearer realm="Mailvet API", with error="invalid_token" when the key sent is malformed, unknown or revoked.', schema: { type: 'string' } },
          };
        }
      }
      // The headers of ours every answer may carry (the description says so in prose; a client generated from the document reads them here).
      for (const [status, response] of Object.entries(responses)) {
        response.headers = {
          'X-Request-Id': { required: true, description: 'The request id (yours echoed when you sent one): quote it to support.', schema: { type: 'string' } },
          ...(status === '401' ? {} : RATE_LIMIT_HEADERS),
          ...(method === 'post' ? { 'Idempotent-Replayed': { description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } } } : {}),
          ...(path === '/jobs/{id}/results' && status === '200' ? { 'X-Next-Cursor': { description: 'The cursor of the next page (as next_cursor in JSON); absent on the last page.', schema: { type: 'string' } } } : {}),
          ...response.headers,
        };
      }
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
  'job.cancelled': jobWebhookPayloadSchema,
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
    header(
      SIGNATURE_V2_HEADER,
      `t=<timestamp>,v1=<hex>: t is ${TIMESTAMP_HEADER}; v1 is the HMAC-SHA256, with your webhook signing secret (whsec_…, API Keys page), of "<t>.<${DELIVERY_HEADER}>.<raw body>". ` +
        `Recompute over the exact bytes received, compare in constant time with v1, and refuse a t more than ${WEBHOOK_TOLERANCE_SECONDS / 60} minutes from your clock (a replayed request). Ignore parts you do not know.`,
    ),
    header(TIMESTAMP_HEADER, 'Unix seconds when this attempt was signed and sent (each retry has its own); the t the signature covers.'),
    header(SIGNATURE_HEADER, 'sha256=<hex>: HMAC-SHA256 of the raw body alone with your webhook signing secret, unchanged for receivers that verify it today. It covers no timestamp or delivery id, so a captured request verifies forever: verify X-Mailvet-Signature-V2 instead.'),
    header('X-Mailvet-Event', 'The event name.'),
    header(DELIVERY_HEADER, "The delivery id, the same on every attempt (for a job's webhook_url, the job id), covered by the signature: ignore a duplicate."),
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
          `exponential backoff for about ${WEBHOOK_RETRY_WINDOW_HOURS} hours, ${MAX_WEBHOOK_ATTEMPTS} attempts in all, each with the same body.`,
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
    doc = describeWebhooks(describeScopes(describeOurAnswers(describeOurErrors(
      generateOpenApiDocument(v1Router, {
        title: 'Mailvet API',
        version: '1.0.0',
        description:
          'Email validation API. Authenticate with "Authorization: Bearer <API key>" (keys are created on the API Keys page). ' +
          'Errors are application/problem+json (RFC 9457: type, title, status, detail) and keep the app code and message ({code, message}), refusals by the HTTP server itself (408, 413, 417, 431, 400 for malformed HTTP, 501) included; 429, 503 and a 409 for a request still running carry Retry-After (seconds). ' +
          'Every response carries X-Request-Id (yours echoed when you send one). Every POST takes an Idempotency-Key header, kept per API key: the same key and body from the same API key within 24 hours return the original answer (no second job, no second charge); the same key with another body is a 422.',
        baseUrl: `${baseURL.replace(/\/$/, '')}/v1`,
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Your API key (mv_live_…, or a test key mv_test_… that answers from the sandbox)' } },
      }),
    ))));
    cache.set(baseURL, doc);
  }
  return doc;
}
