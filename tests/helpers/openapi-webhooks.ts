// Checks what we really send against the OpenAPI document, with a JSON Schema 2020-12 validator —
// so the document describes what receivers and clients get, not what the code meant to send: a
// webhook body against its event's schema (`webhooks.<event>.post.requestBody`), and a /v1 answer
// against its operation's declared statuses, media types and schemas.
import Ajv2020 from 'ajv/dist/2020';
import { openApiDocument } from '../../server/rest/openapi';

/** The formats the document uses, checked: a date-time is an RFC 3339 time as toISOString writes it; a uri an absolute URL. */
function withFormats(ajv: Ajv2020): Ajv2020 {
  return ajv.addFormat('uri', (s: string) => URL.canParse(s)).addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s) && !Number.isNaN(Date.parse(s)));
}

interface Doc {
  webhooks?: Record<string, { post?: { parameters?: { name: string; in: string; required?: boolean }[]; requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } } }>;
  components?: { schemas?: Record<string, object> };
}

/** The validation errors of `body` (raw JSON) for `event`, or [] when it matches. */
export function webhookBodyProblems(event: string, body: string): string[] {
  const doc = JSON.parse(JSON.stringify(openApiDocument('http://127.0.0.1:1'))) as Doc;
  const ref = doc.webhooks?.[event]?.post?.requestBody?.content?.['application/json']?.schema?.$ref;
  if (!ref) return [`the OpenAPI document has no webhook body for ${event}`];
  const ajv = withFormats(new Ajv2020({ strict: false, allErrors: true }));
  const validate = ajv.compile({ ...doc.components!.schemas![ref.slice(ref.lastIndexOf('/') + 1)], $defs: doc.components!.schemas });
  return validate(JSON.parse(body)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/**
 * What a real delivery's headers break of the document's `webhooks.<event>.post.parameters`: every
 * required header declared must have been sent, and every X-Mailvet-* header sent must be declared.
 */
export function webhookHeaderProblems(event: string, headers: Record<string, unknown>): string[] {
  const doc = JSON.parse(JSON.stringify(openApiDocument('http://127.0.0.1:1'))) as Doc;
  const declared = (doc.webhooks?.[event]?.post?.parameters ?? []).filter((p) => p.in === 'header');
  if (declared.length === 0) return [`the OpenAPI document declares no headers for ${event}`];
  const sent = Object.keys(headers).map((h) => h.toLowerCase());
  const names = declared.map((p) => p.name.toLowerCase());
  return [
    ...declared.filter((p) => p.required && !sent.includes(p.name.toLowerCase())).map((p) => `${event}: ${p.name} is declared but was not sent`),
    ...sent.filter((h) => h.startsWith('x-mailvet-') && !names.includes(h)).map((h) => `${event}: ${h} was sent but is not declared`),
  ];
}

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }>; headers?: Record<string, { required?: boolean }> }>;
}

/** The response headers of ours a client reads (the rest are HTTP's own: Content-Type, Cache-Control, CORS …). */
const OUR_HEADERS = /^(x-(?!content-type-options$|frame-options$|powered-by$).*|idempotent-replayed|retry-after|www-authenticate)$/i;

/**
 * What a real /v1 answer breaks of the OpenAPI document: the operation must declare its status, the
 * answer's media type under that status, and (for JSON) the body must match the declared schema.
 * `path` is the document's template (e.g. /jobs/{id}/cancel).
 */
export function responseProblems(method: string, path: string, answer: { status: number; contentType: string | null; body: string; headers?: Headers }): string[] {
  const doc = JSON.parse(JSON.stringify(openApiDocument('http://127.0.0.1:1'))) as Doc & { paths?: Record<string, Record<string, Operation>> };
  const op = doc.paths?.[path]?.[method.toLowerCase()];
  if (!op) return [`the OpenAPI document has no ${method} ${path}`];
  const response = op.responses?.[String(answer.status)];
  if (!response) return [`${method} ${path}: status ${answer.status} is not declared (declared: ${Object.keys(op.responses ?? {}).join(', ')})`];
  // With the answer's headers: each header of ours it carries is declared for its status, and each one declared required is there.
  if (answer.headers) {
    const declaredHeaders = Object.entries(response.headers ?? {});
    const names = declaredHeaders.map(([n]) => n.toLowerCase());
    const headerProblems = [
      ...[...answer.headers.keys()].filter((h) => OUR_HEADERS.test(h) && !names.includes(h.toLowerCase())).map((h) => `${method} ${path} ${answer.status}: header ${h} is sent but not declared`),
      ...declaredHeaders.filter(([n, h]) => h.required && !answer.headers!.has(n)).map(([n]) => `${method} ${path} ${answer.status}: header ${n} is declared required but was not sent`),
    ];
    if (headerProblems.length) return headerProblems;
  }
  const media = (answer.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const declared = response.content?.[media];
  if (!declared) return [`${method} ${path} ${answer.status}: ${media || 'no media type'} is not declared (declared: ${Object.keys(response.content ?? {}).join(', ') || 'none'})`];
  if (!/json$/.test(media) || !declared.schema) return [];
  // The document's references point into components.schemas; the validator sees them as $defs.
  const local = (v: unknown) => JSON.parse(JSON.stringify(v).replace(/#\/components\/schemas\//g, '#/$defs/')) as object;
  const ajv = withFormats(new Ajv2020({ strict: false, allErrors: true }));
  const validate = ajv.compile({ ...local(declared.schema), $defs: local(doc.components!.schemas) });
  return validate(JSON.parse(answer.body)) ? [] : (validate.errors ?? []).map((e) => `${method} ${path} ${answer.status}: ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
