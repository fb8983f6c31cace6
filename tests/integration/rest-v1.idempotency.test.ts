// Safe retries on /v1: Idempotency-Key on POSTs (same key and body → the original answer, no second
// job, no second charge; same key, other body → 422), X-Request-Id on every response, and errors as
// RFC 9457 problem details that still carry the app's code and message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planByType } from '../../server/contracts/plans';
import { claimIdempotencyKey, requestHash, settleIdempotencyKey } from '../../server/features/idempotency/idempotency.service';
import { signUpVerified, startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let key: string;
let accountId: string;
let owner: Awaited<ReturnType<typeof signUpVerified>>;

beforeAll(async () => {
  ts = await startTestServer();
  const c = await signUpVerified(ts, { email: 'idem@example.com' });
  owner = c;
  accountId = (await c.trpcQuery('account.me')).body.result.data.accountId as string;
  const p = planByType('pro');
  await ts.testDb.db.updateTable('account').set({ plan: 'pro', credits_balance: 50, monthly_validations_quota: p.monthlyValidations }).where('id', '=', accountId).execute();
  key = (await c.trpcMutation('apiKeys.create', { name: 'idem' })).body.result.data.api_key as string;
});
afterAll(async () => {
  await ts?.stop();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${ts.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const jobs = async () => (await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute()).length;

describe('Idempotency-Key', () => {
  it('answers a retried POST /v1/bulk with the original job, creating one job only', async () => {
    const body = { emails: ['a@example.com', 'b@example.com'] };
    const first = await post('/v1/bulk', body, { 'idempotency-key': 'order-42' });
    expect(first.status).toBe(200);
    const again = await post('/v1/bulk', body, { 'idempotency-key': 'order-42' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await jobs()).toBe(1);
    const other = await post('/v1/bulk', body, { 'idempotency-key': 'order-43' });
    expect(other.body.job_id).not.toBe(first.body.job_id);
    expect(await jobs()).toBe(2);
  });

  it('replays a retry sent to another spelling of the same route (/v1/bulk/, /v1/BULK): Express serves them alike', async () => {
    const body = { emails: ['slash@example.com'] };
    const first = await post('/v1/bulk', body, { 'idempotency-key': 'spelling-1' });
    expect(first.status).toBe(200);
    const before = await jobs();
    for (const path of ['/v1/bulk/', '/v1/BULK']) {
      const again = await post(path, body, { 'idempotency-key': 'spelling-1' });
      expect({ path, status: again.status, replayed: again.headers.get('idempotent-replayed'), job: again.body.job_id }).toEqual({ path, status: 200, replayed: 'true', job: first.body.job_id });
    }
    expect(await jobs()).toBe(before);
    await new Promise((r) => setTimeout(r, 1100)); // the next tests start with a fresh per-second bucket
  });

  it('refuses the same key with another body with 422 and changes nothing', async () => {
    const before = await jobs();
    const first = await post('/v1/bulk', { emails: ['c@example.com'] }, { 'idempotency-key': 'reused' });
    expect(first.status).toBe(200);
    const clash = await post('/v1/bulk', { emails: ['d@example.com'] }, { 'idempotency-key': 'reused' });
    expect(clash.status).toBe(422);
    expect(clash.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(clash.body).toMatchObject({ status: 422, code: 'UNPROCESSABLE', title: 'Unprocessable Entity' });
    expect(String(clash.body.detail)).toMatch(/different request/);
    expect(await jobs()).toBe(before + 1);
  });

  it('replays a refusal too, and refuses a malformed key', async () => {
    const bad = await post('/v1/bulk', { emails: [] }, { 'idempotency-key': 'empty-list' });
    expect(bad.status).toBe(400);
    const replay = await post('/v1/bulk', { emails: [] }, { 'idempotency-key': 'empty-list' });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual(bad.body);
    const malformed = await post('/v1/bulk', { emails: ['e@example.com'] }, { 'idempotency-key': 'x'.repeat(300) });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('BAD_INPUT');
  });

  it('keeps no 429: a request the rate limit refused runs when retried with its key after Retry-After', async () => {
    // A test key (no probe, no credit) held to 1 request per second: of a burst of five, at most two
    // run (the burst may straddle two windows), so at least three are refused before they ran.
    const slow = (await owner.trpcMutation('apiKeys.create', { name: 'slow', test: true, rate_limit_per_second: 1 })).body.result.data.api_key as string;
    const send = (k: string) => post('/v1/validate', { email: 'valid@sandbox.mailvet.dev' }, { authorization: `Bearer ${slow}`, 'idempotency-key': k });
    const keys = ['burst-1', 'burst-2', 'burst-3', 'burst-4', 'burst-5'];
    const burst = await Promise.all(keys.map(send));
    const limited = keys.filter((_, i) => burst[i]!.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(3);
    const retryAfter = Number(burst[keys.indexOf(limited[0]!)]!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
    const retried = await send(limited[0]!);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body).toMatchObject({ email: 'valid@sandbox.mailvet.dev', result: 'valid' });
  });

  it('refuses a request over the rate before claiming its key: a 429 writes nothing', async () => {
    const slow = (await owner.trpcMutation('apiKeys.create', { name: 'slow-2', test: true, rate_limit_per_second: 1 })).body.result.data.api_key as string;
    // While the key table is held, a request that claims a key waits; one refused first does not.
    const hold = await ts.testDb.pool.connect();
    const answered: number[] = [];
    let burst: Promise<unknown> = Promise.resolve();
    try {
      await hold.query('begin');
      await hold.query('lock table idempotency_key in share mode');
      burst = Promise.all(
        ['held-1', 'held-2', 'held-3'].map((k) =>
          post('/v1/estimate', { emails: ['valid@sandbox.mailvet.dev'] }, { authorization: `Bearer ${slow}`, 'idempotency-key': k }).then((r) => answered.push(r.status)),
        ),
      );
      // Of three at one request per second at least two are over the rate: answered with the table still held.
      await expect.poll(() => answered.filter((s) => s === 429).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    } finally {
      await hold.query('commit');
      hold.release();
    }
    await burst;
    expect(answered.every((s) => s === 200 || s === 429)).toBe(true);
  });

  it('keeps the answer of a request whose client gave up: the retry with its key gets that job, not a second one', async () => {
    // The client times out (or its connection drops) while the server is still creating the job —
    // exactly when a retry with the same Idempotency-Key must not create a second job. The test holds
    // the job table so the answer cannot be sent before the client has gone.
    const body = { emails: ['dropped-1@example.com', 'dropped-2@example.com'] };
    const before = await jobs();
    const hold = await ts.testDb.pool.connect();
    let released = false;
    try {
      await hold.query('begin');
      await hold.query('lock table validation_job in share mode');
      const gone = new AbortController();
      const first = fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'dropped' }, body: JSON.stringify(body), signal: gone.signal }).catch((e: unknown) => e);
      // The server is inside the procedure: it waits for the table.
      await expect.poll(async () => (await ts.testDb.pool.query(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%insert into "validation_job"%'`)).rows[0].n, { timeout: 10_000 }).toBe(1);
      gone.abort();
      expect(await first).toBeInstanceOf(Error);
      await hold.query('commit');
      released = true;
    } finally {
      if (!released) await hold.query('rollback');
      hold.release();
    }
    await expect.poll(jobs, { timeout: 10_000 }).toBe(before + 1);
    const settled = async () => (await ts.testDb.db.selectFrom('idempotency_key').select('status').where('account_id', '=', accountId).where('key', 'like', '% dropped').executeTakeFirst())?.status ?? 'released';
    await expect.poll(settled, { timeout: 10_000 }).not.toBeNull();
    const retry = await post('/v1/bulk', body, { 'idempotency-key': 'dropped' });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await jobs()).toBe(before + 1);
  });

  it('releases a key whose request never answered (the server stopped mid-request): the retry runs instead of a 409 for 24 hours', async () => {
    // A request claims its key, then the server dies before the answer is stored (a crash, a deploy):
    // the row stays "still being processed". Once no request could still be running, the retry runs.
    const body = { emails: ['crashed@example.com'] };
    const first = await post('/v1/bulk', body, { 'idempotency-key': 'crashed' });
    expect(first.status).toBe(200);
    const before = await jobs();
    const row = () => ts.testDb.db.updateTable('idempotency_key').where('account_id', '=', accountId).where('key', 'like', '% crashed');
    // Claimed a minute ago, never answered: a request may still be running, so the retry waits.
    await row().set({ status: null, body: null, content_type: null, created_at: new Date(Date.now() - 60_000) }).execute();
    const early = await post('/v1/bulk', body, { 'idempotency-key': 'crashed' });
    expect(early.status).toBe(409);
    expect(early.headers.get('retry-after')).toBe('1');
    // Claimed an hour ago, never answered: that request is gone.
    await row().set({ created_at: new Date(Date.now() - 3600_000) }).execute();
    const retry = await post('/v1/bulk', body, { 'idempotency-key': 'crashed' });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await jobs()).toBe(before + 1);
    const again = await post('/v1/bulk', body, { 'idempotency-key': 'crashed' });
    expect({ status: again.status, replayed: again.headers.get('idempotent-replayed'), job: again.body.job_id }).toEqual({ status: 200, replayed: 'true', job: retry.body.job_id });
    expect(await jobs()).toBe(before + 1);
  });

  it('stores the answer of the request that holds the claim: one that outlived its released claim does not overwrite the retry', async () => {
    const apiKeyId = (await ts.testDb.db.selectFrom('api_key').select('id').where('account_id', '=', accountId).limit(1).executeTakeFirstOrThrow()).id;
    const o = { accountId, apiKeyId, key: 'outlived', hash: requestHash('POST', '/bulk', { emails: ['x@example.com'] }), sandbox: false };
    const slow = await claimIdempotencyKey(ts.testDb.db, o);
    expect(slow.kind).toBe('new');
    await ts.testDb.db.updateTable('idempotency_key').set({ created_at: new Date(Date.now() - 3600_000) }).where('account_id', '=', accountId).where('key', 'like', '% outlived').execute();
    const retry = await claimIdempotencyKey(ts.testDb.db, o);
    expect(retry.kind).toBe('new');
    const settle = (claim: typeof slow, body: string) => settleIdempotencyKey(ts.testDb.db, { ...o, claimedAt: claim.kind === 'new' ? claim.claimedAt : new Date(0), status: 200, body, contentType: 'application/json' });
    await settle(slow, '{"job_id":"slow"}');
    await expect(claimIdempotencyKey(ts.testDb.db, o)).rejects.toThrow(/still being processed/);
    await settle(retry, '{"job_id":"retry"}');
    expect(await claimIdempotencyKey(ts.testDb.db, o)).toMatchObject({ kind: 'replay', body: '{"job_id":"retry"}' });
  });

  it('keeps keys apart per account: another account may use the same key', async () => {
    const c2 = await signUpVerified(ts, { email: 'idem-2@example.com' });
    const acc2 = (await c2.trpcQuery('account.me')).body.result.data.accountId as string;
    await ts.testDb.db.updateTable('account').set({ plan: 'pro', credits_balance: 50 }).where('id', '=', acc2).execute();
    const key2 = (await c2.trpcMutation('apiKeys.create', { name: 'idem2' })).body.result.data.api_key as string;
    const mine = await post('/v1/bulk', { emails: ['f@example.com'] }, { 'idempotency-key': 'shared-key' });
    const theirs = await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key2}`, 'content-type': 'application/json', 'idempotency-key': 'shared-key' }, body: JSON.stringify({ emails: ['f@example.com'] }) });
    expect(theirs.status).toBe(200);
    expect(((await theirs.json()) as { job_id: string }).job_id).not.toBe(mine.body.job_id);
  });
});

describe('request ids and problem details', () => {
  it('echoes a client X-Request-Id and makes one up otherwise, on every surface', async () => {
    const echoed = await fetch(`${ts.url}/v1/openapi.json`, { headers: { 'x-request-id': 'client-req-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-req-123');
    const made = await fetch(`${ts.url}/healthz`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await fetch(`${ts.url}/healthz`, { headers: { 'x-request-id': 'bad id with spaces <script>' } });
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers errors as application/problem+json with the app code kept', async () => {
    const res = await fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { authorization: 'Bearer mv_live_nope', 'content-type': 'application/json' }, body: '{"email":"a@b.test"}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 401, title: 'Unauthorized', code: 'INVALID_API_KEY' });
    expect(body.detail).toBe(body.message);
    expect(String(body.type)).toMatch(/\/documentation#error-INVALID_API_KEY$/);
  });
});
