// What an API client and a browser page meet at the /v1 edge: answers that tell a client when to come
// back (Retry-After on 503 and on a 409 for a request still running), a JSON body in any charset that
// is a subset of UTF-8, a browser's tracing header in a cross-origin call, and test keys that never
// spend the live keys' request budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOn, type Person } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Person;
let key = '';
beforeAll(async () => {
  ts = await startTestServer(); // no probe daemon: a deliverable-looking address cannot be checked (503)
  owner = await ownerOn(ts, 'enterprise', 'answers'); // 100 requests a second: the tests here never meet the rate
  key = (await owner.client.trpcMutation('apiKeys.create', { name: 'live' })).body.result.data.api_key as string;
});
afterAll(async () => {
  await ts?.stop();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}, bearer = key) =>
  fetch(`${ts.url}/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('Retry-After', () => {
  it('comes with a 503 (the verification service unavailable), on the direct validate path and the adapter path alike', async () => {
    for (const headers of [{}, { 'idempotency-key': `503-${Date.now()}` }] as Array<Record<string, string>>) {
      const res = await post('/validate', { email: 'someone@example.com' }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(503);
      expect(Number(res.headers.get('retry-after')), JSON.stringify(headers)).toBeGreaterThan(0);
    }
  });

  it('comes with the 409 for an Idempotency-Key whose first request is still running', async () => {
    const first = await post('/validate', { email: 'not-an-address' }, { 'idempotency-key': 'running-key' });
    expect(first.status).toBe(200);
    // Its answer is stored once it has been sent (a loaded machine may store it after the client has read it).
    await expect.poll(async () => (await ts.testDb.db.selectFrom('idempotency_key').select('status').where('account_id', '=', owner.accountId).executeTakeFirst())?.status).toBe(200);
    // As if that request were still being answered: its row has no stored answer yet.
    await ts.testDb.db.updateTable('idempotency_key').set({ status: null, body: null }).where('account_id', '=', owner.accountId).execute();
    const again = await post('/validate', { email: 'not-an-address' }, { 'idempotency-key': 'running-key' });
    expect(again.status).toBe(409);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('JSON bodies', () => {
  it('takes a body declared in US-ASCII (a subset of UTF-8) on every JSON surface, and still refuses a charset that is not', async () => {
    for (const charset of ['us-ascii', 'US-ASCII', 'ascii']) {
      const res = await post('/validate', { email: 'not-an-address' }, { 'content-type': `application/json; charset=${charset}` });
      expect(res.status, charset).toBe(200);
      const viaAdapter = await post('/estimate', { emails: ['not-an-address'] }, { 'content-type': `application/json; charset=${charset}` });
      expect(viaAdapter.status, charset).not.toBe(415);
    }
    const signIn = await fetch(`${ts.url}/api/auth/sign-in/email`, { method: 'POST', headers: { origin: ts.url, 'content-type': 'application/json; charset=us-ascii' }, body: JSON.stringify({ email: owner.email, password: 'wrong-password' }) });
    expect(signIn.status).toBe(401);
    const latin1 = await post('/validate', { email: 'not-an-address' }, { 'content-type': 'application/json; charset=iso-8859-1' });
    expect(latin1.status).toBe(415);
  });
});

describe('a cross-origin page', () => {
  it('may send W3C trace context headers (traceparent, tracestate) with its preflight', async () => {
    const res = await fetch(`${ts.url}/v1/validate`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,traceparent,tracestate' },
    });
    expect(res.status).toBe(204);
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    for (const h of ['authorization', 'content-type', 'traceparent', 'tracestate']) expect(allowed, h).toContain(h);
  });
});

describe('test keys', () => {
  it('have a request budget of their own: a test key at its limit leaves the live keys theirs', async () => {
    const p = await ownerOn(ts, 'starter', 'sandbox-rate'); // 3 requests a second
    const live = (await p.client.trpcMutation('apiKeys.create', { name: 'live' })).body.result.data.api_key as string;
    const test = (await p.client.trpcMutation('apiKeys.create', { name: 'test', test: true })).body.result.data.api_key as string;
    expect(test).toMatch(/^mv_test_/);
    // Within one second (retried if the second turned over meanwhile): the test key spends its 3 and is refused, the live key still gets its 3.
    for (let attempt = 0; ; attempt++) {
      const start = Date.now();
      const tests = await Promise.all([1, 2, 3, 4].map(() => post('/validate', { email: 'not-an-address' }, {}, test)));
      const lives = await Promise.all([1, 2, 3].map(() => post('/validate', { email: 'not-an-address' }, {}, live)));
      if (Date.now() - start > 800 && attempt < 3) {
        await new Promise((r) => setTimeout(r, 1100));
        continue;
      }
      expect(tests.map((r) => r.status).sort()).toEqual([200, 200, 200, 429]);
      expect(lives.map((r) => r.status)).toEqual([200, 200, 200]);
      break;
    }
  });
});
