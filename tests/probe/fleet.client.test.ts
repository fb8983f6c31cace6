// ProbeClient over a fleet of three probe daemons on the mail world, each speaking from its own
// source address: a list dominated by one provider uses every node (each within its own caps),
// every address is answered once, a split domain's catch-all is checked once (the other shares go at
// once, "catch-all pending", and are told the answer), nodes that fail
// /healthz are skipped and come back, and a node that dies mid-stream has its owed work redone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { planShares, probeOrder } from '../../probe/client/pick-probe';
import type { VerificationResult } from '../../probe/contract';
import { startProbeDaemon } from '../../probe/daemon/server';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { collect } from './fake-nodes';
import { expectedOutcome, fleetProbeOptions, freePort, outcome } from './mailworld-helpers';

const TOKEN = 'fleet-token';
const SOURCES = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];

function bigDomain(domain: string, ip: string, n: number, catchAll = false): DomainSpec {
  const d: DomainSpec = { domain, scenario: 'big provider', mx: [{ host: `mx.${domain}`, priority: 10, ip, server: { maxRcptsPerSession: 100 } }], mailboxes: {}, addresses: [], catchAll };
  for (let i = 0; i < n; i++) {
    d.addresses.push(`user${i}`);
    if (i % 4 !== 3 && d.mailboxes) d.mailboxes[`user${i}`] = 'ok';
  }
  return d;
}
const small: DomainSpec[] = Array.from({ length: 12 }, (_, i) => ({
  domain: `small${i}.fleet.test`,
  scenario: 'small',
  mx: [{ host: `mx.small${i}.fleet.test`, priority: 10, ip: `127.95.1.${i + 1}` }],
  mailboxes: { a: 'ok', b: 'ok' },
  addresses: ['a', 'b', 'c'],
}));
const domains = [bigDomain('bigmail.test', '127.95.0.1', 300), bigDomain('allmail.test', '127.95.0.2', 150, true), ...small];

let world: MailWorld;
const daemons: { url: string; close(): Promise<void> }[] = [];
beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 3 });
  for (const ip of SOURCES) {
    daemons.push(await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fleetProbeOptions(world), sourceIps: [ip], maxConnectionsPerIp: 2, maxRcptsPerSession: 10 } }));
  }
});
afterAll(async () => {
  await Promise.all(daemons.map((d) => d.close()));
  await world?.stop();
});

describe('planShares', () => {
  it('keeps small domains whole on their rendezvous node and splits a big one over every live node, each address once', () => {
    const live = ['http://a', 'http://b', 'http://c'];
    const emails = [...Array.from({ length: 300 }, (_, i) => `u${i}@big.test`), 'x@small.test', 'y@small.test'];
    const shares = planShares(emails, live, 50);
    const big = shares.filter((s) => s.domain === 'big.test');
    expect(big.map((s) => s.emails.length)).toEqual([100, 100, 100]);
    expect(new Set(big.map((s) => s.url)).size).toBe(3);
    expect(shares.filter((s) => s.domain === 'small.test')).toHaveLength(1);
    expect(shares.flatMap((s) => s.emails).sort()).toEqual([...emails].sort());
    // 120 addresses with shares of at least 50: two shares; one live node: one share.
    expect(planShares(emails.slice(0, 120), live, 50)).toHaveLength(2);
    expect(planShares(emails, ['http://a'], 50).every((s) => s.url === 'http://a')).toBe(true);
    expect(planShares(emails, [], 50)).toEqual([]);
  });
});

describe('ProbeClient over a fleet of three nodes', () => {
  it('spreads a list dominated by one provider over every node, answers each address once, checks catch-all once per domain', { timeout: 30_000 }, async () => {
    world.resetCounters();
    const client = new ProbeClient({ urls: daemons.map((d) => d.url), token: TOKEN });
    const results: VerificationResult[] = [];
    let pendingAtFirstResult = -1;
    for await (const r of client.verify(world.emails, { depth: 'smtp', mode: 'bulk' })) {
      if (results.length === 0) pendingAtFirstResult = client.stats.pendingShares;
      results.push(r);
    }
    expect(results).toHaveLength(world.emails.length);
    expect(new Set(results.map((r) => r.email)).size).toBe(world.emails.length);
    expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));

    for (const ip of ['127.95.0.1', '127.95.0.2']) {
      const host = world.counters.perIp.get(ip);
      // Every node spoke to the big provider, each within its own cap of 2 connections.
      expect([...(host?.byClient.keys() ?? [])].sort()).toEqual(SOURCES);
      expect([...(host?.byClient.values() ?? [])].every((c) => c.maxConcurrent <= 2)).toBe(true);
    }
    // One random-mailbox RCPT per split domain, not one per node.
    expect(world.counters.perIp.get('127.95.0.1')?.rcpts).toBe(300 + 1);
    expect(world.counters.perIp.get('127.95.0.2')?.rcpts).toBe(150 + 1);
    expect(results.filter((r) => r.email.endsWith('@allmail.test')).every((r) => r.catch_all === true && r.reason === 'catch_all')).toBe(true);
    // No node waited for the catch-all answer: the two other shares of each split domain went before
    // the first result came back, "catch-all pending", and each of their nodes was told the answer.
    expect(pendingAtFirstResult).toBe(4);
    expect(client.stats.catchAllAnswers).toBeGreaterThanOrEqual(4);
    expect(Object.keys(client.stats.answered).sort()).toEqual(daemons.map((d) => d.url).sort());
  });

  it('hands the held-back part of a split domain to the nodes that run out first: a slow node does less of it, every address once, catch-all once', { timeout: 30_000 }, async () => {
    // Two of the nodes as they are, one slow (one connection, two RCPTs per session) on its own address.
    const slow = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fleetProbeOptions(world), sourceIps: ['127.0.0.5'], maxConnectionsPerIp: 1, maxRcptsPerSession: 2 } });
    try {
      world.resetCounters();
      const fast = [daemons[0]!.url, daemons[1]!.url];
      const client = new ProbeClient({ urls: [...fast, slow.url], token: TOKEN });
      const emails = world.emails.filter((e) => e.endsWith('@bigmail.test'));
      const results = await collect(client.verify(emails, { depth: 'smtp', mode: 'bulk' }));
      expect(results).toHaveLength(emails.length);
      expect(new Set(results.map((r) => r.email)).size).toBe(emails.length);
      expect(outcome(results)).toEqual(expectedOutcome(world, emails));
      // Each address once, and the random mailbox at most once: none at all when a node still
      // remembers the domain's answer from the test above (several requests per node, one check).
      expect(world.counters.perIp.get('127.95.0.1')?.rcpts).toBeGreaterThanOrEqual(300);
      expect(world.counters.perIp.get('127.95.0.1')?.rcpts).toBeLessThanOrEqual(300 + 1);
      // 300 addresses over three nodes: 75 each up front, 75 held back and handed out as they run low.
      expect(client.stats.reserveParts).toBeGreaterThan(0);
      const answered = client.stats.answered;
      for (const url of fast) expect(answered[url] ?? 0).toBeGreaterThan(answered[slow.url] ?? 0);
      expect((answered[fast[0]!] ?? 0) + (answered[fast[1]!] ?? 0) + (answered[slow.url] ?? 0)).toBe(300);
    } finally {
      await slow.close();
    }
  });

  it('skips a node that fails /healthz, and uses it again once it is back after the cooldown', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const lateUrl = `http://127.0.0.1:${port}`;
    const client = new ProbeClient({ urls: [lateUrl, daemons[0]!.url], token: TOKEN, retry: { cooldownMs: 300 } });
    const emails = world.emails.filter((e) => e.includes('@small'));
    const first = await collect(client.verify(emails, { depth: 'smtp', mode: 'bulk' }));
    expect(first).toHaveLength(emails.length);
    expect(client.stats.requests[lateUrl]).toBeUndefined();

    const late = await startProbeDaemon({ port, host: '127.0.0.1', token: TOKEN, probe: { ...fleetProbeOptions(world), sourceIps: ['127.0.0.5'] } });
    try {
      await new Promise((r) => setTimeout(r, 350));
      const second = await collect(client.verify(emails, { depth: 'smtp', mode: 'bulk' }));
      expect(second).toHaveLength(emails.length);
      expect(client.stats.answered[lateUrl]).toBeGreaterThan(0);
    } finally {
      await late.close();
    }
  });

  it('when the home node of a split domain dies before its catch-all answer, the nodes sent their shares "pending" check it themselves: every verdict right, every address once', { timeout: 10_000 }, async () => {
    const w = await startMailWorld({ domains: [bigDomain('openbig.test', '127.94.0.1', 200, true), bigDomain('shutbig.test', '127.94.0.2', 200)], replyDelayMs: 15 });
    const nodes = await Promise.all(SOURCES.map((ip) => startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fleetProbeOptions(w), sourceIps: [ip], maxConnectionsPerIp: 2, maxRcptsPerSession: 10 } })));
    const urls = nodes.map((n) => n.url);
    const home = probeOrder('openbig.test', urls)[0]!;
    let killed = false;
    try {
      // No timeout opens the domain's gate within this test's 10 s (nor does a node's own 15 s one
      // end the wait): only the home node's failure can tell the other nodes to check for themselves.
      const client = new ProbeClient({ urls, token: TOKEN, retry: { backoffMs: 50 }, fleet: { catchAllWaitMs: 20_000 } });
      // The home node dies as soon as the other shares have gone out "catch-all pending", long
      // before its first session (three replies of 15 ms) can have answered the random mailbox.
      const killer = setInterval(() => {
        if (killed || client.stats.pendingShares === 0) return;
        killed = true;
        void nodes.find((n) => n.url === home)!.close();
      }, 1);
      const results = await collect(client.verify(w.emails, { depth: 'smtp', mode: 'bulk' })).finally(() => clearInterval(killer));
      expect(killed).toBe(true);
      expect(results).toHaveLength(w.emails.length);
      expect(new Set(results.map((r) => r.email)).size).toBe(w.emails.length);
      expect(outcome(results)).toEqual(expectedOutcome(w, w.emails));
      expect(results.filter((r) => r.email.endsWith('@openbig.test')).every((r) => r.catch_all === true)).toBe(true);
      expect(client.stats.replanned).toBeGreaterThan(0);
      expect(client.stats.catchAllAnswers).toBeGreaterThanOrEqual(1); // "nothing learnt" passed on, not waited out
      expect(Object.keys(client.stats.answered)).not.toContain(home);
    } finally {
      await Promise.all(nodes.filter((n) => !(killed && n.url === home)).map((n) => n.close()));
      await w.stop();
    }
  });

  it('redoes the owed work of a node that dies mid-stream on the others: every address once', { timeout: 30_000 }, async () => {
    const slowWorld = await startMailWorld({ domains: [bigDomain('slowbig.test', '127.96.0.1', 240), ...small.map((d) => ({ ...d, domain: d.domain.replace('fleet', 'slow'), mx: [{ host: `mx.${d.domain}`, priority: 10, ip: (d.mx?.[0]?.ip ?? '').replace('127.95', '127.96') }] }))], replyDelayMs: 15 });
    const nodes = await Promise.all(SOURCES.map((ip) => startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fleetProbeOptions(slowWorld), sourceIps: [ip], maxConnectionsPerIp: 1, maxRcptsPerSession: 5 } })));
    let killed: string | null = null;
    try {
      const client = new ProbeClient({ urls: nodes.map((n) => n.url), token: TOKEN, retry: { backoffMs: 50 } });
      const seen: string[] = [];
      for await (const r of client.verify(slowWorld.emails, { depth: 'smtp', mode: 'bulk' })) {
        seen.push(r.email);
        if (seen.length === 30 && !killed) {
          // The busiest node dies with work in flight.
          const [url] = Object.entries(client.stats.answered).sort((a, b) => b[1] - a[1])[0]!;
          killed = url;
          await nodes.find((n) => n.url === url)!.close();
        }
      }
      expect(killed).not.toBeNull();
      expect(seen).toHaveLength(slowWorld.emails.length);
      expect(new Set(seen).size).toBe(slowWorld.emails.length);
      expect(client.stats.replanned).toBeGreaterThan(0);
    } finally {
      await Promise.all(nodes.filter((n) => n.url !== killed).map((n) => n.close()));
      await slowWorld.stop();
    }
  });

  it('gives the work of a node that refuses our token (a rotation half done) to the nodes that take it, and says so', { timeout: 30_000 }, async () => {
    const stale = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: 'the-old-token', probe: { ...fleetProbeOptions(world), sourceIps: [SOURCES[0]!], maxConnectionsPerIp: 2, maxRcptsPerSession: 10 } });
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (m: string) => void warned.push(m);
    try {
      world.resetCounters();
      const client = new ProbeClient({ urls: [stale.url, daemons[1]!.url, daemons[2]!.url], token: TOKEN });
      const results = await collect(client.verify(world.emails, { depth: 'smtp', mode: 'bulk' }));
      expect(results).toHaveLength(world.emails.length);
      expect(new Set(results.map((r) => r.email)).size).toBe(world.emails.length);
      expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));
      expect(client.stats.answered[stale.url] ?? 0).toBe(0);
      expect(client.stats.requests[stale.url]).toBeGreaterThan(0); // it was asked, refused, and its share went elsewhere
      expect(client.stats.warnings.some((w) => w.includes(stale.url) && w.includes('(401)') && w.includes('PROBE_TOKEN'))).toBe(true);
      expect(warned.filter((w) => w.includes(stale.url))).toHaveLength(1); // once, not per request
    } finally {
      console.warn = warn;
      await stale.close();
    }
  });

  it('fails with the refusal when every node that answers refuses our token', { timeout: 10_000 }, async () => {
    const client = new ProbeClient({ urls: daemons.map((d) => d.url), token: 'not-the-fleet-token' });
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      await expect(collect(client.verify(world.emails.slice(0, 40), { depth: 'smtp', mode: 'bulk' }))).rejects.toMatchObject({ name: 'ProbeRequestError', status: 401, message: expect.stringContaining('missing or wrong bearer token') as unknown });
    } finally {
      console.warn = warn;
    }
  });
});
