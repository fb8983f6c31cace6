// Clients that send a request slower than any real one: headers that never end, a body shorter than
// its Content-Length, a body dripped in for ever. Each gets a 408 with a JSON body and its connection
// is closed, instead of holding a socket for Node's 300-second default. The server here runs with
// short timeouts (the production values are server/http/slow-client.ts's HTTP_TIMEOUTS); the tests
// assert what the client sees, not how long it took.
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownerOn } from '../helpers/accounts';
import { rawExchange, type RawAnswer } from '../helpers/raw-http';
import { testServer } from '../helpers/test-server';

const ts = testServer({ httpTimeouts: { headersMs: 400, bodyIdleMs: 400, requestMs: 2000 } });

const LATE = 'The request did not arrive in time.';

/**
 * A 408 in the envelope of the surface the request was for: problem+json on /v1 (its envelope, as
 * the OpenAPI document says), the dashboard's elsewhere; for a request whose target was never read
 * (headers that never ended), problem details that carry the dashboard's `error` too.
 */
function expect408(res: RawAnswer, surface: 'v1' | 'dashboard' | 'unknown' = 'dashboard'): void {
  expect(res.status, res.head).toBe(408);
  expect(res.head).toMatch(/^x-request-id: \S+/im);
  if (surface === 'dashboard') {
    expect(res.head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'BAD_INPUT', message: LATE } });
    return;
  }
  expect(res.head).toMatch(/content-type: application\/problem\+json/i);
  const problem = { type: `${ts.url}/documentation#error-BAD_INPUT`, title: 'Request Timeout', status: 408, detail: LATE, code: 'BAD_INPUT', message: LATE };
  expect(JSON.parse(res.body)).toEqual(surface === 'v1' ? problem : { ...problem, error: { code: 'BAD_INPUT', message: LATE } });
}

/** Sends `head`, then `chunks` one every `everyMs` without ever finishing the body; resolves with the answer once the server closes. */
function drip(head: string, chunks: string[], everyMs: number): Promise<RawAnswer & { sent: number }> {
  const u = new URL(ts.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let data = '';
    let sent = 0;
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    const timer = setInterval(() => {
      if (sent < chunks.length && !socket.destroyed) socket.write(chunks[sent++]!);
    }, everyMs);
    socket.on('close', () => {
      clearInterval(timer);
      const split = data.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), head: data.slice(0, split), body: data.slice(split + 4), sent });
    });
    socket.write(head);
  });
}

describe('a client too slow to send its request', () => {
  let key = '';
  let cookie = '';
  beforeAll(async () => {
    const owner = await ownerOn(ts, 'pro', 'slow');
    key = (await owner.client.trpcMutation('apiKeys.create', { name: 'slow' })).body.result.data.api_key as string;
    cookie = [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  });

  it.each([
    ['/v1/validate (the direct listener)', '/v1/validate', () => ({ Authorization: `Bearer ${key}` })],
    ['/v1/bulk', '/v1/bulk', () => ({ Authorization: `Bearer ${key}` })],
    ['a dashboard call', '/api/trpc/validation.check', () => ({ Cookie: cookie, Origin: ts.url })],
    ['the sign-in route', '/api/auth/sign-in/email', () => ({ Origin: ts.url })],
    ['the CSV upload', '/api/jobs/upload', () => ({ Cookie: cookie, Origin: ts.url, 'Content-Type': 'text/csv' })],
  ])('a body shorter than its Content-Length on %s: 408, connection closed', async (_name, path, extra: () => Record<string, string>) => {
    const headers = { Host: new URL(ts.url).host, 'Content-Type': 'application/json', 'Content-Length': '100', ...extra() };
    const head = `POST ${path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
    expect408(await rawExchange(ts.url, `${head}{"email":`), path.startsWith('/v1/') ? 'v1' : 'dashboard');
  });

  it('headers that never end: 408, connection closed', async () => {
    expect408(await rawExchange(ts.url, 'POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'), 'unknown');
  });

  it('a body dripped in a byte at a time, each in time, for longer than a whole request may take: 408', async () => {
    const body = JSON.stringify({ email: `${'a'.repeat(200)}@example.com` });
    const res = await drip(`POST /v1/validate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, [...body], 100);
    expect408(res, 'v1');
    expect(res.sent).toBeLessThan(body.length);
  });

  it('a body that keeps arriving, if slowly, is not cut: it is answered as usual', async () => {
    const body = JSON.stringify({ email: 'not-an-address' });
    // About three idle periods in all, a chunk every half of one.
    const parts = [body.slice(0, 5), body.slice(5, 10), body.slice(10, 15), body.slice(15, 20), body.slice(20)];
    const answer = await new Promise<string>((resolve, reject) => {
      const u = new URL(ts.url);
      const socket = net.connect(Number(u.port), u.hostname);
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => {
        data += d;
        if (/\r\n\r\n[\s\S]*\}$/.test(data)) socket.end();
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(data));
      socket.write(`POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      let i = 0;
      const timer = setInterval(() => {
        if (i < parts.length) socket.write(parts[i++]!);
        else clearInterval(timer);
      }, 200);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401 /); // no key: the request was read whole and answered
  });
});
