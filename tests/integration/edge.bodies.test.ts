// No body yields a 5xx: each class of hostile body is sent to each surface (dashboard tRPC, /v1,
// better-auth, the CSV upload) and answered with a clear 4xx, leaving no job and no debit.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified, startTestServer, type Browserless, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Browserless;
let accountId: string;
let apiKey: string;

beforeAll(async () => {
  ts = await startTestServer();
  owner = await signUpVerified(ts, { email: 'edge-owner@example.com' });
  accountId = (await owner.trpcQuery('account.me')).body.result.data.accountId as string;
  await ts.testDb.db.updateTable('account').set({ plan: 'enterprise', credits_balance: 1000 }).where('id', '=', accountId).execute();
  apiKey = (await owner.trpcMutation('apiKeys.create', { name: 'edge' })).body.result.data.api_key as string;
});
afterAll(async () => {
  await ts?.stop();
});

const deep = (n: number, inner = '"x"') => `${'['.repeat(n)}${inner}${']'.repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

interface Surface {
  name: string;
  path: string;
  headers: () => Record<string, string>;
  /** A valid body of this surface, with `email` spliced in as raw JSON text. */
  body: (emailJson: string) => string;
}

const surfaces: Surface[] = [
  { name: 'tRPC validation.check', path: '/api/trpc/validation.check', headers: () => ({ cookie: cookieOf(owner) }), body: (e) => `{"email":${e}}` },
  { name: 'tRPC batch', path: '/api/trpc/validation.check,apiKeys.create?batch=1', headers: () => ({ cookie: cookieOf(owner) }), body: (e) => `{"0":{"email":${e}},"1":{"name":"x"}}` },
  { name: '/v1/validate', path: '/v1/validate', headers: () => ({ authorization: `Bearer ${apiKey}` }), body: (e) => `{"email":${e}}` },
  { name: '/v1/bulk', path: '/v1/bulk', headers: () => ({ authorization: `Bearer ${apiKey}` }), body: (e) => `{"emails":[${e}]}` },
  { name: 'auth sign-in', path: '/api/auth/sign-in/email', headers: () => ({}), body: (e) => `{"email":${e},"password":"whatever-password"}` },
];

function cookieOf(c: Browserless): string {
  return [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

async function send(s: Surface, body: Buffer | string, contentType = 'application/json', extra: Record<string, string> = {}) {
  const res = await fetch(`${ts.url}${s.path}`, { method: 'POST', headers: { origin: ts.url, 'content-type': contentType, ...s.headers(), ...extra }, body });
  const text = await res.text();
  return { status: res.status, text };
}

async function ledger() {
  const account = await ts.testDb.db.selectFrom('account').select(['credits_balance', 'monthly_validations_used']).where('id', '=', accountId).executeTakeFirstOrThrow();
  const jobs = await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute();
  const results = await ts.testDb.db.selectFrom('validation_result').innerJoin('validation_job', 'validation_job.id', 'validation_result.job_id').select('validation_result.id').where('validation_job.account_id', '=', accountId).execute();
  return { account, jobs: jobs.length, results: results.length };
}

const classes: Array<{ name: string; status: number; message: RegExp; make: (s: Surface) => { body: Buffer | string; type?: string; headers?: Record<string, string> } }> = [
  { name: 'an email nested 5,000 levels deep', status: 400, message: /nested more than 64 levels/, make: (s) => ({ body: s.body(deep(5000)) }) },
  { name: 'a key nested 5,000 levels deep', status: 400, message: /nested more than 64 levels/, make: (s) => ({ body: s.body(`"a@b.test","z":${deepObject(5000)}`.replace(/^"a@b.test",/, '"a@b.test",')) }) },
  { name: 'a bare deep array', status: 400, message: /nested more than 64 levels/, make: () => ({ body: deep(20_000) }) },
  {
    name: 'a body past the route limit (2 MiB; 13 MiB for bulk)',
    status: 413,
    message: /larger than this endpoint accepts/,
    make: (s) => ({ body: s.body(JSON.stringify('a'.repeat((s.path === '/v1/bulk' ? 13 : 2) * 1024 * 1024))) }),
  },
  { name: 'charset=utf-7', status: 415, message: /Only UTF-8 JSON/, make: (s) => ({ body: s.body('"+AGEAQABi-.test"'), type: 'application/json; charset=utf-7' }) },
  { name: 'charset=iso-8859-1', status: 415, message: /Only UTF-8 JSON/, make: (s) => ({ body: s.body('"a@b.test"'), type: 'application/json;charset="ISO-8859-1"' }) },
  { name: 'text/plain', status: 415, message: /Content-Type: application\/json/, make: (s) => ({ body: s.body('"a@b.test"'), type: 'text/plain' }) },
  { name: 'form-encoded', status: 415, message: /Content-Type: application\/json/, make: () => ({ body: 'email=a%40b.test', type: 'application/x-www-form-urlencoded' }) },
  { name: 'malformed UTF-8', status: 400, message: /not valid UTF-8/, make: (s) => ({ body: Buffer.concat([Buffer.from(s.body('"a')), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('@b.test"}')]) }) },
  { name: 'UTF-16 bytes declared as JSON', status: 400, message: /not valid UTF-8|not valid JSON/, make: (s) => ({ body: Buffer.from(`\ufeff${s.body('"a@b.test"')}`, 'utf16le') }) },
  { name: 'truncated JSON', status: 400, message: /not valid JSON/, make: (s) => ({ body: s.body('"a@b.test"').slice(0, -3) }) },
  { name: 'an unsupported Content-Encoding', status: 415, message: /Content-Encoding/, make: (s) => ({ body: s.body('"a@b.test"'), headers: { 'content-encoding': 'x-bogus' } }) },
];

describe('hostile bodies on every JSON surface', () => {
  for (const s of surfaces) {
    it.each(classes)(`${s.name}: $name → $status`, async (c) => {
      const before = await ledger();
      const input = c.make(s);
      const res = await send(s, input.body, input.type, input.headers);
      expect(res.status, res.text.slice(0, 200)).toBe(c.status);
      expect(res.text).toMatch(c.message);
      expect(await ledger()).toEqual(before);
    });
  }

  it('bounds the depth of tRPC query input in the URL too', async () => {
    const res = await fetch(`${ts.url}/api/trpc/account.me?input=${encodeURIComponent(deep(1000))}`, { headers: { cookie: cookieOf(owner) } });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/nested more than 64 levels/);
  });

  it('still accepts the bodies the product sends (BOM-less UTF-8 JSON, charset=utf-8, nesting within the limit)', async () => {
    const createKey: Surface = { name: 'tRPC apiKeys.create', path: '/api/trpc/apiKeys.create', headers: () => ({ cookie: cookieOf(owner) }), body: () => '' };
    const utf8 = await send(createKey, '{"name":"utf8 charset"}', 'application/json; charset=UTF-8');
    expect(utf8.status, utf8.text).toBe(200);
    const nested = await send(createKey, `{"name":"nested","extra":${deep(60)}}`);
    expect(nested.status, nested.text).toBe(200);
    const big = await send(surfaces[3]!, JSON.stringify({ emails: Array.from({ length: 10_000 }, (_, i) => `user${i}@${'d'.repeat(60)}.test`) }).replace('"emails"', '"emails"'));
    expect(big.status, big.text.slice(0, 200)).not.toBe(413);
  });
});

describe('/v1 takes JSON under every media type the body guard accepts', () => {
  // Media types are case-insensitive (RFC 9110 §8.3.1) and a +json type is JSON (RFC 6839): the guard
  // accepts them, so the routes behind it must not answer 415 "Unsupported content-type" for them.
  const spellings = ['Application/JSON', 'APPLICATION/JSON; charset=UTF-8', 'application/problem+json', 'application/vnd.mailvet+json'];
  it.each(spellings)('%s on POST /v1/validate (both paths), /v1/bulk and /v1/jobs/{id}/cancel', async (type) => {
    const v1 = (path: string, body: string, extra: Record<string, string> = {}) =>
      fetch(`${ts.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': type, ...extra }, body }).then(async (r) => ({ status: r.status, text: await r.text() }));
    const direct = await v1('/v1/validate', '{"email":"not-an-address"}');
    expect(direct.status, direct.text).toBe(200);
    expect(JSON.parse(direct.text)).toMatchObject({ email: 'not-an-address', result: 'invalid', reason: 'syntax' });
    const viaExpress = await v1('/v1/validate', '{"email":"still-not-an-address"}', { 'idempotency-key': `media-${spellings.indexOf(type)}` });
    expect(viaExpress.status, viaExpress.text).toBe(200);
    const bulk = await v1('/v1/bulk', '{"emails":["a@example.com"]}');
    expect(bulk.status, bulk.text).toBe(200);
    const jobId = (JSON.parse(bulk.text) as { job_id: string }).job_id;
    const cancel = await v1(`/v1/jobs/${jobId}/cancel`, '{}');
    expect(cancel.status, cancel.text).toBe(200);
    expect(JSON.parse(cancel.text)).toMatchObject({ job: { job_id: jobId, status: 'cancelled' } });
  });
});

describe('the dashboard and sign-in take JSON under every media type the body guard accepts', () => {
  const spellings = ['Application/JSON', 'APPLICATION/JSON; charset=UTF-8', 'application/problem+json', 'application/vnd.mailvet+json'];
  it.each(spellings)('%s on tRPC (single and batch) and better-auth', async (type) => {
    const check = await send(surfaces[0]!, surfaces[0]!.body('"not-an-address"'), type);
    expect(check.status, check.text).toBe(200);
    expect(JSON.parse(check.text)).toMatchObject({ result: { data: { result: 'invalid', reason: 'syntax' } } });
    const batch = await send(surfaces[1]!, '{"0":{"email":"still-not-an-address"},"1":{"name":"media"}}', type);
    expect(batch.status, batch.text).toBe(200);
    // A wrong password is better-auth's own answer (401), not a 415 for the media type.
    const signIn = await send(surfaces[4]!, surfaces[4]!.body('"edge-owner@example.com"'), type);
    expect(signIn.status, signIn.text).toBe(401);
  });
});

describe('the CSV upload route', () => {
  const upload = (body: Buffer | string, type = 'text/csv') =>
    fetch(`${ts.url}/api/jobs/upload?filename=list.csv`, { method: 'POST', headers: { origin: ts.url, cookie: cookieOf(owner), 'content-type': type }, body });

  it('refuses an oversized file with 413 before reading it, and junk with a 4xx, creating no job and taking no credit', async () => {
    const before = await ledger();
    const big = await upload(Buffer.alloc(10 * 1024 * 1024 + 1, 0x61));
    expect(big.status).toBe(413);
    for (const body of [deep(50_000), Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x00]), deepObject(10_000), '']) {
      const res = await upload(body);
      expect(res.status, String(body).slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(res.status, String(body).slice(0, 20)).toBeLessThan(500);
    }
    expect(await ledger()).toEqual(before);
  });

  it('refuses an unknown Content-Encoding with 415 and a gzip bomb past 10 MB with 413, in the upload envelope', async () => {
    const before = await ledger();
    const bogus = await fetch(`${ts.url}/api/jobs/upload?filename=list.csv`, { method: 'POST', headers: { origin: ts.url, cookie: cookieOf(owner), 'content-type': 'text/csv', 'content-encoding': 'x-bogus' }, body: 'email\na@b.test\n' });
    expect(bogus.status).toBe(415);
    expect(((await bogus.json()) as { error: { message: string } }).error.message).toMatch(/Content-Encoding/);
    const bomb = gzipSync(Buffer.from(`email\n${'a@b.test\n'.repeat(1_400_000)}`)); // ~12 MB inflated, ~30 KB sent
    const res = await fetch(`${ts.url}/api/jobs/upload?filename=list.csv`, { method: 'POST', headers: { origin: ts.url, cookie: cookieOf(owner), 'content-type': 'text/csv', 'content-encoding': 'gzip' }, body: bomb });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/10MB/);
    expect(await ledger()).toEqual(before);
  });
});

describe('the auth routes', () => {
  it('bound the body before the allowlist looks at the path: an oversized body is 413 even on a route better-auth does not serve', async () => {
    const big = JSON.stringify({ email: 'a'.repeat(100 * 1024) });
    const unlisted = await fetch(`${ts.url}/api/auth/delete-user`, { method: 'POST', headers: { origin: ts.url, 'content-type': 'application/json' }, body: big });
    expect(unlisted.status).toBe(413);
    const unlistedSmall = await fetch(`${ts.url}/api/auth/delete-user`, { method: 'POST', headers: { origin: ts.url, 'content-type': 'application/json' }, body: '{}' });
    expect(unlistedSmall.status).toBe(404);
  });
});

describe('the Razorpay webhook route (raw bytes, its own 256 KB limit)', () => {
  const post = (body: Buffer | string, headers: Record<string, string> = {}) =>
    fetch(`${ts.url}/api/billing/razorpay/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-razorpay-signature': 'f'.repeat(64), 'x-razorpay-event-id': 'evt_edge', ...headers }, body });

  it('refuses a body past 256 KB (413), an unknown Content-Encoding (415) and a gzip bomb (413) before any signature check, changing nothing', async () => {
    const before = await ledger();
    const events = async () => (await ts.testDb.pool.query('select count(*)::int as n from billing_event')).rows[0].n as number;
    const eventsBefore = await events();
    const big = await post(Buffer.alloc(256 * 1024 + 1, 0x61));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { message: string } }).error.message).toMatch(/too large/);
    const bogus = await post('{}', { 'content-encoding': 'x-bogus' });
    expect(bogus.status).toBe(415);
    expect((await post(gzipSync(Buffer.alloc(2 * 1024 * 1024, 0x20)), { 'content-encoding': 'gzip' })).status).toBe(413);
    // Within the limit, hostile bytes reach the signature check and go no further.
    for (const body of [deep(50_000), Buffer.from([0xc3, 0x28, 0xff]), '']) {
      const res = await post(body);
      expect(res.status, String(body).slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(res.status, String(body).slice(0, 20)).toBeLessThan(500);
    }
    expect(await events()).toBe(eventsBefore);
    expect(await ledger()).toEqual(before);
  });
});
