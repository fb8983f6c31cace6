// A request target in absolute form (`GET http://host/path HTTP/1.1`, RFC 9112 §3.2.2): the server
// must take the host from the target and ignore Host. Each surface read it its own way: tRPC built a
// URL from it and failed (a 500) on one that carries credentials (`http://user@host/…`), better-auth's
// guard answered its allowed routes 404, while /v1 and the rest served them under the Host header.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified, startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let cookie: string;
let apiKey: string;
let host: string;

beforeAll(async () => {
  ts = await startTestServer();
  host = new URL(ts.url).host;
  const owner = await signUpVerified(ts, { email: 'edge-absolute@example.com' });
  const accountId = (await owner.trpcQuery('account.me')).body.result.data.accountId as string;
  await ts.testDb.db.updateTable('account').set({ plan: 'enterprise', credits_balance: 100 }).where('id', '=', accountId).execute();
  apiKey = (await owner.trpcMutation('apiKeys.create', { name: 'absolute' })).body.result.data.api_key as string;
  cookie = [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
});
afterAll(async () => {
  await ts?.stop();
});

function rawRequest(head: string, body = ''): Promise<{ status: number; headers: string; body: string }> {
  const u = new URL(ts.url);
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

const TARGET_MESSAGE = 'The request target is not a valid http(s) URL.';

describe('an absolute-form request target', () => {
  it('that is no usable URL (credentials, another scheme, a bad host) is a 400 in the surface envelope, never a 500', async () => {
    const jobsBefore = (await ts.testDb.db.selectFrom('validation_job').select('id').execute()).length;
    for (const target of ['http://a@b', 'http://user:pw@other.example', 'ftp://other.example', 'http://[zz]', 'http://other.example:99999']) {
      const trpc = await rawRequest(`GET ${target}/api/trpc/account.me HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\n`);
      expect(trpc.status, `${target} tRPC: ${trpc.body}`).toBe(400);
      expect(JSON.parse(trpc.body)).toEqual({ error: { code: 'BAD_INPUT', message: TARGET_MESSAGE } });
      const auth = await rawRequest(`GET ${target}/api/auth/get-session HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\n`);
      expect(auth.status, `${target} auth: ${auth.body}`).toBe(400);
      const v1 = await rawRequest(`POST ${target}/v1/bulk HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\n`, '{"emails":["a@example.com"]}');
      expect(v1.status, `${target} /v1: ${v1.body}`).toBe(400);
      expect(v1.headers).toMatch(/content-type: application\/problem\+json/i);
      expect(JSON.parse(v1.body)).toMatchObject({ status: 400, code: 'BAD_INPUT', detail: TARGET_MESSAGE });
    }
    expect((await ts.testDb.db.selectFrom('validation_job').select('id').execute()).length).toBe(jobsBefore);
  });

  it('is served like its origin form on every surface, better-auth included', async () => {
    const session = await rawRequest(`GET http://${host}/api/auth/get-session HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\n`);
    expect(session.status, session.body).toBe(200);
    expect(JSON.parse(session.body).user.email).toBe('edge-absolute@example.com');
    const me = await rawRequest(`GET http://${host}/api/trpc/account.me?x=1 HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\n`);
    expect(me.status, me.body).toBe(200);
    const account = await rawRequest(`GET http://${host}/v1/account HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${apiKey}\r\n`);
    expect(account.status, account.body).toBe(200);
  });

  it("names the host: the target's host is the request's, whatever Host says", async () => {
    // The same-origin guard compares a change's Origin with the request's host: the target's, not Host's.
    const origin = 'http://other.example';
    const asHost = await rawRequest(`POST /api/trpc/apiKeys.create HTTP/1.1\r\nHost: other.example\r\nOrigin: ${origin}\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\n`, '{"name":"x"}');
    const asTarget = await rawRequest(`POST http://${host}/api/trpc/apiKeys.create HTTP/1.1\r\nHost: other.example\r\nOrigin: ${origin}\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\n`, '{"name":"x"}');
    // With Host: other.example the Origin is the request's own host; with the target naming the app it is another site's.
    expect(asHost.status, asHost.body).toBe(200);
    expect(asTarget.status, asTarget.body).toBe(403);
  });
});

describe('an absolute-form target without Host on HTTP/1.1', () => {
  it('is still the 400 for a missing Host (RFC 9112 §3.2)', async () => {
    const res = await rawRequest(`GET http://${host}/api/trpc/billing.currency HTTP/1.1\r\n`);
    expect(res.status, res.body).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'BAD_INPUT', message: 'The Host header is not a valid host name.' } });
  });
});
