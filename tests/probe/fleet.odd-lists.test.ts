// Lists a self-hoster's CLI can hand the fleet client whole (fleet-call.ts): a hundred "addresses"
// without an @ (one domain key, ""), a domain longer than DNS allows, and one domain so big that a
// node's share outgrows a request (MAX_BATCH). Each is split over the nodes like any big domain and
// answered once per address; none may turn into a request the daemons refuse (400).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { startProbeDaemon } from '../../probe/daemon/server';
import { startFakeDns, type FakeDns } from '../../probe/testing/fake-dns';
import { collect, listenLocal } from './fake-nodes';

const TOKEN = 'odd-lists-token';
let dns: FakeDns;
const daemons: { url: string; close(): Promise<void> }[] = [];

beforeAll(async () => {
  dns = await startFakeDns({}); // every name NXDOMAIN: answers come fast, no SMTP
  for (let i = 0; i < 2; i++) {
    daemons.push(await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { dnsServers: [dns.server], allowPrivateNetworks: true } }));
  }
});
afterAll(async () => {
  await Promise.all(daemons.map((d) => d.close()));
  await dns.close();
});

describe('the fleet client on odd lists', () => {
  it('answers a list with 100 addresses that have no "@" (domain key "") over two nodes', { timeout: 20_000 }, async () => {
    const client = new ProbeClient({ urls: daemons.map((d) => d.url), token: TOKEN });
    const emails = Array.from({ length: 100 }, (_, i) => `not-an-address-${i}`);
    const results = await collect(client.verify(emails, { depth: 'smtp', mode: 'bulk' }));
    expect(results.map((r) => r.email).sort()).toEqual([...emails].sort());
    expect(results.every((r) => r.reason === 'syntax')).toBe(true);
  });

  it('answers a list with 100 addresses of one over-long (> 253 characters) domain over two nodes', { timeout: 20_000 }, async () => {
    const client = new ProbeClient({ urls: daemons.map((d) => d.url), token: TOKEN });
    const domain = `${'a'.repeat(60)}.`.repeat(5) + 'test'; // 309 characters
    const emails = Array.from({ length: 100 }, (_, i) => `user${i}@${domain}`);
    const results = await collect(client.verify(emails, { depth: 'smtp', mode: 'bulk' }));
    expect(results.map((r) => r.email).sort()).toEqual([...emails].sort());
    expect(results.every((r) => r.reason === 'syntax')).toBe(true);
  });

  it('answers a split domain whose share (after the reserve) is bigger than MAX_BATCH', { timeout: 60_000 }, async () => {
    const client = new ProbeClient({ urls: daemons.map((d) => d.url), token: TOKEN });
    // 28,000 addresses of one domain over two nodes: shares of 14,000, 10,500 each sent at once.
    const emails = Array.from({ length: 28_000 }, (_, i) => `user${i}@nowhere.test`);
    const results = await collect(client.verify(emails, { depth: 'smtp', mode: 'bulk' }));
    expect(results).toHaveLength(28_000);
    expect(new Set(results.map((r) => r.email)).size).toBe(28_000);
    expect(results.every((r) => r.reason === 'no_domain')).toBe(true);
    expect(Object.values(client.stats.requests).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(4); // each node's 10,500 in two requests at least
  });

  it('gives up on addresses that every daemon keeps failing on (healthy by /healthz, every request reset)', { timeout: 20_000 }, async () => {
    let verifies = 0;
    const broken = await listenLocal((req, res) => {
      if (req.url === '/healthz') return void res.end('{"ok":true}');
      verifies++;
      req.socket.destroy();
    });
    try {
      const client = new ProbeClient({ urls: [broken.url], token: TOKEN, retry: { backoffMs: 10, cooldownMs: 10 } });
      await expect(collect(client.verify(['a@nowhere.test', 'b@nowhere.test'], { depth: 'smtp', mode: 'bulk' }))).rejects.toThrow(/failed 4 times on the same addresses/);
      expect(verifies).toBe(4); // sent once, planned again three times, then the call stops
    } finally {
      await broken.close();
    }
  });
});
