// The HTTP edge answers what it does not serve with a clear 4xx in the product's envelope: methods a
// surface does not take, tRPC batches past the limit, unreadable logo bodies, missing static assets
// and paths nothing serves. Never a 500, an HTML error page, or the SPA's index.html for a script.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPC_MAX_BATCH_CALLS } from '../../server/contracts/transport';
import { signUpVerified, startTestServer, type Browserless, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Browserless;
let accountId: string;
const spaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-spa-'));

beforeAll(async () => {
  fs.mkdirSync(path.join(spaDir, 'assets'));
  fs.writeFileSync(path.join(spaDir, 'index.html'), '<!doctype html><title>Mailvet</title><div id="root"></div>');
  fs.writeFileSync(path.join(spaDir, 'assets', 'index-abc123.js'), 'console.log("app");');
  ts = await startTestServer({ spaDir });
  owner = await signUpVerified(ts, { email: 'edge-methods@example.com' });
  accountId = (await owner.trpcQuery('account.me')).body.result.data.accountId as string;
  await ts.testDb.db.updateTable('account').set({ plan: 'enterprise', credits_balance: 1000 }).where('id', '=', accountId).execute();
});
afterAll(async () => {
  await ts?.stop();
  fs.rmSync(spaDir, { recursive: true, force: true });
});

const cookieOf = (c: Browserless) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** Any method (fetch refuses TRACE), any headers, raw bytes. */
function send(method: string, urlPath: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const u = new URL(ts.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path: urlPath, headers: { connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the dashboard API (/api/trpc) and the methods it takes', () => {
  it.each(['TRACE', 'OPTIONS', 'PROPFIND', 'PUT', 'DELETE'])('%s is a 405 with Allow, in the tRPC envelope, never a 500', async (method) => {
    for (const p of ['/api/trpc/account.me', '/api/trpc/apiKeys.create', '/api/trpc/no.such']) {
      const res = await send(method, p, { cookie: cookieOf(owner), origin: ts.url });
      expect(res.status, `${method} ${p}: ${res.text}`).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, POST');
      const body = JSON.parse(res.text) as { error: { message: string; data: { httpStatus: number; appCode: string } } };
      expect(body.error.data).toMatchObject({ httpStatus: 405, appCode: 'METHOD_NOT_ALLOWED' });
      expect(body.error.message).toBe(`The dashboard API takes GET and POST, not ${method}.`);
    }
  });

  it('a POST whose procedure path is not valid URL-encoding is a 400, not a 500', async () => {
    for (const p of ['/api/trpc/%zz', '/api/trpc/%', '/api/trpc/apiKeys.create%zz', '/api/trpc/account.me,%E0%A4%A?batch=1']) {
      const res = await send('POST', p, { cookie: cookieOf(owner), origin: ts.url, 'content-type': 'application/json' }, '{}');
      expect(res.status, `${p}: ${res.text}`).toBe(400);
      expect(JSON.parse(res.text).error.message).toMatch(/Invalid URL-encoding in path/);
    }
  });

  it("a method the procedure does not take: 405 whose Allow lists what it does take (a query: GET and HEAD; a mutation: POST)", async () => {
    const post = await send('POST', '/api/trpc/account.me', { cookie: cookieOf(owner), origin: ts.url, 'content-type': 'application/json' }, '{}');
    expect(post.status, post.text).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    for (const method of ['GET', 'HEAD']) {
      const res = await send(method, '/api/trpc/apiKeys.create', { cookie: cookieOf(owner), origin: ts.url });
      expect(res.status, `${method}: ${res.text}`).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
  });

  it('still answers GET, HEAD and POST as before', async () => {
    expect((await send('GET', '/api/trpc/account.me', { cookie: cookieOf(owner) })).status).toBe(200);
    expect((await send('HEAD', '/api/trpc/account.me', { cookie: cookieOf(owner) })).status).toBeLessThan(300);
    const created = await send('POST', '/api/trpc/apiKeys.create', { cookie: cookieOf(owner), origin: ts.url, 'content-type': 'application/json' }, '{"name":"methods"}');
    expect(created.status, created.text).toBe(200);
  });
});

describe('tRPC batches are bounded', () => {
  const batch = (proc: string, n: number) => `/api/trpc/${Array(n).fill(proc).join(',')}?batch=1`;

  it(`refuses a batch of more than ${TRPC_MAX_BATCH_CALLS} calls with 400 before running any, signed in or not`, async () => {
    // Anonymous: one GET used to run up to ~1,400 public calls (the URL's limit), hundreds of ms of work each.
    const anon = await send('GET', batch('billing.currency', TRPC_MAX_BATCH_CALLS + 1));
    expect(anon.status, anon.text.slice(0, 200)).toBe(400);
    expect(anon.text).toMatch(/Batch call exceeds maximum size/);

    const keysBefore = await ts.testDb.db.selectFrom('api_key').select('id').execute();
    const input = JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [i, { name: `batch-${i}` }])));
    const writes = await send('POST', batch('apiKeys.create', 300), { cookie: cookieOf(owner), origin: ts.url, 'content-type': 'application/json' }, input);
    expect(writes.status, writes.text.slice(0, 200)).toBe(400);
    expect(writes.text).toMatch(/Batch call exceeds maximum size/);
    expect(await ts.testDb.db.selectFrom('api_key').select('id').execute()).toHaveLength(keysBefore.length);
  });

  it(`still answers a batch of ${TRPC_MAX_BATCH_CALLS} calls`, async () => {
    const res = await send('GET', batch('account.me', TRPC_MAX_BATCH_CALLS), { cookie: cookieOf(owner) });
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    expect(JSON.parse(res.text)).toHaveLength(TRPC_MAX_BATCH_CALLS);
  });
});

describe('the logo upload reads its body as every other upload does', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>';
  const post = (body: Buffer | string, headers: Record<string, string>) =>
    send('POST', '/api/branding/logo', { cookie: cookieOf(owner), origin: ts.url, 'content-type': 'image/svg+xml', ...headers }, body);

  it('a body that is not what its Content-Encoding says is a 400 in the upload envelope, not a zlib message', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await post('this is not compressed', { 'content-encoding': encoding });
      expect(res.status, res.text).toBe(400);
      expect(JSON.parse(res.text)).toEqual({ error: { code: 'BAD_INPUT', message: 'The request body could not be read.' } });
    }
  });

  it('an unsupported Content-Encoding is a 415 in the upload envelope', async () => {
    const res = await post(svg, { 'content-encoding': 'gzip, gzip' });
    expect(res.status, res.text).toBe(415);
    expect(JSON.parse(res.text)).toEqual({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The Content-Encoding of the request body is not supported.' } });
  });

  it('a logo past 256 KB is still refused with the logo message, and a good one is still saved', async () => {
    const big = await post(Buffer.alloc(300 * 1024, 0x20), {});
    expect(big.status).toBe(413);
    expect(JSON.parse(big.text)).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'The logo must be 256 KB or smaller.' } });
    const ok = await post(svg, {});
    expect(ok.status, ok.text).toBe(200);
  });
});

describe('static files, the SPA fallback and paths nothing serves', () => {
  it('a missing /assets file is a 404, not the SPA page with 200 (an old tab loading a chunk of the previous deploy)', async () => {
    const res = await send('GET', '/assets/index-gone999.js');
    expect(res.status).toBe(404);
    expect(res.text).not.toMatch(/<!doctype html>/i);
    expect(JSON.parse(res.text)).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    const real = await send('GET', '/assets/index-abc123.js');
    expect(real.status).toBe(200);
    expect(real.text).toBe('console.log("app");');
  });

  it('the SPA still answers its own routes with index.html (and any other path with it too, as a 404)', async () => {
    for (const p of ['/', '/dashboard', '/dashboard/history', '/dashboard/settings/']) {
      const res = await send('GET', p);
      expect(res.status, p).toBe(200);
      expect(res.text).toMatch(/<div id="root">/);
    }
    // Not pages of the app: its 404 page (edge.page-not-found.test.ts).
    for (const p of ['/jobs/123', '/settings/']) {
      const res = await send('GET', p);
      expect(res.status, p).toBe(404);
      expect(res.text).toMatch(/<div id="root">/);
    }
  });

  it.each([
    ['PUT', '/healthz'],
    ['POST', '/'],
    ['DELETE', '/dashboard'],
    ['PATCH', '/assets/index-abc123.js'],
    ['GET', '/api/no-such-thing'],
    ['POST', '/api/no-such-thing'],
  ])('%s %s is a JSON 404 in the product envelope, not an HTML error page', async (method, p) => {
    const res = await send(method, p, { 'content-type': 'application/json' }, method === 'GET' ? undefined : '{}');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
  });

  it('an undecodable path is a 400 in the product envelope', async () => {
    for (const p of ['/%zz', '/api/jobs/%zz/export', '/dashboard/%']) {
      const res = await send('GET', p);
      expect(res.status, p).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'BAD_INPUT' } });
    }
  });
});
