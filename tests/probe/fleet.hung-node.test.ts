// A node that accepts a request and then goes silent without closing (a hung process, a stalled
// link) must not stall the job: ProbeClient cuts its stream after the idle timeout, skips the node
// for the cooldown and plans only what it still owed over the live nodes — every address once.
// The hung node is a real daemon behind a relay that passes on its first results, then stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { startProbeDaemon } from '../../probe/daemon/server';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { collect, startRelayNode } from './fake-nodes';
import { expectedOutcome, fleetProbeOptions, outcome } from './mailworld-helpers';

const TOKEN = 'hung-token';
const RELAYED_BEFORE_HANG = 3;

const big: DomainSpec = { domain: 'hungbig.test', scenario: 'big provider', mx: [{ host: 'mx.hungbig.test', priority: 10, ip: '127.97.0.1', server: { maxRcptsPerSession: 100 } }], mailboxes: {}, addresses: [] };
for (let i = 0; i < 180; i++) {
  big.addresses.push(`user${i}`);
  if (i % 3 !== 2) big.mailboxes![`user${i}`] = 'ok';
}
const small: DomainSpec[] = Array.from({ length: 6 }, (_, i) => ({
  domain: `small${i}.hung.test`,
  scenario: 'small',
  mx: [{ host: `mx.small${i}.hung.test`, priority: 10, ip: `127.97.1.${i + 1}` }],
  mailboxes: { a: 'ok', b: 'ok' },
  addresses: ['a', 'b', 'c', 'd'],
}));

/** Healthy on /healthz; on /v1/verify relays the first results of a real daemon, then hangs with the stream open. */
async function startHungNode(upstream: string): Promise<{ url: string; hung: number; close(): Promise<void> }> {
  const state = { hung: 0 };
  const node = await startRelayNode(upstream, RELAYED_BEFORE_HANG, () => {
    state.hung++; // the response stays open and silent
  });
  return {
    url: node.url,
    get hung() {
      return state.hung;
    },
    close: node.close,
  };
}

let world: MailWorld;
const daemons: { url: string; close(): Promise<void> }[] = [];
beforeAll(async () => {
  world = await startMailWorld({ domains: [big, ...small], replyDelayMs: 3 });
  for (const ip of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) {
    daemons.push(await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fleetProbeOptions(world), sourceIps: [ip], maxConnectionsPerIp: 2, maxRcptsPerSession: 10 } }));
  }
});
afterAll(async () => {
  await Promise.all(daemons.map((d) => d.close()));
  await world?.stop();
});

describe('ProbeClient with a node that hangs mid-stream', () => {
  it('cuts the silent stream after the idle timeout and redoes only what the node owed on the live nodes: every address once', { timeout: 30_000 }, async () => {
    const hungNode = await startHungNode(daemons[2]!.url);
    try {
      const client = new ProbeClient({ urls: [daemons[0]!.url, daemons[1]!.url, hungNode.url], token: TOKEN, retry: { cooldownMs: 60_000 }, fleet: { idleTimeoutMs: 1_500, splitMin: 30 } });
      const results = await collect(client.verify(world.emails, { depth: 'smtp', mode: 'bulk' }));

      expect(hungNode.hung).toBeGreaterThan(0);
      expect(client.stats.idleTimeouts).toBeGreaterThan(0);
      expect(results).toHaveLength(world.emails.length);
      expect(new Set(results.map((r) => r.email)).size).toBe(world.emails.length);
      expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));
      // What the hung node answered before it stopped was kept; only the rest was planned again.
      const fromHung = client.stats.answered[hungNode.url] ?? 0;
      expect(fromHung).toBeGreaterThan(0);
      expect(client.stats.replanned).toBeGreaterThan(0);
      expect(client.stats.replanned + fromHung).toBeLessThanOrEqual(world.emails.length);
      // Within the cooldown the hung node gets no new work: a second job runs on the other two only.
      const before = client.stats.requests[hungNode.url];
      const again = await collect(client.verify(world.emails.slice(0, 8), { depth: 'smtp', mode: 'bulk' }));
      expect(again).toHaveLength(8);
      expect(client.stats.requests[hungNode.url]).toBe(before);
    } finally {
      await hungNode.close();
    }
  });
});
