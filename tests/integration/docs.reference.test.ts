// The Documentation page's API Reference is read from the generated OpenAPI document: the model it
// renders (src/features/docs/openapi-model.ts) has every /v1 route, every field of the public result
// with its enum values, and the reason enum of the engine's contract. The page itself is checked
// against the same sources in tests/e2e/docs.spec.ts.
import { describe, expect, it } from 'vitest';
import { reasonSchema, resultSchema } from '../../probe/contract';
import { openApiDocument, v1RouteScopes } from '../../server/rest/openapi';
import { WEBHOOK_EVENTS } from '../../server/contracts/webhooks';
import { API_SCOPES, API_SCOPE_LABELS } from '../../server/contracts/api-keys';
import { endpointsOf, objectsOf, webhooksOf, type OpenApiDocument } from '../../src/features/docs/openapi-model';

const doc = JSON.parse(JSON.stringify(openApiDocument('http://127.0.0.1:1'))) as OpenApiDocument;

describe('API reference model', () => {
  it('lists every /v1 route with its method, /v1 path and scope', () => {
    const endpoints = endpointsOf(doc);
    const routes = v1RouteScopes();
    expect(endpoints.map((e) => `${e.method} ${e.path} ${e.scope}`).sort()).toEqual(routes.map((r) => `${r.method} /v1${r.path} ${r.scope}`).sort());
    for (const e of endpoints) expect(e.summary, e.path).not.toBe('');
  });

  it('describes the public result with every field and the contract enums', () => {
    const result = objectsOf(doc).find((o) => o.name === 'ValidationResult');
    expect(result).toBeDefined();
    const byName = new Map(result!.fields.map((f) => [f.name, f]));
    expect(byName.get('reason')?.enumValues).toEqual([...reasonSchema.options]);
    expect(byName.get('result')?.enumValues).toEqual([...resultSchema.options]);
    expect(byName.get('deliverability_score')?.type).toBe('integer (0–100)');
    const validate = endpointsOf(doc).find((e) => e.path === '/v1/validate')!;
    expect(validate.responseRef).toBe('ValidationResult');
    expect(validate.body).toEqual([expect.objectContaining({ name: 'email', type: 'string', required: true })]);
    expect(validate.errors.map((x) => x.status)).toEqual(expect.arrayContaining(['400', '401', '402', '403', '429']));
  });

  it('flattens nested objects and shows list items by name', () => {
    const account = objectsOf(doc).find((o) => o.name === 'Account')!;
    expect(account.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['key', 'key.id', 'key.scopes', 'key.test']));
    const results = endpointsOf(doc).find((e) => e.path === '/v1/jobs/{id}/results')!;
    expect(results.response.find((f) => f.name === 'results')).toMatchObject({ type: 'ValidationResult[]', ref: 'ValidationResult' });
    expect(results.parameters.map((p) => p.name)).toEqual(['id', 'limit', 'cursor', 'result', 'reason', 'format']);
  });

  it('lists every webhook event with the headers we send and the body fields', () => {
    const hooks = webhooksOf(doc);
    expect(hooks.map((h) => h.event)).toEqual([...WEBHOOK_EVENTS]);
    for (const h of hooks) {
      expect(h.summary, h.event).not.toBe('');
      expect(h.headers.map((x) => x.name)).toEqual(expect.arrayContaining(['X-Mailvet-Signature-V2', 'X-Mailvet-Timestamp', 'X-Mailvet-Signature', 'X-Mailvet-Delivery']));
      expect(h.body.find((f) => f.name === 'event')?.type, h.event).toBeDefined();
    }
    const job = hooks.find((h) => h.event === 'job.completed')!;
    expect(job.bodyRef).toBe('JobWebhookPayload');
    expect(job.body.map((f) => f.name)).toEqual(['event', 'job_id', 'status', 'total_emails', 'processed_emails', 'created_at', 'completed_at', 'test']);
    const run = hooks.find((h) => h.event === 'schedule.run_completed')!;
    expect(run.body.find((f) => f.name === 'changed')?.type).toBe('object[]');
    expect(run.body.filter((f) => f.name.startsWith('changed[].')).map((f) => f.name)).toEqual(['changed[].email', 'changed[].previous', 'changed[].current', 'changed[].reason']);
    expect(objectsOf(doc).map((o) => o.name)).toEqual(expect.arrayContaining(['JobWebhookPayload', 'ScheduleRunWebhookPayload']));
  });

  it("names under each key scope (the Documentation's scope table and the API Keys dialog) every route that scope opens, and no other", () => {
    // The table said validate was POST /v1/validate alone and bulk POST /v1/bulk alone: a key made
    // for estimates or for cancelling jobs had no way to tell which scope those need.
    const routes = v1RouteScopes();
    for (const scope of API_SCOPES) {
      const text = API_SCOPE_LABELS[scope].description;
      for (const r of routes) {
        const named = new RegExp(`${r.method} /v1${r.path.replace(/[{}]/g, '\\$&')}(?![\\w/-])`).test(text);
        expect(named, `${scope} ${r.scope === scope ? 'should' : 'should not'} name ${r.method} /v1${r.path}: "${text}"`).toBe(r.scope === scope);
      }
    }
  });

  it("shows each endpoint's request headers (a POST's Idempotency-Key) and every response header the document declares for it", () => {
    for (const ep of endpointsOf(doc)) {
      const op = doc.paths[ep.path.replace(/^\/v1/, '')]![ep.method.toLowerCase()]!;
      const declared = new Set(Object.values(op.responses ?? {}).flatMap((r) => Object.keys(r.headers ?? {})));
      expect(new Set(ep.headers.map((h) => h.name)), `${ep.method} ${ep.path}`).toEqual(declared);
      expect(ep.parameters.some((p) => p.name === 'Idempotency-Key'), `${ep.method} ${ep.path}`).toBe(ep.method === 'POST');
    }
    const results = endpointsOf(doc).find((e) => e.path === '/v1/jobs/{id}/results')!;
    expect(results.headers.find((h) => h.name === 'X-Next-Cursor')?.description).toMatch(/With 200\.$/);
    expect(results.headers.find((h) => h.name === 'X-RateLimit-Remaining')?.type).toBe('integer (≥ 0)');
  });
});
