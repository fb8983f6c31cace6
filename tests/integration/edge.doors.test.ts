// One door per route: a path spelt so that no API router takes it (a doubled slash, an encoded slash
// or letter) is a JSON 404, never the SPA's index.html answering 200 for an API call or a script;
// HEAD answers as GET on every surface that serves GET; a method Node hands over as a tunnel
// (CONNECT) still gets an answer.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOn, type Person } from '../helpers/accounts';
import { rawExchange } from '../helpers/raw-http';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Person;
let key = '';
let cookie = '';
const spaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-spa-'));

beforeAll(async () => {
  fs.mkdirSync(path.join(spaDir, 'assets'));
  fs.writeFileSync(path.join(spaDir, 'index.html'), '<!doctype html><title>Mailvet</title><div id="root"></div>');
  ts = await startTestServer({ spaDir });
  owner = await ownerOn(ts, 'enterprise', 'doors');
  key = (await owner.client.trpcMutation('apiKeys.create', { name: 'doors' })).body.result.data.api_key as string;
  cookie = [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
});
afterAll(async () => {
  await ts?.stop();
  fs.rmSync(spaDir, { recursive: true, force: true });
});

const request = (method: string, target: string) =>
  rawExchange(ts.url, `${method} ${target} HTTP/1.1\r\nHost: ${new URL(ts.url).host}\r\nAuthorization: Bearer ${key}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`);

describe('a path no API router takes', () => {
  it.each(['//v1/account', '//v1/openapi.json', '/v1%2faccount', '/%761/account', '//api/trpc/account.me', '/api%2ftrpc/account.me', '//api/auth/get-session', '//healthz', '//assets/app.js', '/%61ssets/app.js', '//dev/outbox'])(
    'GET %s: a JSON 404, not the SPA page',
    async (target) => {
      for (const method of ['GET', 'HEAD']) {
        const res = await request(method, target);
        expect(res.status, `${method} ${target}`).toBe(404);
        expect(res.head, `${method} ${target}`).toMatch(/content-type: application\/(problem\+)?json/i);
      }
    },
  );

  it('still serves the SPA for its own pages, spelt oddly or not', async () => {
    for (const target of ['/dashboard', '//dashboard', '/dashboard/api-keys', '/documentation']) {
      const res = await request('GET', target);
      expect(res.status, target).toBe(200);
      expect(res.head, target).toMatch(/content-type: text\/html/i);
    }
  });

  it('better-auth routes spelt in another case: the JSON 404, not an empty one', async () => {
    const res = await request('GET', '/API/AUTH/get-session');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
  });
});

describe('HEAD', () => {
  it('answers as GET, without a body, on every surface that serves GET', async () => {
    for (const target of ['/v1/account', '/v1/openapi.json', '/api/trpc/account.me', '/api/auth/get-session', '/healthz', '/api/public-config', '/api/public-branding', '/dashboard']) {
      const get = await request('GET', target);
      const head = await request('HEAD', target);
      expect(get.status, target).toBe(200);
      expect(head.status, `HEAD ${target}`).toBe(get.status);
      expect(head.head.match(/content-type: ([^\r\n]*)/i)?.[1], `HEAD ${target}`).toBe(get.head.match(/content-type: ([^\r\n]*)/i)?.[1]);
      expect(head.body, `HEAD ${target}`).toBe('');
    }
  });
});

describe('a Range the SPA page or a build file cannot satisfy', () => {
  it('is a 416 whose Content-Type says JSON, as its body is', async () => {
    for (const target of ['/dashboard', '/index.html']) {
      const res = await rawExchange(ts.url, `GET ${target} HTTP/1.1\r\nHost: ${new URL(ts.url).host}\r\nRange: bytes=999999-\r\nConnection: close\r\n\r\n`);
      expect(res.status, target).toBe(416);
      expect(res.head, target).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(res.body), target).toMatchObject({ error: { code: 'BAD_INPUT' } });
    }
  });
});

describe('HEAD on a live stream', () => {
  /** Connections kept open, as a keep-alive client keeps them after an answer (closed at the end of the test). */
  const open: net.Socket[] = [];
  /** The status line and headers of an answer (for a GET, up to its first event); the connection stays open. */
  const headOf = (method: string, target: string) =>
    new Promise<string>((resolve, reject) => {
      const u = new URL(ts.url);
      const socket = net.connect(Number(u.port), u.hostname);
      let data = '';
      socket.setEncoding('utf8');
      socket.on('error', reject);
      socket.on('data', (d: string) => {
        data += d;
        if (data.includes('\r\n\r\n') && (method === 'HEAD' || /\nevent: /.test(data))) {
          open.push(socket);
          resolve(method === 'HEAD' ? data.slice(0, data.indexOf('\r\n\r\n')) : data);
        }
      });
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${u.host}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`);
    });

  it("gets the stream's headers, and the stream behind it ends: more HEADs than a user may hold streams leave a stream free", async () => {
    for (let i = 0; i < 12; i++) {
      const head = await headOf('HEAD', '/api/trpc/jobs.onChange');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head).toMatch(/content-type: text\/event-stream/i);
    }
    await new Promise((r) => setTimeout(r, 100));
    try {
      // A stream refused for the cap still answers 200, with an error event instead of 'connected'.
      const stream = await headOf('GET', '/api/trpc/jobs.onChange');
      expect(stream).toMatch(/\nevent: connected/);
      expect(stream).not.toMatch(/live update connections/);
    } finally {
      for (const s of open) s.destroy();
    }
  });
});

describe('the Host header', () => {
  it('missing or empty on HTTP/1.1: the same 400 on every surface, the direct /v1/validate path included', async () => {
    for (const host of [null, '']) {
      for (const [method, target, extra] of [
        ['GET', '/v1/account', `Authorization: Bearer ${key}\r\n`],
        ['POST', '/v1/validate', `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 26\r\n`],
        ['GET', '/api/trpc/account.me', `Cookie: ${cookie}\r\n`],
        ['GET', '/api/auth/get-session', `Cookie: ${cookie}\r\n`],
        ['GET', '/healthz', ''],
      ] as const) {
        const res = await rawExchange(ts.url, `${method} ${target} HTTP/1.1\r\n${host === null ? '' : `Host: ${host}\r\n`}${extra}Connection: close\r\n\r\n${method === 'POST' ? '{"email":"not-an-address"}' : ''}`);
        const label = `${method} ${target} Host=${host === null ? '(none)' : `'${host}'`}`;
        expect(res.status, label).toBe(400);
        expect(res.head, label).toMatch(/content-type: application\/(problem\+)?json/i);
        expect(res.body, label).toContain('The Host header is not a valid host name.');
      }
    }
  });

  it('HTTP/1.0 may leave it out, or send it empty', async () => {
    for (const hostLine of ['', 'Host: \r\n']) {
      const res = await rawExchange(ts.url, `GET /api/trpc/account.me HTTP/1.0\r\n${hostLine}Cookie: ${cookie}\r\n\r\n`);
      expect(res.status, JSON.stringify(hostLine)).toBe(200);
    }
  });
});

describe("OPTIONS on the dashboard's own routes", () => {
  it('is the JSON 404 any other method they do not take gets, not a text/plain 200', async () => {
    for (const target of ['/api/jobs/upload', '/api/billing/razorpay/webhook', '/api/branding/logo', '/api/reports/analytics.csv', '/api/public-config']) {
      const res = await request('OPTIONS', target);
      expect(res.status, target).toBe(404);
      expect(JSON.parse(res.body), target).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    }
  });
});

describe('CONNECT', () => {
  it('is a 405 with a JSON body, not a connection closed without a word', async () => {
    for (const target of ['/v1/validate', '127.0.0.1:5432', '/dashboard']) {
      const res = await rawExchange(ts.url, `CONNECT ${target} HTTP/1.1\r\nHost: ${new URL(ts.url).host}\r\n\r\n`);
      expect(res.status, target).toBe(405);
      expect(JSON.parse(res.body), target).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });
    }
  });
});
