// Sandbox (test) keys and scoped keys over HTTP (issue #12 items 4 and 5): a test key answers from
// the sandbox table on /v1/validate and /v1/bulk (jobs complete, webhooks fire) without asking the
// probe or costing a credit; a key's scopes and per-key rate are enforced on every /v1 route.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { SANDBOX_ENTRIES } from '../../server/contracts/sandbox';
import { v1RouteScopes } from '../../server/rest/openapi';
import { ownerOn, setPlan, type Person } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** Something listening where the probe daemon would be, counting every request (a sandbox must make none). */
async function startCountingProbe() {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits += 1;
    req.resume();
    res.statusCode = 503;
    res.end('not a probe');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits: () => hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A webhook receiver on 127.0.0.1. */
async function startReceiver() {
  const received: Array<{ body: string; headers: http.IncomingHttpHeaders }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let ts: TestServer;
let probe: Awaited<ReturnType<typeof startCountingProbe>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  probe = await startCountingProbe();
  receiver = await startReceiver();
  ts = await startTestServer({ role: 'all', probeUrls: [probe.url], probeToken: 't', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
});
afterAll(async () => {
  await ts?.stop();
  await probe?.close();
  await receiver?.close();
});

async function owner(plan: Plan, credits: number): Promise<Person> {
  const p = await ownerOn(ts, plan, `keys-${plan}`);
  await setPlan(ts, p.accountId, plan);
  await ts.testDb.db.updateTable('account').set({ credits_balance: credits }).where('id', '=', p.accountId).execute();
  return p;
}

async function createKey(p: Person, input: Record<string, unknown>) {
  return p.client.trpcMutation('apiKeys.create', { name: 'k', ...input });
}

async function key(p: Person, input: Record<string, unknown> = {}): Promise<{ key: string; id: string }> {
  const res = await createKey(p, input);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { key: res.body.result.data.api_key as string, id: res.body.result.data.id as string };
}

async function api(k: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${ts.url}${path}`, {
    method,
    headers: { ...(k ? { authorization: `Bearer ${k}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: json, headers: res.headers };
}

async function money(accountId: string) {
  const a = await ts.testDb.db.selectFrom('account').select(['credits_balance', 'monthly_validations_used']).where('id', '=', accountId).executeTakeFirstOrThrow();
  const rows = await ts.testDb.db.selectFrom('validation_result').select((eb) => eb.fn.countAll<string>().as('n')).where('account_id', '=', accountId).where('charged', '=', true).executeTakeFirstOrThrow();
  return { balance: a.credits_balance, used: a.monthly_validations_used, chargedRows: Number(rows.n) };
}

async function keyCount(accountId: string): Promise<number> {
  const r = await ts.testDb.db.selectFrom('api_key').select((eb) => eb.fn.countAll<string>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('every /v1 route declares a scope', () => {
  it('is built from apiKeyProcedure(scope), and the OpenAPI document says which', async () => {
    const routes = v1RouteScopes();
    expect(routes.length).toBeGreaterThan(0);
    for (const r of routes) expect(r.scope, `${r.method} ${r.path}`).toMatch(/^(validate|bulk|results|account)$/);
    const doc = (await api(null, 'GET', '/v1/openapi.json')).body;
    for (const r of routes) expect(doc.paths[r.path][r.method.toLowerCase()]['x-mailvet-scope']).toBe(r.scope);
  });
});

describe('creating keys: test keys, scopes and a per-key rate', () => {
  it('makes live keys (mv_live_, every scope) by default and test keys (mv_test_) on request', async () => {
    const p = await owner('starter', 10);
    const live = await createKey(p, {});
    expect(live.body.result.data).toMatchObject({ is_test: false, scopes: ['validate', 'bulk', 'results', 'account'], rate_limit_per_second: null });
    expect(live.body.result.data.api_key).toMatch(/^mv_live_/);
    const test = await createKey(p, { test: true, scopes: ['results', 'validate'], rate_limit_per_second: 2 });
    expect(test.body.result.data).toMatchObject({ is_test: true, scopes: ['validate', 'results'], rate_limit_per_second: 2, key_prefix: expect.stringMatching(/^mv_test_/) });
    expect(test.body.result.data.api_key).toMatch(/^mv_test_[0-9A-Za-z]{43}$/);
    const list = (await p.client.trpcQuery('apiKeys.list')).body.result.data as Array<{ is_test: boolean; scopes: string[] }>;
    expect(list.map((k) => k.is_test).sort()).toEqual([false, true]);
  });

  it('refuses bad scopes, bad rates and a rate above the plan with a 400, creating nothing', async () => {
    const p = await owner('starter', 10); // Starter: 3 requests per second
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ scopes: [] }, /at least one scope/],
      [{ scopes: ['admin'] }, /Scopes must be among/],
      [{ scopes: ['bulk', 'bulk'] }, /once/],
      [{ scopes: 'bulk' }, /list/],
      [{ rate_limit_per_second: 0 }, /at least 1/],
      [{ rate_limit_per_second: 2.5 }, /whole number/],
      [{ rate_limit_per_second: '2' }, /number/],
      [{ rate_limit_per_second: 4 }, /at most your plan's rate of 3 requests per second/],
      [{ rate_limit_per_second: 1_000_000_000 }, /above your plan's rate/],
      [{ test: 'yes' }, /true or false/],
    ];
    for (const [input, message] of cases) {
      const res = await createKey(p, input);
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(JSON.stringify(res.body.error), JSON.stringify(input)).toMatch(message);
    }
    expect(await keyCount(p.accountId)).toBe(0);
    // At the plan's rate exactly is fine.
    expect((await createKey(p, { rate_limit_per_second: 3 })).status).toBe(200);
  });
});

describe('scoped keys on /v1', () => {
  it('answers 403 SCOPE_REQUIRED naming the scope, as problem+json, and changes nothing', async () => {
    const p = await owner('pro', 50);
    const { key: onlyValidate } = await key(p, { scopes: ['validate'], test: true });
    const bulk = await api(onlyValidate, 'POST', '/v1/bulk', { emails: ['valid@sandbox.mailvet.dev'] });
    expect(bulk.status).toBe(403);
    expect(bulk.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(bulk.body).toMatchObject({ status: 403, title: 'Forbidden', code: 'SCOPE_REQUIRED', scope: 'bulk', detail: expect.stringMatching(/"bulk" scope/) });
    const alias = await api(onlyValidate, 'POST', '/v1/bulk-validate', { emails: ['valid@sandbox.mailvet.dev'] });
    expect(alias.body).toMatchObject({ code: 'SCOPE_REQUIRED', scope: 'bulk' });
    const jobs = await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', p.accountId).execute();
    expect(jobs).toEqual([]);
    for (const path of ['/v1/jobs/00000000-0000-4000-8000-000000000000', '/v1/jobs/00000000-0000-4000-8000-000000000000/results']) {
      expect((await api(onlyValidate, 'GET', path)).body).toMatchObject({ code: 'SCOPE_REQUIRED', scope: 'results' });
    }
    expect((await api(onlyValidate, 'GET', '/v1/account')).body).toMatchObject({ code: 'SCOPE_REQUIRED', scope: 'account' });
    expect((await api(onlyValidate, 'POST', '/v1/validate', { email: 'valid@sandbox.mailvet.dev' })).status).toBe(200);

    const { key: onlyBulk } = await key(p, { scopes: ['bulk'], test: true });
    expect((await api(onlyBulk, 'POST', '/v1/validate', { email: 'valid@sandbox.mailvet.dev' })).body).toMatchObject({ status: 403, code: 'SCOPE_REQUIRED', scope: 'validate' });
    expect(await money(p.accountId)).toEqual({ balance: 50, used: 0, chargedRows: 0 });
  });

  it('answers 401 for a revoked key (live or test) whatever its scopes', async () => {
    const p = await owner('starter', 5);
    for (const test of [false, true]) {
      const k = await key(p, { test, scopes: ['account'] });
      expect((await api(k.key, 'GET', '/v1/account')).status).toBe(200);
      expect((await p.client.trpcMutation('apiKeys.revoke', { id: k.id })).status).toBe(200);
      const res = await api(k.key, 'GET', '/v1/account');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'KEY_REVOKED' });
    }
  });

  it('holds a key to its own rate limit below the plan, with Retry-After', async () => {
    const p = await owner('pro', 5); // Pro: 10 requests per second
    const { key: slow } = await key(p, { rate_limit_per_second: 1, scopes: ['account'] });
    const answers = await Promise.all([1, 2, 3].map(() => api(slow, 'GET', '/v1/account')));
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.body).toMatchObject({ code: 'RATE_LIMITED', detail: expect.stringMatching(/1 requests per second on this API key/) });
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const ok = answers.find((a) => a.status === 200)!;
    expect(ok.headers.get('x-ratelimit-limit')).toBe('1');
    expect(ok.body).toMatchObject({ plan: 'pro', credits_balance: 5, rate_limit_per_second: 1, key: { test: false, scopes: ['account'] } });
    // Another key of the same account is not held by it.
    const { key: other } = await key(p, { scopes: ['account'] });
    const free = await api(other, 'GET', '/v1/account');
    expect(free.status).toBe(200);
    expect(free.headers.get('x-ratelimit-limit')).toBe('10');
  });
});

describe('test keys answer from the sandbox', () => {
  it('POST /v1/validate answers every documented address from the table, never asks the probe, never costs a credit', async () => {
    const p = await owner('enterprise', 0); // no credits at all: a sandbox call still answers (Enterprise: the rate fits the table)
    const { key: test } = await key(p, { test: true });
    const before = probe.hits();
    for (const e of SANDBOX_ENTRIES) {
      const res = await api(test, 'POST', '/v1/validate', { email: e.address });
      expect(res.status, e.address).toBe(200);
      expect(res.body, e.address).toMatchObject({ email: e.address, result: e.result, reason: e.reason, charged: false, role_detected: e.role ?? false, disposable_provider: e.disposable ?? false });
    }
    expect((await api(test, 'POST', '/v1/validate', { email: 'not-an-email' })).body).toMatchObject({ result: 'invalid', reason: 'syntax', charged: false });
    expect((await api(test, 'POST', '/v1/validate', { email: '' })).status).toBe(400);
    expect(probe.hits()).toBe(before);
    expect(await money(p.accountId)).toEqual({ balance: 0, used: 0, chargedRows: 0 });

    // The same account's live key does go to the probe (here: unavailable → 503, no credit).
    await ts.testDb.db.updateTable('account').set({ credits_balance: 3 }).where('id', '=', p.accountId).execute();
    const { key: live } = await key(p);
    // The same Idempotency-Key with a test key and then a live key: two separate requests, never a replay across them.
    const idem = { 'idempotency-key': 'signup-form-42' };
    const sandboxFirst = await api(test, 'POST', '/v1/validate', { email: 'valid@sandbox.mailvet.dev' }, idem);
    expect(sandboxFirst.status).toBe(200);
    expect((await api(test, 'POST', '/v1/validate', { email: 'valid@sandbox.mailvet.dev' }, idem)).headers.get('idempotent-replayed')).toBe('true');
    const liveSame = await api(live, 'POST', '/v1/validate', { email: 'valid@sandbox.mailvet.dev' }, idem);
    expect(liveSame.headers.get('idempotent-replayed')).toBeNull();
    expect(liveSame.status).toBe(503);
    expect(probe.hits()).toBeGreaterThan(before);
    expect(await money(p.accountId)).toEqual({ balance: 3, used: 0, chargedRows: 0 });
  });

  it('POST /v1/bulk completes a sandbox job with the table\'s results, fires the webhook, costs nothing and stays out of analytics', { timeout: 60_000 }, async () => {
    const p = await owner('pro', 2); // fewer credits than addresses: a live job would be refused with 402
    const { key: test } = await key(p, { test: true });
    const { key: live } = await key(p);
    const emails = [...SANDBOX_ENTRIES.map((e) => e.address), 'valid+1@sandbox.mailvet.dev', 'not-an-email'];
    expect((await api(live, 'POST', '/v1/bulk', { emails })).status).toBe(402);

    const before = probe.hits();
    const started = await api(test, 'POST', '/v1/bulk', { emails, webhook_url: receiver.url });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const jobId = started.body.job_id as string;
    expect(started.body).toMatchObject({ total_emails: emails.length, status: 'pending' });

    await expect.poll(async () => (await api(test, 'GET', `/v1/jobs/${jobId}`)).body.status, { timeout: 30_000, interval: 200 }).toBe('completed');
    const page = await api(test, 'GET', `/v1/jobs/${jobId}/results`);
    expect(page.status).toBe(200);
    const byEmail = new Map((page.body.results as Array<{ email: string; result: string; reason: string; charged: boolean }>).map((r) => [r.email, r]));
    expect(byEmail.size).toBe(emails.length);
    for (const e of SANDBOX_ENTRIES) expect(byEmail.get(e.address), e.address).toMatchObject({ result: e.result, reason: e.reason, charged: false });
    expect(byEmail.get('valid+1@sandbox.mailvet.dev')).toMatchObject({ result: 'valid', reason: 'accepted' });
    expect(byEmail.get('not-an-email')).toMatchObject({ result: 'invalid', reason: 'syntax' });

    expect(probe.hits()).toBe(before);
    expect(await money(p.accountId)).toEqual({ balance: 2, used: 0, chargedRows: 0 });

    await expect.poll(() => receiver.received.filter((r) => r.body.includes(jobId)).length, { timeout: 30_000, interval: 200 }).toBe(1);
    const hook = JSON.parse(receiver.received.find((r) => r.body.includes(jobId))!.body);
    expect(hook).toMatchObject({ event: 'job.completed', job_id: jobId });

    // Live and test worlds do not see each other's jobs.
    expect((await api(live, 'GET', `/v1/jobs/${jobId}`)).status).toBe(404);
    // History marks it as a test key's job.
    const history = await p.client.trpcQuery('jobs.list', {});
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    const jobs = history.body.result.data.jobs as Array<{ id: string; is_sandbox: boolean; source: string }>;
    expect(jobs.find((j) => j.id === jobId)).toMatchObject({ is_sandbox: true, source: 'api' });

    // Analytics (Pro) count no sandbox results.
    const report = await p.client.trpcQuery('reporting.analytics', {});
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.result.data.totals.total).toBe(0);
  });
});
