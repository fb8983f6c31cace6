// POST /v1/validate is answered by a direct route (rest/mount.ts directPost + validateDirect) instead
// of trpc-to-openapi's adapter and tRPC's middleware chain. It must answer exactly as the adapter
// does: the adapter still serves `/v1/validate/` (a trailing slash), so every case below is sent
// to both and the answers compared — status, body, content type and the headers a client reads.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ownerOn, setPlan } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { freePort } from '../probe/mailworld-helpers';

let ts: TestServer;
const keys: Record<string, string> = {};

beforeAll(async () => {
  // The probe is a closed port: an address only a probe can answer gets the 503 path.
  ts = await startTestServer({ probeUrls: [`http://127.0.0.1:${await freePort()}`], probeToken: 't' });
  const db = ts.testDb.db;
  const create = async (p: Awaited<ReturnType<typeof ownerOn>>, body: Record<string, unknown>) => {
    const res = await p.client.trpcMutation('apiKeys.create', { name: 'k', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result.data as { api_key: string; id: string };
  };
  const main = await ownerOn(ts, 'enterprise', 'direct');
  await db.updateTable('account').set({ credits_balance: 1000 }).where('id', '=', main.accountId).execute();
  keys.live = (await create(main, {})).api_key;
  keys.test = (await create(main, { test: true })).api_key;
  keys.accountOnly = (await create(main, { scopes: ['account'] })).api_key;
  const revoked = await create(main, {});
  expect((await main.client.trpcMutation('apiKeys.revoke', { id: revoked.id })).status).toBe(200);
  keys.revoked = revoked.api_key;

  const broke = await ownerOn(ts, 'business', 'direct-broke');
  keys.broke = (await create(broke, {})).api_key;
  await db.updateTable('account').set({ credits_balance: 0 }).where('id', '=', broke.accountId).execute();

  const suspended = await ownerOn(ts, 'business', 'direct-suspended');
  keys.suspended = (await create(suspended, {})).api_key;
  await db.updateTable('account').set({ credits_balance: 10, subscription_status: 'suspended' }).where('id', '=', suspended.accountId).execute();

  const downgraded = await ownerOn(ts, 'business', 'direct-free');
  keys.free = (await create(downgraded, {})).api_key;
  await setPlan(ts, downgraded.accountId, 'free');
}, 180_000);
afterAll(async () => ts?.stop());

interface Answer {
  status: number;
  contentType: string | null;
  body: unknown;
  rateLimit: string | null;
  remaining: string | null;
  retryAfter: string | null;
  cacheControl: string | null;
  timings: string[];
}

async function send(path: string, o: { key?: string; body?: string; contentType?: string | null }): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (o.key !== undefined) headers.authorization = o.key;
  if (o.contentType !== null) headers['content-type'] = o.contentType ?? 'application/json';
  const res = await fetch(`${ts.url}${path}`, { method: 'POST', headers, body: o.body });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    body,
    rateLimit: res.headers.get('x-ratelimit-limit'),
    // What is left of the second's budget moves with every call: only whether it is sent is compared.
    remaining: res.headers.get('x-ratelimit-remaining') === null ? null : /^\d+$/.test(res.headers.get('x-ratelimit-remaining')!) ? 'a count' : 'not a count',
    retryAfter: res.headers.get('retry-after'),
    cacheControl: res.headers.get('cache-control'),
    timings: (res.headers.get('server-timing') ?? '').split(',').map((t) => t.trim().split(';')[0]!).filter(Boolean),
  };
}

const bearer = (k: string) => `Bearer ${keys[k]}`;
const json = (v: unknown) => JSON.stringify(v);

it('answers every case exactly as the trpc-to-openapi adapter does', { timeout: 120_000 }, async () => {
  const cases: Array<[string, { key?: string; body?: string; contentType?: string | null }, number]> = [
    ['bad syntax (charged)', { key: bearer('live'), body: json({ email: 'bad@@x.example' }) }, 200],
    ['address literal (free)', { key: bearer('live'), body: json({ email: 'user@[192.0.2.1]' }) }, 200],
    ['only a probe can answer', { key: bearer('live'), body: json({ email: 'jane@example.com' }) }, 503],
    ['sandbox key', { key: bearer('test'), body: json({ email: 'valid@sandbox.mailvet.dev' }) }, 200],
    ['sandbox key, bad syntax', { key: bearer('test'), body: json({ email: 'not-an-email' }) }, 200],
    ['no key', { body: json({ email: 'bad@@x.example' }) }, 401],
    ['not a key', { key: 'Bearer nope', body: json({ email: 'bad@@x.example' }) }, 401],
    ['unknown key', { key: 'Bearer mv_live_0000000000000000000000000000000000000000', body: json({ email: 'bad@@x.example' }) }, 401],
    ['revoked key', { key: bearer('revoked'), body: json({ email: 'bad@@x.example' }) }, 401],
    ['key without the scope', { key: bearer('accountOnly'), body: json({ email: 'bad@@x.example' }) }, 403],
    ['plan without API access', { key: bearer('free'), body: json({ email: 'bad@@x.example' }) }, 403],
    ['no credits', { key: bearer('broke'), body: json({ email: 'bad@@x.example' }) }, 402],
    ['suspended account', { key: bearer('suspended'), body: json({ email: 'bad@@x.example' }) }, 402],
    ['empty object', { key: bearer('live'), body: '{}' }, 400],
    ['email not a string', { key: bearer('live'), body: json({ email: 42 }) }, 400],
    ['empty email', { key: bearer('live'), body: json({ email: '' }) }, 400],
    ['line break', { key: bearer('live'), body: json({ email: 'a\r\nb@example.com' }) }, 400],
    ['too long', { key: bearer('live'), body: json({ email: `${'a'.repeat(2000)}@example.com` }) }, 400],
    ['array body', { key: bearer('live'), body: '[1,2,3]' }, 400],
    ['null body', { key: bearer('live'), body: 'null' }, 400],
    ['string body', { key: bearer('live'), body: '"bad@@x.example"' }, 400],
    ['broken JSON', { key: bearer('live'), body: '{"email": ' }, 400],
    ['no body', { key: bearer('live') }, 400],
    ['no content type', { key: bearer('live'), body: 'email=x', contentType: null }, 415],
    ['text/plain', { key: bearer('live'), body: json({ email: 'bad@@x.example' }), contentType: 'text/plain' }, 415],
    ['bad key and bad body', { key: 'Bearer nope', body: '[1]' }, 401],
  ];
  for (const [name, req, status] of cases) {
    const direct = await send('/v1/validate', req);
    const adapter = await send('/v1/validate/', req);
    expect(direct.status, name).toBe(status);
    expect(direct, name).toEqual(adapter);
  }
});

it('refuses past the rate with the same 429, Retry-After and rate headers', async () => {
  const p = await ownerOn(ts, 'business', 'direct-rate');
  await ts.testDb.db.updateTable('account').set({ credits_balance: 100 }).where('id', '=', p.accountId).execute();
  const key = `Bearer ${(await p.client.trpcMutation('apiKeys.create', { name: 'slow', rate_limit_per_second: 1 })).body.result.data.api_key}`;
  const body = json({ email: 'bad@@x.example' });
  const burst = async (path: string) => {
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) answers.push(await send(path, { key, body }));
    return answers;
  };
  const direct = await burst('/v1/validate');
  await new Promise((r) => setTimeout(r, 1100)); // the next second's budget
  const adapter = await burst('/v1/validate/');
  expect(direct.map((a) => a.status)).toContain(429);
  // Which of the three falls in the next second can differ; compare one 200 and one 429 of each.
  for (const status of [200, 429]) {
    const d = direct.find((a) => a.status === status);
    const a = adapter.find((x) => x.status === status);
    expect(d, `direct ${status}`).toBeDefined();
    expect(d).toEqual(a);
  }
});
