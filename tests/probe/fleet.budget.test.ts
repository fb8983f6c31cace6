// The fleet-wide RCPT budget per MX: three real probe daemon processes (own source address each),
// each holding its share (PROBE_FLEET_MX_RCPT_PER_MINUTE ÷ PROBE_FLEET_SIZE) without talking to
// anyone, verify a list dominated by one provider. The provider's mail server counts every RCPT
// it receives: in no window does the whole fleet send it more than the budget, and every verdict
// is still the ground truth — the budget only makes the job slower.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { startProbeDaemon } from '../../probe/daemon/server';
import { createVerifier } from '../../probe/index';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { spawnProbeNode, type ProbeNode } from '../helpers/probe-fleet';
import { collect } from './fake-nodes';
import { expectedOutcome, fastProbeOptions, outcome } from './mailworld-helpers';
import { maxInAnyWindow } from '../../probe/testing/rate-window';

const TOKEN = 'fleet-budget-token';
const SOURCES = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
const BIG_IP = '127.86.0.1';
/**
 * The fleet's budget: 12 RCPTs per MX per 2 s window (4 per node), a window shortened for the test.
 * Each node counts 4 per 2.5 s (the window plus one spacing), so the provider's own count holds
 * even when it reads a burst up to 0.5 s late (a busy test machine).
 */
const BUDGET = 12;
const WINDOW_MS = 2000;

const big: DomainSpec = { domain: 'budgetmail.test', scenario: 'big provider', mx: [{ host: 'mx.budgetmail.test', priority: 10, ip: BIG_IP, server: { maxRcptsPerSession: 100 } }], mailboxes: {}, addresses: [] };
for (let i = 0; i < 60; i++) {
  big.addresses.push(`member${i}`);
  if (i % 3 !== 2 && big.mailboxes) big.mailboxes[`member${i}`] = 'ok';
}
/** A server without PIPELINING: the budget is waited for before each single RCPT. */
const plain: DomainSpec = { domain: 'plainmail.test', scenario: 'no pipelining', mx: [{ host: 'mx.plainmail.test', priority: 10, ip: '127.86.2.1', server: { pipelining: false } }], mailboxes: {}, addresses: [] };
for (let i = 0; i < 12; i++) {
  plain.addresses.push(`p${i}`);
  if (i % 2 === 0 && plain.mailboxes) plain.mailboxes[`p${i}`] = 'ok';
}
const small: DomainSpec[] = Array.from({ length: 6 }, (_, i) => ({
  domain: `small${i}.budget.test`,
  scenario: 'small',
  mx: [{ host: `mx.small${i}.budget.test`, priority: 10, ip: `127.86.1.${i + 1}` }],
  mailboxes: { a: 'ok' },
  addresses: ['a', 'b'],
}));

let world: MailWorld;
let nodes: ProbeNode[] = [];
beforeAll(async () => {
  world = await startMailWorld({ domains: [big, plain, ...small], replyDelayMs: 5 });
  const env = {
    ...world.probeEnv(),
    PROBE_CONNECT_TIMEOUT_MS: '1000',
    PROBE_BANNER_TIMEOUT_MS: '2000',
    PROBE_REPLY_TIMEOUT_MS: '2000',
    PROBE_MAX_CONN_PER_IP: '2',
    PROBE_MAX_RCPTS_PER_SESSION: '10',
    PROBE_FLEET_MX_RCPT_PER_MINUTE: String(BUDGET),
    PROBE_FLEET_SIZE: String(SOURCES.length),
    PROBE_FLEET_MX_RCPT_WINDOW_MS: String(WINDOW_MS),
  };
  nodes = await Promise.all(SOURCES.map((sourceIp) => spawnProbeNode({ sourceIp, token: TOKEN, env })));
}, 60_000);
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await world?.stop();
});

describe('a fleet-wide RCPT budget per MX', () => {
  it('without a budget the same list reaches the provider far faster than the budget allows (the counter sees it)', async () => {
    const free = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fastProbeOptions(world), dnsTimeoutMs: 3000, sourceIps: ['127.0.0.5'], maxConnectionsPerIp: 2, maxRcptsPerSession: 10 } });
    try {
      world.resetCounters();
      const emails = world.emails.filter((e) => e.endsWith('@budgetmail.test'));
      const results = await collect(new ProbeClient({ urls: [free.url], token: TOKEN }).verify(emails, { depth: 'smtp', mode: 'bulk', signal: AbortSignal.timeout(30_000) }));
      expect(outcome(results)).toEqual(expectedOutcome(world, emails));
      expect(maxInAnyWindow(world.counters.perIp.get(BIG_IP)?.rcptTimes ?? [], WINDOW_MS)).toBeGreaterThan(BUDGET);
    } finally {
      await free.close();
    }
  });

  it('three nodes never send one MX more than the budget in any window, use every node, and every verdict is right', { timeout: 90_000 }, async () => {
    world.resetCounters();
    world.resetGreylist();
    const emails = world.emails.filter((e) => !e.endsWith('@plainmail.test'));
    expect(emails.filter((e) => e.endsWith('@budgetmail.test'))).toHaveLength(60);
    const client = new ProbeClient({ urls: nodes.map((n) => n.url), token: TOKEN, fleet: { splitMin: 20 } });
    const started = Date.now();
    const results = await collect(client.verify(emails, { depth: 'smtp', mode: 'bulk', signal: AbortSignal.timeout(80_000) }));
    const elapsed = Date.now() - started;

    // Every address once, every verdict the ground truth.
    expect(results).toHaveLength(emails.length);
    expect(new Set(results.map((r) => r.email)).size).toBe(emails.length);
    expect(outcome(results)).toEqual(expectedOutcome(world, emails));
    // Recipients a session held back for the budget were asked later at no cost: no retry counted.
    expect(results.filter((r) => r.evidence.retries > 0).map((r) => r.email)).toEqual([]);

    const host = world.counters.perIp.get(BIG_IP);
    const times = host?.rcptTimes ?? [];
    // 60 mailboxes and the random mailbox at least once: the provider saw them all...
    expect(times.length).toBeGreaterThanOrEqual(61);
    // ...from all three nodes (each on its own address)...
    expect(SOURCES.every((ip) => (host?.byClient.get(ip)?.connections ?? 0) > 0)).toBe(true);
    // ...and never more than the fleet's budget in any window, whenever it starts.
    const peak = maxInAnyWindow(times, WINDOW_MS);
    expect(peak).toBeLessThanOrEqual(BUDGET);
    // The budget was what held the pace: the fleet used most of it, and the job took as long as it demands.
    expect(peak).toBeGreaterThan(BUDGET / 2);
    expect(elapsed).toBeGreaterThanOrEqual(Math.floor(times.length / BUDGET - 1) * WINDOW_MS);
    // Every other MX is under the budget too.
    for (const [ip, h] of world.counters.perIp) expect(maxInAnyWindow(h.rcptTimes, WINDOW_MS), ip).toBeLessThanOrEqual(BUDGET);
  });

  it('tells a client with more nodes in PROBE_URLS than PROBE_FLEET_SIZE, or a node without the budget, that the sum would not hold', async () => {
    // Each node names the budget it holds a share of, to a client with the token only.
    expect(await (await fetch(`${nodes[0]!.url}/healthz`)).json()).toEqual({ ok: true });
    expect(await (await fetch(`${nodes[0]!.url}/healthz`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()).toEqual({ ok: true, node: expect.any(String) as unknown, mx_rcpt_budget: { budget: BUDGET, fleet_size: 3, window_ms: WINDOW_MS, node_share: 4 } });
    const fleet = new ProbeClient({ urls: nodes.map((n) => n.url), token: TOKEN });
    expect(await fleet.liveNodes()).toHaveLength(3);
    expect(fleet.stats.warnings).toEqual([]);

    const extra = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fastProbeOptions(world), sourceIps: ['127.0.0.6'] } });
    try {
      const four = new ProbeClient({ urls: [...nodes.map((n) => n.url), extra.url], token: TOKEN });
      expect(await four.liveNodes()).toHaveLength(4);
      expect(four.stats.warnings).toEqual([
        expect.stringMatching(/PROBE_URLS lists 4 probe nodes but their fleet RCPT budget \(12 per MX per 2000 ms\) is shared among PROBE_FLEET_SIZE=3.*set PROBE_FLEET_SIZE=4/),
        expect.stringContaining(`probe node ${extra.url} holds no share of the fleet RCPT budget`),
      ]);
    } finally {
      await extra.close();
    }
  });

  it('a node that holds its share but refuses our token (a rotation half done) is not reported as holding no share', { timeout: 30_000 }, async () => {
    const stale = await spawnProbeNode({ sourceIp: '127.0.0.6', token: 'the-old-token', env: { ...world.probeEnv(), PROBE_FLEET_MX_RCPT_PER_MINUTE: String(BUDGET), PROBE_FLEET_SIZE: '4', PROBE_FLEET_MX_RCPT_WINDOW_MS: String(WINDOW_MS) } });
    try {
      const fleet = new ProbeClient({ urls: [nodes[0]!.url, stale.url], token: TOKEN });
      expect(await fleet.liveNodes()).toHaveLength(2);
      expect(fleet.stats.warnings.filter((w) => w.includes(stale.url) && w.includes('holds no share'))).toEqual([]);
    } finally {
      await stale.stop();
    }
  });

  it('a server without PIPELINING gets each RCPT only when the budget has room, with every verdict right', { timeout: 30_000 }, async () => {
    world.resetCounters();
    const verifier = createVerifier({ ...fastProbeOptions(world), dnsTimeoutMs: 3000, sourceIps: ['127.0.0.7'], mxRcptBudget: { rcpts: 3, windowMs: 600 } });
    try {
      const emails = world.emails.filter((e) => e.endsWith('@plainmail.test'));
      const results = await collect(verifier.verifyBatch(emails, { depth: 'smtp', mode: 'bulk', signal: AbortSignal.timeout(25_000) }));
      expect(outcome(results)).toEqual(expectedOutcome(world, emails));
      const times = world.counters.perIp.get('127.86.2.1')?.rcptTimes ?? [];
      expect(times.length).toBeGreaterThanOrEqual(13);
      expect(world.counters.violations).toEqual([]);
      expect(maxInAnyWindow(times, 600)).toBeLessThanOrEqual(3);
      expect(maxInAnyWindow(times, 600)).toBe(3);
    } finally {
      await verifier.close();
    }
  });
});
