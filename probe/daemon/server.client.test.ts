import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient, ProbeRequestError } from '../client/probe-client';
import { probeOrder } from '../client/pick-probe';
import { verificationResultSchema, type VerificationResult } from '../contract';
import type { Verifier } from '../index';
import { startFakeDns, type FakeDns } from '../testing/fake-dns';
import { startScriptedSmtp, type RunningServer } from '../testing/fake-smtp';
import { createProbeServer, startProbeDaemon } from './server';

const TOKEN = 'test-token-123';
let dns: FakeDns;
let smtp: RunningServer;
const daemons: { url: string; close(): Promise<void> }[] = [];

beforeAll(async () => {
  dns = await startFakeDns({ 'shop.test': { mx: [[10, 'mx.shop.test']] }, 'mx.shop.test': { a: ['127.0.0.1'] } });
  smtp = await startScriptedSmtp({
    reply: (l) => (l.startsWith('EHLO') ? '250-fake\r\n250 PIPELINING' : l.startsWith('RCPT') ? (l.includes('<alice@') ? '250 ok' : '550 5.1.1 unknown') : l.startsWith('QUIT') ? '221 bye' : '250 ok'),
  });
  for (let i = 0; i < 2; i++) {
    daemons.push(
      await startProbeDaemon({
        port: 0,
        host: '127.0.0.1',
        token: TOKEN,
        probe: { dnsServers: [dns.server], smtpPort: smtp.port, allowPrivateNetworks: true, connectTimeoutMs: 2000, bannerTimeoutMs: 2000, replyTimeoutMs: 2000 },
      }),
    );
  }
});
afterAll(async () => {
  await Promise.all(daemons.map((d) => d.close()));
  await smtp.close();
  await dns.close();
});

const post = (url: string, body: unknown, token: string | null = TOKEN) =>
  fetch(`${url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('probe daemon', () => {
  it('streams one NDJSON result per address', async () => {
    const res = await post(daemons[0]!.url, { emails: ['alice@shop.test', 'bob@shop.test', 'nope'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/ndjson/);
    const lines = (await res.text()).trim().split('\n').map((l) => verificationResultSchema.parse(JSON.parse(l)));
    expect(lines.map((l) => `${l.email} ${l.verdict}`).sort()).toEqual(['alice@shop.test deliverable', 'bob@shop.test undeliverable', 'nope undeliverable']);
  });

  it('refuses a missing or wrong token with 401', async () => {
    expect((await post(daemons[0]!.url, { emails: ['a@b.test'] }, null)).status).toBe(401);
    const wrong = await post(daemons[0]!.url, { emails: ['a@b.test'] }, 'wrong');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'missing or wrong bearer token' });
  });

  it('answers bad requests with 400 and a reason', async () => {
    const cases: [unknown, RegExp][] = [
      ['{not json', /not valid JSON/],
      [{}, /emails/],
      [{ emails: [] }, /emails/],
      [{ emails: ['a@b.test'], depth: 'deep' }, /depth/],
      [{ emails: Array.from({ length: 10_001 }, (_, i) => `u${i}@b.test`) }, /emails/],
      [{ emails: [123] }, /emails/],
    ];
    for (const [body, why] of cases) {
      const res = await post(daemons[0]!.url, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(why);
    }
  });

  it('accepts 10,000 addresses at depth syntax', async () => {
    const emails = Array.from({ length: 10_000 }, (_, i) => `user${i}@`);
    const res = await post(daemons[0]!.url, { emails, depth: 'syntax' });
    expect(res.status).toBe(200);
    expect((await res.text()).trim().split('\n')).toHaveLength(10_000);
  });

  it('serves /healthz and Prometheus /metrics (bearer token) with verdict counters and a latency histogram', async () => {
    expect(await (await fetch(`${daemons[0]!.url}/healthz`)).json()).toEqual({ ok: true });
    expect((await fetch(`${daemons[0]!.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${daemons[0]!.url}/metrics`, { headers: { authorization: 'Bearer wrong-token' } })).status).toBe(401);
    const metrics = await (await fetch(`${daemons[0]!.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(metrics).toMatch(/mailvet_probe_results_total\{verdict="deliverable",reason="accepted"\} \d+/);
    expect(metrics).toMatch(/mailvet_probe_verify_duration_seconds_bucket/);
    expect((await fetch(`${daemons[0]!.url}/nowhere`)).status).toBe(404);
  });

  it('aborts the work of a client that disconnects', async () => {
    let aborted = false;
    const verifier: Verifier = {
      verify: () => Promise.reject(new Error('unused')),
      async *verifyBatch(_emails, o) {
        await new Promise<void>((resolve) => o?.signal?.addEventListener('abort', () => resolve()));
        aborted = true;
      },
      answerCatchAll: () => undefined,
      stats: () => ({ maxConcurrentPerIp: 0, sessions: 0, rcpts: 0 }),
      close: async () => undefined,
    };
    const server = createProbeServer({ token: TOKEN, verifier });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => {
      const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/v1/verify', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } }, (res) => {
        res.once('data', () => undefined);
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 50);
      });
      req.end(JSON.stringify({ emails: ['a@b.test'] }));
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(aborted).toBe(true);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
});

describe('ProbeClient', () => {
  const collect = async (it: AsyncIterable<VerificationResult>) => {
    const out: VerificationResult[] = [];
    for await (const r of it) out.push(r);
    return out;
  };

  it('round-trips through a daemon, every line parsed with the contract schema', async () => {
    const client = new ProbeClient({ urls: daemons.map((d) => d.url), token: TOKEN });
    const out = await collect(client.verify(['alice@shop.test', 'bob@shop.test', 'bob@shop.test']));
    expect(out.map((r) => r.email).sort()).toEqual(['alice@shop.test', 'bob@shop.test', 'bob@shop.test']);
  });

  it('hashes each domain to one daemon, stably', () => {
    const urls = ['http://a:1', 'http://b:1', 'http://c:1'];
    expect(probeOrder('shop.test', urls)).toEqual(probeOrder('SHOP.test', [...urls].reverse()));
    const firsts = new Set(Array.from({ length: 50 }, (_, i) => probeOrder(`d${i}.test`, urls)[0]));
    expect(firsts.size).toBe(3);
  });

  it('fails over to the next daemon when one is down', async () => {
    const dead = 'http://127.0.0.1:1';
    const urls = [dead, daemons[1]!.url];
    const client = new ProbeClient({ urls, token: TOKEN, retry: { backoffMs: 10 } });
    // whatever the hash says, every address is answered
    const emails = Array.from({ length: 20 }, (_, i) => `alice@d${i}.shop.test`).concat(['alice@shop.test']);
    const out = await collect(client.verify(emails));
    expect(out).toHaveLength(emails.length);
  });

  it('fails over when a daemon answers 5xx, and raises when all are down', async () => {
    const broken = http.createServer((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', () => r()));
    const brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
    const client = new ProbeClient({ urls: [brokenUrl, daemons[0]!.url], token: TOKEN, retry: { backoffMs: 10 } });
    const out = await collect(client.verify(['alice@shop.test', 'x@y.test', 'z@w.test']));
    expect(out).toHaveLength(3);
    const none = new ProbeClient({ urls: [brokenUrl, 'http://127.0.0.1:1'], token: TOKEN, retry: { backoffMs: 10, rounds: 2 } });
    await expect(collect(none.verify(['alice@shop.test']))).rejects.toThrow(/no probe daemon/);
    broken.closeAllConnections();
    await new Promise((r) => broken.close(r));
  });

  it.each([
    ['JSON lines that are not results (another service, another version)', '{"status":"ok"}\n{"email":"alice@d0.shop.test"}\n'],
    ['half a line, then the end of the stream', '{"email":"alice@d0.shop.te'],
  ])('fails over when a healthy node answers %s: every address answered once by the others', async (_what, body) => {
    const odd = http.createServer((req, res) => {
      if (req.url === '/healthz') return void res.end('{"ok":true}');
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.end(body);
      });
    });
    await new Promise<void>((r) => odd.listen(0, '127.0.0.1', () => r()));
    const oddUrl = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
    try {
      const client = new ProbeClient({ urls: [oddUrl, daemons[0]!.url], token: TOKEN, retry: { backoffMs: 10 } });
      const emails = Array.from({ length: 20 }, (_, i) => `alice@d${i}.shop.test`);
      expect(emails.some((e) => probeOrder(e.split('@')[1]!, [oddUrl, daemons[0]!.url])[0] === oddUrl)).toBe(true);
      const out = await collect(client.verify(emails));
      expect(out.map((r) => r.email).sort()).toEqual([...emails].sort());
      expect(client.stats.answered[oddUrl] ?? 0).toBe(0);
    } finally {
      odd.closeAllConnections();
      await new Promise((r) => odd.close(r));
    }
  });

  it.each([429, 408])('fails over when a node (or the proxy in front of it) answers %i, "try again later": every address answered once by the others', async (status) => {
    const busy = http.createServer((req, res) => {
      if (req.url === '/healthz') return void res.end('{"ok":true}');
      req.resume();
      req.on('end', () => {
        res.writeHead(status, { 'content-type': 'text/html', 'retry-after': '5' });
        res.end('<html><body>Too Many Requests</body></html>');
      });
    });
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const busyUrl = `http://127.0.0.1:${(busy.address() as AddressInfo).port}`;
    try {
      const client = new ProbeClient({ urls: [busyUrl, daemons[0]!.url], token: TOKEN, retry: { backoffMs: 10 } });
      const emails = Array.from({ length: 20 }, (_, i) => `alice@d${i}.shop.test`);
      expect(emails.some((e) => probeOrder(e.split('@')[1]!, [busyUrl, daemons[0]!.url])[0] === busyUrl)).toBe(true);
      const out = await collect(client.verify(emails));
      expect(out.map((r) => r.email).sort()).toEqual([...emails].sort());
    } finally {
      busy.closeAllConnections();
      await new Promise((r) => busy.close(r));
    }
  });

  it.each(['probe1:8025', '127.0.0.1:8025', 'ftp://probe1:8025', 'http://'])('refuses PROBE_URLS entry %j at once, naming it (not "no probe daemon could verify" on every call)', (url) => {
    expect(() => new ProbeClient({ urls: [daemons[0]!.url, url], token: TOKEN })).toThrow(new RegExp(`probe URL "${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" .*http://`));
  });

  it('counts one node once however its URL is spelt (case, default port, trailing slash)', () => {
    const client = new ProbeClient({ urls: ['http://Probe-1.internal:8025/', 'HTTP://probe-1.INTERNAL:8025', 'http://probe-2.internal:80', 'http://probe-2.internal'], token: TOKEN });
    expect(client.urls).toEqual(['http://probe-1.internal:8025', 'http://probe-2.internal']);
  });

  it('a caller that gives up while /healthz is being asked does not get a healthy node marked down', async () => {
    const client = new ProbeClient({ urls: [daemons[0]!.url], token: TOKEN, retry: { cooldownMs: 600_000 } });
    const gaveUp = new AbortController();
    const asking = client.liveNodes(gaveUp.signal);
    gaveUp.abort(); // e.g. the visitor of a single check left before the probe was asked
    await asking.catch(() => undefined);
    // Skipped for the cooldown (ten minutes here) the node would be, had its check counted as failed.
    expect(await client.liveNodes()).toEqual([daemons[0]!.url]);
  });

  it('does not fail over on a refused request (bad token)', async () => {
    const client = new ProbeClient({ urls: daemons.map((d) => d.url), token: 'wrong' });
    await expect(collect(client.verify(['alice@shop.test']))).rejects.toBeInstanceOf(ProbeRequestError);
  });
});
