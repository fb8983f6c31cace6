// Reads the generated OpenAPI document of /v1 (GET /v1/openapi.json, built from the v1 router's
// zod schemas by server/rest/openapi.ts) into what the Documentation page shows: endpoints,
// parameters, request and response fields with their types and enum values, and the named objects.
// Pure functions, no React: the page renders this, and tests/integration/docs-reference.test.ts
// checks it against the server's own document. Nothing here re-types a field by hand.

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  maxLength?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  example?: unknown;
  default?: unknown;
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface OpenApiHeader {
  description?: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }>; headers?: Record<string, OpenApiHeader> }>;
  'x-mailvet-scope'?: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** The requests we send (OpenAPI 3.1 `webhooks`), by event name. */
  webhooks?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface FieldRow {
  name: string;
  /** A readable type: `string`, `integer (0–100)`, `ValidationResult[]`, `string | null` … */
  type: string;
  required: boolean;
  description: string;
  /** The allowed values of an enum field, in the schema's order. */
  enumValues: string[];
  /** The named object this field holds (or holds a list of), for a link. */
  ref: string | null;
}

export interface EndpointModel {
  /** A stable anchor: the operationId, or method + path. */
  id: string;
  method: string;
  /** The path as clients call it, with the /v1 prefix. */
  path: string;
  summary: string;
  description: string;
  tag: string;
  scope: string | null;
  /** Path, query and header parameters (a POST's Idempotency-Key). */
  parameters: FieldRow[];
  /** Fields of the JSON body (POST), or [] when there is none. */
  body: FieldRow[];
  /** Fields of the 200 answer. */
  response: FieldRow[];
  /** The answer's named object when the whole 200 body is one (e.g. ValidationResult). */
  responseRef: string | null;
  /** The response headers of ours the operation declares (rate limit, Retry-After, X-Next-Cursor …), each once, saying with which statuses. */
  headers: FieldRow[];
  errors: Array<{ status: string; description: string }>;
}

/** One webhook event: the POST we send to the receiver. */
export interface WebhookModel {
  event: string;
  id: string;
  summary: string;
  description: string;
  headers: FieldRow[];
  body: FieldRow[];
  /** The body's named object (e.g. JobWebhookPayload). */
  bodyRef: string | null;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** The schema behind a $ref (one level), or the schema itself. */
export function resolve(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  if (!schema) return {};
  if (schema.$ref) return doc.components?.schemas?.[refName(schema.$ref)] ?? {};
  return schema;
}

function range(s: JsonSchema): string {
  // zod's safe-integer bounds say nothing to a reader.
  const min = s.minimum !== undefined && Math.abs(s.minimum) < Number.MAX_SAFE_INTEGER ? s.minimum : undefined;
  const max = s.maximum !== undefined && Math.abs(s.maximum) < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
  const fmt = (n: number) => n.toLocaleString('en-US');
  if (min !== undefined && max !== undefined) return ` (${fmt(min)}–${fmt(max)})`;
  if (min !== undefined) return ` (≥ ${fmt(min)})`;
  if (max !== undefined) return ` (≤ ${fmt(max)})`;
  return '';
}

/** A readable type for a schema. */
export function typeLabel(doc: OpenApiDocument, schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return refName(schema.$ref);
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts) return alts.map((a) => typeLabel(doc, a)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.enum ? 'string' : 'any';
  return types
    .map((t) => {
      if (t === 'array') {
        const item = typeLabel(doc, schema.items);
        const bounds = schema.maxItems !== undefined ? ` (${schema.minItems ?? 0}–${schema.maxItems.toLocaleString('en-US')})` : '';
        return `${item.includes(' ') ? `(${item})` : item}[]${bounds}`;
      }
      if (t === 'integer' || t === 'number') return `${t}${range(schema)}`;
      return t;
    })
    .join(' | ');
}

/** The summary line of a description (a field's enum list, e.g. the reason codes, is shown as a table). */
function firstLine(text: string): string {
  return text.split('\n')[0]!.replace(/:$/, '.');
}

function refOf(schema: JsonSchema | undefined): string | null {
  if (!schema) return null;
  if (schema.$ref) return refName(schema.$ref);
  if (schema.items?.$ref) return refName(schema.items.$ref);
  return null;
}

/**
 * One row per property of an object schema (following a $ref), in declaration order; the fields of
 * an inline nested object follow it as `parent.child`, those of a list of inline objects as
 * `parent[].child`.
 */
export function fieldsOf(doc: OpenApiDocument, schema: JsonSchema | undefined, prefix = ''): FieldRow[] {
  const s = resolve(doc, schema);
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).flatMap(([name, raw]) => {
    const target = resolve(doc, raw);
    const row: FieldRow = {
      name: `${prefix}${name}`,
      type: typeLabel(doc, raw),
      required: required.has(name),
      description: firstLine(raw.description ?? target.description ?? ''),
      enumValues: (raw.enum ?? target.enum ?? []).map(String),
      ref: refOf(raw),
    };
    const items = raw.type === 'array' && raw.items && !raw.items.$ref && raw.items.properties ? raw.items : null;
    const nested = !raw.$ref && raw.properties ? fieldsOf(doc, raw, `${row.name}.`) : items ? fieldsOf(doc, items, `${row.name}[].`) : [];
    return [row, ...nested];
  });
}

function jsonSchemaOf(content: Record<string, { schema?: JsonSchema }> | undefined): JsonSchema | undefined {
  if (!content) return undefined;
  return (content['application/json'] ?? Object.values(content)[0])?.schema;
}

function parameterRow(doc: OpenApiDocument, p: OpenApiParameter): FieldRow {
  return {
    name: p.name,
    type: `${typeLabel(doc, p.schema)} · ${p.in}`,
    required: p.required ?? false,
    description: p.description ?? p.schema?.description ?? '',
    enumValues: (resolve(doc, p.schema).enum ?? []).map(String),
    ref: null,
  };
}

/**
 * The response headers an operation declares, with the statuses that carry each ("every answer" when
 * all do); a header described differently by status (Retry-After) has a row per description.
 */
function responseHeaders(doc: OpenApiDocument, op: OpenApiOperation): FieldRow[] {
  const responses = Object.entries(op.responses ?? {});
  const rows = new Map<string, { name: string; header: OpenApiHeader; statuses: string[] }>();
  for (const [status, r] of responses) {
    for (const [name, header] of Object.entries(r.headers ?? {})) {
      const key = `${name}\n${header.description ?? ''}`;
      const row = rows.get(key) ?? { name, header, statuses: [] };
      row.statuses.push(status);
      rows.set(key, row);
    }
  }
  return [...rows.values()].map(({ name, header, statuses }) => ({
    name,
    type: typeLabel(doc, header.schema),
    required: false,
    description: `${header.description ?? ''} ${statuses.length === responses.length ? 'On every answer.' : `With ${statuses.join(', ')}.`}`.trim(),
    enumValues: [],
    ref: null,
  }));
}

/** Every operation of the document, in the document's order. */
export function endpointsOf(doc: OpenApiDocument): EndpointModel[] {
  const prefix = new URL(doc.servers?.[0]?.url ?? 'http://x/v1', 'http://x').pathname.replace(/\/$/, '');
  const out: EndpointModel[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header');
      const ok = op.responses?.['200'] ?? op.responses?.['201'];
      const okSchema = jsonSchemaOf(ok?.content);
      out.push({
        id: op.operationId ?? `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-'),
        method: method.toUpperCase(),
        path: `${prefix}${path}`,
        summary: op.summary ?? '',
        description: op.description ?? '',
        tag: op.tags?.[0] ?? '',
        scope: op['x-mailvet-scope'] ?? null,
        parameters: params.map((p) => parameterRow(doc, p)),
        body: fieldsOf(doc, jsonSchemaOf(op.requestBody?.content)),
        response: fieldsOf(doc, okSchema),
        responseRef: okSchema?.$ref ? refName(okSchema.$ref) : null,
        headers: responseHeaders(doc, op),
        errors: Object.entries(op.responses ?? {})
          .filter(([status]) => Number(status) >= 400)
          .map(([status, r]) => ({ status, description: r.description ?? '' })),
      });
    }
  }
  return out;
}

/** Every webhook event of the document: the headers and body of the POST we send. */
export function webhooksOf(doc: OpenApiDocument): WebhookModel[] {
  return Object.entries(doc.webhooks ?? {}).flatMap(([event, item]) => {
    const op = item.post;
    if (!op) return [];
    const schema = jsonSchemaOf(op.requestBody?.content);
    return [
      {
        event,
        id: op.operationId ?? `webhook-${event}`.replace(/[^A-Za-z0-9]+/g, '-'),
        summary: op.summary ?? '',
        description: op.description ?? '',
        headers: (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => parameterRow(doc, p)),
        body: fieldsOf(doc, schema),
        bodyRef: schema?.$ref ? refName(schema.$ref) : null,
      },
    ];
  });
}

/** The named objects (not the error envelopes), each with its fields. */
export function objectsOf(doc: OpenApiDocument): Array<{ name: string; description: string; fields: FieldRow[] }> {
  return Object.entries(doc.components?.schemas ?? {})
    .filter(([name, s]) => !name.startsWith('error.') && s.properties)
    .map(([name, s]) => ({ name, description: s.description ?? '', fields: fieldsOf(doc, s) }));
}
