// POST /v1/validate's ordinary requests are served by a listener ahead of Express
// (rest/mount.ts directValidateListener). Two things are proven here over real HTTP:
//   1. which requests it takes: only `POST /v1/validate` with a UTF-8 JSON body of a declared
//      length up to 64 KB and no Transfer-Encoding, Content-Encoding or Idempotency-Key; every other
//      request is left to Express untouched;
//   2. that a client sees no difference: every case is sent to the real server (listener + Express)
//      and to the same app served by Express alone (as before the listener), and the answers are
//      compared whole — status, every header, body — except what differs between any two calls
//      (Date, a generated X-Request-Id, Server-Timing durations, the rate budget left, a new
//      result's id, time and balance).
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApiRate } from '../../server/features/billing/billing.operator';
import { createHttpApp } from '../../server/http/app';
import { directValidateListener } from '../../server/rest/mount';
import { ownerOn } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { freePort } from '../probe/mailworld-helpers';

let ts: TestServer;
let accountId: string;
const keys: Record<string, string> = {};
const servers: http.Server[] = [];
let expressOnly: number; // the app as Express alone serves it
let listenerOnly: number; // the direct listener, with 599 "not taken" where Express would serve

async function listen(handler: http.RequestListener): Promise<number> {
  const port = await freePort();
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  servers.push(server);
  return port;
}

beforeAll(async () => {
  ts = await startTestServer({ probeUrls: [`http://127.0.0.1:${await freePort()}`], probeToken: 't' });
  const main = await ownerOn(ts, 'enterprise', 'lean');
  accountId = main.accountId;
  await ts.testDb.db.updateTable('account').set({ credits_balance: 1000 }).where('id', '=', accountId).execute();
  await setApiRate(ts.testDb.db, accountId, 10_000); // no 429 from the pace of this file
  const create = async (body: Record<string, unknown>) => (await main.client.trpcMutation('apiKeys.create', { name: 'k', ...body })).body.result.data.api_key as string;
  keys.live = await create({});
  keys.accountOnly = await create({ scopes: ['account'] });
  const app = createHttpApp(ts.server.deps);
  expressOnly = await listen(app);
  const direct = directValidateListener(ts.server.deps, createHttpApp(ts.server.deps));
  listenerOnly = await listen((req, res) => {
    if (direct(req, res)) return;
    req.resume();
    res.statusCode = 599;
    res.end('not taken');
  });
}, 180_000);
afterAll(async () => {
  for (const s of servers) await new Promise<void>((resolve) => (s.close(() => resolve()), s.closeAllConnections()));
  await ts?.stop();
});

interface Req {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked instead of a Content-Length. */
  chunked?: boolean;
}
interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(port: number, r: Req): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const body = r.body === undefined ? undefined : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body);
    const headers: Record<string, string | number> = { ...r.headers };
    if (body && !r.chunked) headers['content-length'] = body.length;
    if (r.chunked) headers['transfer-encoding'] = 'chunked';
    const req = http.request({ host: '127.0.0.1', port, method: r.method ?? 'POST', path: r.path ?? '/v1/validate', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (body && r.chunked) {
      req.write(body.subarray(0, 5));
      req.write(body.subarray(5));
    } else if (body) req.write(body);
    req.end();
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An answer with what differs between any two calls replaced by what it must look like. */
function comparable(a: Raw, sentRequestId: string | undefined) {
  const headers: Record<string, unknown> = { ...a.headers };
  delete headers.date;
  const rid = String(headers['x-request-id']);
  headers['x-request-id'] = sentRequestId !== undefined && rid === sentRequestId ? 'echoed' : UUID.test(rid) ? 'generated' : rid;
  if (headers['server-timing'] !== undefined) headers['server-timing'] = String(headers['server-timing']).split(',').map((t) => t.trim().split(';')[0]);
  if (headers['x-ratelimit-remaining'] !== undefined) headers['x-ratelimit-remaining'] = /^\d+$/.test(String(headers['x-ratelimit-remaining'])) ? 'a count' : 'not a count';
  let body: unknown = a.body;
  try {
    const parsed = JSON.parse(a.body) as Record<string, unknown>;
    if (a.status === 200) {
      // A new result: its id, time and balance are its own; the length of the body moves with them.
      for (const k of ['id', 'checked_at', 'credits_balance'] as const) if (k in parsed) parsed[k] = `a ${k}`;
      delete headers['content-length'];
    }
    body = parsed;
  } catch {
    // kept as text
  }
  return { status: a.status, headers, body };
}

const json = (v: unknown) => JSON.stringify(v);
const bearer = (k: string) => `Bearer ${keys[k]}`;
const ok = () => ({ authorization: bearer('live'), 'content-type': 'application/json' });
let idem = 0;

/** [name, request, status, taken by the direct listener] */
const cases = (): Array<[string, Req, number, boolean]> => [
  ['bad syntax (charged)', { headers: ok(), body: json({ email: 'bad@@x.example' }) }, 200, true],
  ['address literal (free)', { headers: ok(), body: json({ email: 'user@[192.0.2.1]' }) }, 200, true],
  ['a leading BOM', { headers: ok(), body: `\uFEFF${json({ email: 'bom@@x.example' })}` }, 200, true],
  ['charset=utf-8', { headers: { ...ok(), 'content-type': 'application/json; charset=UTF-8' }, body: json({ email: 'cs@@x.example' }) }, 200, true],
  ['only a probe can answer', { headers: ok(), body: json({ email: 'jane@example.com' }) }, 503, true],
  ['a request id of its own', { headers: { ...ok(), 'x-request-id': 'client-42.a:b' }, body: json({ email: 'rid@@x.example' }) }, 200, true],
  ['an unusable request id', { headers: { ...ok(), 'x-request-id': 'not a token' }, body: json({ email: 'rid2@@x.example' }) }, 200, true],
  ['no key', { headers: { 'content-type': 'application/json' }, body: json({ email: 'bad@@x.example' }) }, 401, true],
  ['not a key', { headers: { ...ok(), authorization: 'Bearer nope' }, body: json({ email: 'bad@@x.example' }) }, 401, true],
  ['key without the scope', { headers: { ...ok(), authorization: bearer('accountOnly') }, body: json({ email: 'bad@@x.example' }) }, 403, true],
  ['broken JSON', { headers: ok(), body: '{"email": ' }, 400, true],
  ['not UTF-8', { headers: ok(), body: Buffer.from([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }, 400, true],
  ['nested too deep', { headers: ok(), body: `${'['.repeat(100)}${']'.repeat(100)}` }, 400, true],
  ['an array', { headers: ok(), body: '[1,2,3]' }, 400, true],
  ['email not a string', { headers: ok(), body: json({ email: 42 }) }, 400, true],
  ['a +json media type (JSON, as the body guard takes it)', { headers: { ...ok(), 'content-type': 'application/vnd.api+json' }, body: json({ email: 'bad@@x.example' }) }, 200, true],
  ['JSON in upper case (media types are case-insensitive)', { headers: { ...ok(), 'content-type': 'APPLICATION/JSON' }, body: json({ email: 'bad@@x.example' }) }, 200, true],
  // Left to Express:
  ['no content type', { headers: { authorization: bearer('live') }, body: 'email=x' }, 415, false],
  ['text/plain', { headers: { ...ok(), 'content-type': 'text/plain' }, body: json({ email: 'bad@@x.example' }) }, 415, false],
  ['JSON in latin-1', { headers: { ...ok(), 'content-type': 'application/json; charset=latin1' }, body: json({ email: 'bad@@x.example' }) }, 415, false],
  ['an empty body', { headers: ok(), body: '' }, 400, false],
  ['no body at all', { headers: ok() }, 400, false],
  ['over 64 KB', { headers: ok(), body: json({ email: 'x'.repeat(70_000) }) }, 413, false],
  ['chunked', { headers: ok(), body: json({ email: 'chunked@@x.example' }), chunked: true }, 200, false],
  ['chunked, over 64 KB', { headers: ok(), body: json({ email: 'x'.repeat(70_000) }), chunked: true }, 413, false],
  ['gzip', { headers: { ...ok(), 'content-encoding': 'gzip' }, body: zlib.gzipSync(json({ email: 'gz@@x.example' })) }, 200, false],
  ['an unknown content encoding', { headers: { ...ok(), 'content-encoding': 'zstd-x' }, body: json({ email: 'bad@@x.example' }) }, 415, false],
  ['Idempotency-Key', { headers: { ...ok(), 'idempotency-key': `lean-${process.pid}-${++idem}` }, body: json({ email: 'idem@@x.example' }) }, 200, false],
  ['a trailing slash', { path: '/v1/validate/', headers: ok(), body: json({ email: 'slash@@x.example' }) }, 200, false],
  ['a query string', { path: '/v1/validate?x=1', headers: ok(), body: json({ email: 'query@@x.example' }) }, 200, false],
  ['GET', { method: 'GET', headers: { authorization: bearer('live') } }, 405, false],
];

describe('POST /v1/validate ahead of Express', () => {
  it('takes exactly the ordinary requests', async () => {
    for (const [name, req, , taken] of cases()) {
      const answer = await send(listenerOnly, req);
      if (taken) expect(answer.status, name).not.toBe(599);
      else expect({ name, status: answer.status, body: answer.body }).toEqual({ name, status: 599, body: 'not taken' });
    }
  });

  it('answers every case exactly as the Express app alone does', { timeout: 120_000 }, async () => {
    for (const [name, req, status] of cases()) {
      const sentId = req.headers?.['x-request-id'];
      // An Idempotency-Key is spent by its first use: each server gets a key of its own.
      const own = (tag: string): Req => (req.headers?.['idempotency-key'] ? { ...req, headers: { ...req.headers, 'idempotency-key': `${req.headers['idempotency-key']}-${tag}` } } : req);
      const served = comparable(await send(Number(new URL(ts.url).port), own('served')), sentId);
      const before = comparable(await send(expressOnly, own('express')), sentId);
      expect(served.status, `${name}: ${JSON.stringify(served.body)}`).toBe(status);
      expect(served, name).toEqual(before);
    }
  });

  it('a body cut short is refused, charges nothing, stores nothing, and the server keeps serving', async () => {
    const port = Number(new URL(ts.url).port);
    const balance = async () => (await ts.testDb.db.selectFrom('account').select('credits_balance').where('id', '=', accountId).executeTakeFirstOrThrow()).credits_balance;
    const stored = async () => (await ts.testDb.db.selectFrom('validation_result').select('id').where('account_id', '=', accountId).where('email', '=', 'cut@@x.example').execute()).length;
    const before = await balance();
    const body = json({ email: 'cut@@x.example' });
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(`POST /v1/validate HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer('live')}\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 10}\r\n\r\n${body}`);
        socket.end();
      });
      socket.on('data', () => undefined);
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    const after = await send(port, { headers: ok(), body: json({ email: 'after@@x.example' }) });
    expect(after.status).toBe(200);
    expect(await stored()).toBe(0);
    expect(await balance()).toBe(before - 1); // the one check that followed, nothing for the cut one
  });
});
