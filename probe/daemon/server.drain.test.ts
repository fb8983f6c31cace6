// Stopping a daemon (SIGTERM on a deploy or a scale-down) drains it: the verify streams under way
// finish with their results (up to the drain deadline), no new connection is taken meanwhile, and
// what the deadline cuts ends the stream early, so the client re-sends it elsewhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationResultSchema } from '../contract';
import { startFakeDns, type FakeDns } from '../testing/fake-dns';
import { startScriptedSmtp, type RunningServer } from '../testing/fake-smtp';
import { startProbeDaemon, type ProbeDaemon } from './server';

const TOKEN = 'drain-token';
let dns: FakeDns;
let slow: RunningServer;

beforeAll(async () => {
  dns = await startFakeDns({ 'slow.test': { mx: [[10, 'mx.slow.test']] }, 'mx.slow.test': { a: ['127.0.0.1'] } });
  // Greets after 1.5 s: a stream is surely under way when the stop comes.
  slow = await startScriptedSmtp({
    bannerDelayMs: 1500,
    reply: (l) => (l.startsWith('EHLO') ? '250-slow\r\n250 PIPELINING' : l.startsWith('RCPT') ? (/<(alice|bob)@/.test(l) ? '250 ok' : '550 5.1.1 unknown') : l.startsWith('QUIT') ? '221 bye' : '250 ok'),
  });
});
afterAll(async () => {
  await slow.close();
  await dns.close();
});

const start = () =>
  startProbeDaemon({
    port: 0,
    host: '127.0.0.1',
    token: TOKEN,
    probe: { dnsServers: [dns.server], smtpPort: slow.port, allowPrivateNetworks: true, connectTimeoutMs: 2000, bannerTimeoutMs: 5000, replyTimeoutMs: 2000 },
  });

async function verifyStream(daemon: ProbeDaemon, emails: string[]) {
  const res = await fetch(`${daemon.url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ emails }) });
  expect(res.status).toBe(200);
  return res;
}

async function untilConnected(before: number) {
  await expect.poll(() => slow.counters.connections, { timeout: 5000 }).toBeGreaterThan(before);
}

describe('probe daemon stop', () => {
  it('lets a stream under way finish with its result before it closes, and takes no new connection meanwhile', async () => {
    const daemon = await start();
    const before = slow.counters.connections;
    const res = await verifyStream(daemon, ['alice@slow.test']);
    await untilConnected(before);

    const closing = daemon.close({ drainMs: 10_000 });
    await expect(fetch(`${daemon.url}/healthz`)).rejects.toThrow(); // no new connection
    const text = await res.text();
    await closing;

    const results = text.trim().split('\n').filter(Boolean).map((l) => verificationResultSchema.parse(JSON.parse(l)));
    expect(results.map((r) => `${r.email} ${r.verdict}`)).toEqual(['alice@slow.test deliverable']);
  });

  it('cuts what the drain deadline leaves: the stream ends early, without a result, and the daemon is gone', async () => {
    const daemon = await start();
    const before = slow.counters.connections;
    const res = await verifyStream(daemon, ['bob@slow.test']);
    await untilConnected(before);
    await daemon.close({ drainMs: 50 });
    const text = await res.text().catch(() => '');
    expect(text.trim()).toBe('');
    await expect(fetch(`${daemon.url}/healthz`)).rejects.toThrow();
  });
});
