// /v1 answers as its OpenAPI document says: every status a route really answers is declared for it,
// with the media type it really has (problem+json errors, CSV results) and a body its schema accepts
// (an error's extra fields such as SCOPE_REQUIRED's scope included). A client generated from the
// document, or one that validates answers against it, must not trip on an answer the server gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOn, type Person } from '../helpers/accounts';
import { responseProblems } from '../helpers/openapi-webhooks';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Person;
const keys: Record<'live' | 'test' | 'accountOnly' | 'slow', string> = { live: '', test: '', accountOnly: '', slow: '' };

beforeAll(async () => {
  ts = await startTestServer();
  owner = await ownerOn(ts, 'pro', 'openapi');
  await ts.testDb.db.updateTable('account').set({ credits_balance: 1000 }).where('id', '=', owner.accountId).execute();
  const create = async (input: Record<string, unknown>) => (await owner.client.trpcMutation('apiKeys.create', { name: 'k', ...input })).body.result.data.api_key as string;
  keys.live = await create({});
  keys.test = await create({ test: true });
  keys.accountOnly = await create({ test: true, scopes: ['account'] });
  keys.slow = await create({ test: true, rate_limit_per_second: 1 });
});
afterAll(async () => {
  await ts?.stop();
});

interface Call {
  /** The document's path template. */
  template: string;
  method: 'GET' | 'POST';
  path: string;
  key: keyof typeof keys | null;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * One request; the Pro plan's 10 requests a second are the rate these tests run under, and a fast
 * machine sends a test's calls quicker than that: a 429 is waited out (Retry-After) and the request
 * sent again, except where the 429 is the answer under test (`keepRateLimited`).
 */
async function send(url: string, init: RequestInit, keepRateLimited = false): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, init);
    if (res.status !== 429 || keepRateLimited || attempt === 3) return res;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 1000 * Math.max(1, Number(res.headers.get('retry-after')) || 1)));
  }
}

async function call(c: Call) {
  const res = await send(
    `${ts.url}/v1${c.path}`,
    {
      method: c.method,
      headers: { ...(c.key ? { authorization: `Bearer ${keys[c.key]}` } : {}), ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}), ...c.headers },
      body: c.body,
    },
    c.key === 'slow',
  );
  return { status: res.status, contentType: res.headers.get('content-type'), headers: res.headers, body: await res.text() };
}

/** Sends each call and collects where its answer departs from the document; returns the statuses seen. */
async function check(calls: Call[]): Promise<{ problems: string[]; seen: Set<number> }> {
  const problems: string[] = [];
  const seen = new Set<number>();
  for (const c of calls) {
    const answer = await call(c);
    seen.add(answer.status);
    problems.push(...responseProblems(c.method, c.template, answer));
  }
  return { problems, seen };
}

describe('the OpenAPI document of /v1 describes the answers the routes give', () => {
  it('declares every status, media type and body of the answers to ordinary and refused requests', async () => {
    const bulk = await call({ template: '/bulk', method: 'POST', path: '/bulk', key: 'test', body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev', 'invalid@sandbox.mailvet.dev'] }) });
    expect(bulk.status, bulk.body).toBe(200);
    const jobId = (JSON.parse(bulk.body) as { job_id: string }).job_id;
    const done = await call({ template: '/bulk', method: 'POST', path: '/bulk', key: 'test', body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev'] }) });
    const doneId = (JSON.parse(done.body) as { job_id: string }).job_id;
    await ts.testDb.db.updateTable('validation_job').set({ status: 'completed', completed_at: new Date() }).where('id', '=', doneId).execute();
    const small = JSON.stringify({ email: 'valid@sandbox.mailvet.dev' });

    const { problems, seen } = await check([
      // Answered
      { template: '/account', method: 'GET', path: '/account', key: 'test' },
      { template: '/validate', method: 'POST', path: '/validate', key: 'test', body: small },
      { template: '/estimate', method: 'POST', path: '/estimate', key: 'test', body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev'] }) },
      { template: '/jobs', method: 'GET', path: '/jobs?limit=1', key: 'test' },
      { template: '/jobs/{id}', method: 'GET', path: `/jobs/${jobId}`, key: 'test' },
      { template: '/jobs/{id}/results', method: 'GET', path: `/jobs/${jobId}/results`, key: 'test' },
      { template: '/jobs/{id}/results', method: 'GET', path: `/jobs/${jobId}/results?format=csv`, key: 'test' },
      { template: '/jobs/{id}/results', method: 'GET', path: `/jobs/${jobId}/results?limit=1`, key: 'test' },
      { template: '/bulk-validate', method: 'POST', path: '/bulk-validate', key: 'test', body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev'] }) },
      { template: '/bulk-validate', method: 'POST', path: '/bulk-validate', key: 'test', body: JSON.stringify({ emails: [] }) },
      { template: '/bulk-validate', method: 'POST', path: '/bulk-validate', key: 'accountOnly', body: JSON.stringify({ emails: ['a@example.com'] }) },
      { template: '/bulk', method: 'POST', path: '/bulk', key: 'test', body: JSON.stringify({ emails: ['c@example.com'] }), headers: { 'idempotency-key': 'doc-2' } },
      { template: '/bulk', method: 'POST', path: '/bulk', key: 'test', body: JSON.stringify({ emails: ['c@example.com'] }), headers: { 'idempotency-key': 'doc-2' } },
      { template: '/jobs', method: 'GET', path: '/jobs?limit=0', key: 'test' },
      { template: '/jobs', method: 'GET', path: '/jobs?cursor=garbage', key: 'test' },
      { template: '/jobs/{id}', method: 'GET', path: '/jobs/not-a-uuid', key: 'test' },
      { template: '/account', method: 'GET', path: '/account', key: null, headers: { authorization: 'Bearer mv_live_nope' } },
      // Refused: 400, 401, 403 (scope, with its scope field), 404, 409, 413, 415, 422
      { template: '/validate', method: 'POST', path: '/validate', key: 'test', body: '{"email":42}' },
      { template: '/validate', method: 'POST', path: '/validate', key: null, body: small },
      { template: '/jobs', method: 'GET', path: '/jobs', key: 'accountOnly' },
      { template: '/bulk', method: 'POST', path: '/bulk', key: 'accountOnly', body: JSON.stringify({ emails: ['a@example.com'] }) },
      { template: '/jobs/{id}', method: 'GET', path: '/jobs/00000000-0000-4000-8000-000000000000', key: 'test' },
      { template: '/jobs/{id}/cancel', method: 'POST', path: `/jobs/${doneId}/cancel`, key: 'test' },
      { template: '/validate', method: 'POST', path: '/validate', key: 'test', body: JSON.stringify({ email: 'x'.repeat(70_000) }) },
      { template: '/validate', method: 'POST', path: '/validate', key: 'test', body: small, headers: { 'content-type': 'text/plain' } },
      { template: '/bulk', method: 'POST', path: '/bulk', key: 'test', body: JSON.stringify({ emails: ['a@example.com'] }), headers: { 'idempotency-key': 'doc-1' } },
      { template: '/bulk', method: 'POST', path: '/bulk', key: 'test', body: JSON.stringify({ emails: ['b@example.com'] }), headers: { 'idempotency-key': 'doc-1' } },
      { template: '/jobs/{id}/cancel', method: 'POST', path: `/jobs/${jobId}/cancel`, key: 'test' },
    ]);
    expect(problems.join("\n")).toBe("");
    expect([...seen].sort()).toEqual([200, 400, 401, 403, 404, 409, 413, 415, 422]);
  });

  it('declares the 429 with its problem body', async () => {
    const calls: Call[] = Array.from({ length: 4 }, () => ({ template: '/account', method: 'GET', path: '/account', key: 'slow' }));
    const answers = await Promise.all(calls.map(call));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(responseProblems('GET', '/account', limited[0]!)).toEqual([]);
  });
});

describe('methods', () => {
  it('answers HEAD as GET without a body: the same status and headers, the key checked', async () => {
    const head = (path: string, key: keyof typeof keys | null) => send(`${ts.url}/v1${path}`, { method: 'HEAD', headers: key ? { authorization: `Bearer ${keys[key]}` } : {} });
    const noKey = await head('/account', null);
    expect(noKey.status).toBe(401);
    const ok = await head('/account', 'test');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^application\/json/);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('10');
    expect(await ok.text()).toBe('');
    const missing = await head('/jobs/00000000-0000-4000-8000-000000000000', 'test');
    expect(missing.status).toBe(404);
    expect((await head('/no-such-route', 'test')).status).toBe(404);
  });

  it('answers a method the path does not take with 405 and Allow, before reading the body; an unknown path stays 404', async () => {
    for (const [method, path, allow] of [
      ['GET', '/validate', 'POST'],
      ['PUT', '/validate', 'POST'],
      ['DELETE', '/account', 'GET, HEAD'],
      ['POST', '/jobs/00000000-0000-4000-8000-000000000000', 'GET, HEAD'],
      ['PATCH', '/jobs/00000000-0000-4000-8000-000000000000/cancel', 'POST'],
    ] as const) {
      const res = await send(`${ts.url}/v1${path}`, { method, headers: { authorization: `Bearer ${keys.test}`, 'content-type': 'text/plain' }, body: method === 'GET' ? undefined : 'not json' });
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(body).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED', detail: `${path} takes ${allow.split(', ')[0]}, not ${method}.` });
    }
    const unknown = await send(`${ts.url}/v1/no-such-route`, { method: 'PUT', headers: { authorization: `Bearer ${keys.test}` } });
    expect(unknown.status).toBe(404);
  });
});
