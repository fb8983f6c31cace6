// A Host header (or, behind a trusted proxy, X-Forwarded-Host) that is no host name: the request is
// refused with a 400 in the surface's envelope before anything builds a URL from it. It was a 500
// on every surface that builds one (tRPC, /v1, better-auth): "Invalid URL".
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified, startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let proxied: TestServer;
let cookie: string;
let apiKey: string;

beforeAll(async () => {
  ts = await startTestServer();
  proxied = await startTestServer({ env: { TRUST_PROXY: 'loopback' } });
  const owner = await signUpVerified(ts, { email: 'edge-host@example.com' });
  const accountId = (await owner.trpcQuery('account.me')).body.result.data.accountId as string;
  await ts.testDb.db.updateTable('account').set({ plan: 'enterprise', credits_balance: 100 }).where('id', '=', accountId).execute();
  apiKey = (await owner.trpcMutation('apiKeys.create', { name: 'host' })).body.result.data.api_key as string;
  cookie = [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
});
afterAll(async () => {
  await ts?.stop();
  await proxied?.stop();
});

/** One raw HTTP/1.1 exchange (fetch and node:http both refuse these Host values). */
function rawRequest(server: TestServer, head: string, body = ''): Promise<{ status: number; headers: string; body: string }> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let data = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => (data = Buffer.concat([data, d])));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = data.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      let rest = text.slice(split + 4);
      if (/transfer-encoding: chunked/i.test(text.slice(0, split))) rest = rest.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, '').replace(/\r\n$/, '');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), headers: text.slice(0, split), body: rest });
    });
    socket.write(Buffer.from(`${head}Connection: close\r\n${body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`, 'latin1'));
  });
}

const BAD_HOSTS = ['a@b', '[zz]', 'x y', '%00', 'localhost:abc', '127.0.0.1:99999', ':80'];
const MESSAGE = 'The Host header is not a valid host name.';

function routes(): Array<{ name: string; head: (host: string) => string; body?: string; v1?: boolean }> {
  return [
    { name: 'tRPC query', head: (h) => `GET /api/trpc/account.me HTTP/1.1\r\nHost: ${h}\r\nCookie: ${cookie}\r\n` },
    { name: 'tRPC public query', head: (h) => `GET /api/trpc/billing.currency HTTP/1.1\r\nHost: ${h}\r\n` },
    { name: 'better-auth sign-in', head: (h) => `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${h}\r\nContent-Type: application/json\r\n`, body: '{"email":"a@example.com","password":"secret123"}' },
    { name: 'better-auth session', head: (h) => `GET /api/auth/get-session HTTP/1.1\r\nHost: ${h}\r\nCookie: ${cookie}\r\n` },
    { name: '/v1/jobs', head: (h) => `GET /v1/jobs HTTP/1.1\r\nHost: ${h}\r\nAuthorization: Bearer ${apiKey}\r\n`, v1: true },
    { name: '/v1/validate', head: (h) => `POST /v1/validate HTTP/1.1\r\nHost: ${h}\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\n`, body: '{"email":"not-an-address"}', v1: true },
    { name: '/v1/bulk', head: (h) => `POST /v1/bulk HTTP/1.1\r\nHost: ${h}\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\n`, body: '{"emails":["a@example.com"]}', v1: true },
  ];
}

describe('a Host header that is no host name', () => {
  it('is a 400 in each surface envelope, never a 500, and creates nothing', async () => {
    const jobsBefore = (await ts.testDb.db.selectFrom('validation_job').select('id').execute()).length;
    for (const host of BAD_HOSTS) {
      for (const r of routes()) {
        const res = await rawRequest(ts, r.head(host), r.body);
        expect(res.status, `${r.name} Host ${host}: ${res.body}`).toBe(400);
        if (r.v1) {
          expect(res.headers).toMatch(/content-type: application\/problem\+json/i);
          expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: 'BAD_INPUT', detail: MESSAGE, message: MESSAGE });
        } else {
          expect(JSON.parse(res.body)).toEqual({ error: { code: 'BAD_INPUT', message: MESSAGE } });
        }
      }
    }
    expect((await ts.testDb.db.selectFrom('validation_job').select('id').execute()).length).toBe(jobsBefore);
  });

  it('leaves ordinary hosts alone (names, addresses, IPv6, ports, a trailing dot)', async () => {
    for (const host of [new URL(ts.url).host, 'localhost', 'LOCALHOST:80', 'app.example.com.', '[::1]:3000', 'xn--bcher-kva.example']) {
      const res = await rawRequest(ts, `GET /api/trpc/billing.currency HTTP/1.1\r\nHost: ${host}\r\n`);
      expect(res.status, `${host}: ${res.body}`).toBe(200);
    }
    const v1 = await rawRequest(ts, `GET /v1/jobs HTTP/1.1\r\nHost: localhost:8080\r\nAuthorization: Bearer ${apiKey}\r\n`);
    expect(v1.status, v1.body).toBe(200);
  });

  it('behind a trusted proxy, an X-Forwarded-Host that is no host name is refused the same way', async () => {
    const host = new URL(proxied.url).host;
    for (const xfh of ['a@b', '[zz]', 'x y']) {
      const res = await rawRequest(proxied, `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-Host: ${xfh}\r\nContent-Type: application/json\r\n`, '{"email":"a@example.com","password":"secret123"}');
      expect(res.status, `X-Forwarded-Host ${xfh}: ${res.body}`).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ error: { code: 'BAD_INPUT', message: MESSAGE } });
    }
    const ok = await rawRequest(proxied, `GET /api/trpc/billing.currency HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-Host: app.example.com\r\n`);
    expect(ok.status, ok.body).toBe(200);
  });
});

describe('X-Forwarded-Proto sent by a client', () => {
  // better-auth's Node adapter built its request URL from X-Forwarded-Proto whoever sent it: without
  // a trusted proxy a client's 'x y' made that a 500, and 'http://evil' an empty 404 for every auth route.
  it('is ignored without a trusted proxy: the auth routes answer as if it were not there', async () => {
    const host = new URL(ts.url).host;
    for (const proto of ['x y', 'http://evil', 'javascript', 'https']) {
      const session = await rawRequest(ts, `GET /api/auth/get-session HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-Proto: ${proto}\r\nCookie: ${cookie}\r\n`);
      expect(session.status, `${proto}: ${session.body}`).toBe(200);
      expect(JSON.parse(session.body).user.email).toBe('edge-host@example.com');
      const signIn = await rawRequest(ts, `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nX-Forwarded-Proto: ${proto}\r\nContent-Type: application/json\r\n`, '{"email":"edge-host@example.com","password":"not-the-password"}');
      expect(signIn.status, `${proto}: ${signIn.body}`).toBe(401);
    }
  });

  it('from a trusted proxy, one that is no scheme is not a 500 either', async () => {
    const host = new URL(proxied.url).host;
    for (const proto of ['x y', 'http://evil', 'https']) {
      const res = await rawRequest(proxied, `GET /api/auth/get-session HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-Proto: ${proto}\r\n`);
      expect(res.status, `${proto}: ${res.body}`).toBe(200);
    }
  });
});
