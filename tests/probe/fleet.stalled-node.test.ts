// A node whose engine stalls while its HTTP shell stays alive: the daemon's keep-alive blank lines
// (sent while a stream has nothing to say, so a node waiting out greylisting is not taken for hung)
// keep coming, but no result ever does. The idle timeout never fires on such a stream; the call must
// still end: ProbeClient bounds the wait for a node's next result (longer than any legitimate wait,
// e.g. the bulk greylisting deadline; shortened here), then cuts the request, leaves that node out of
// the call and plans what it still owed on the other nodes once — every address answered once, none
// lost. With no other node, the call fails saying why (not a hang, not a verdict).
// The stalling node is a real daemon behind a relay that passes on its first results, then only
// blank lines.
import { describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { probeOrder } from '../../probe/client/pick-probe';
import type { VerificationResult } from '../../probe/contract';
import { startProbeDaemon } from '../../probe/daemon/server';
import type { DomainSpec } from '../mailworld/index';
import { collect, startRelayNode } from './fake-nodes';
import { expectedOutcome, fleetProbeOptions, outcome, worldWithTwoDaemons } from './mailworld-helpers';

const TOKEN = 'stalled-token';
const RELAYED_BEFORE_STALL = 2;

const domains: DomainSpec[] = Array.from({ length: 10 }, (_, i) => ({
  domain: `d${i}.stall.test`,
  scenario: 'small',
  mx: [{ host: `mx.d${i}.stall.test`, priority: 10, ip: `127.93.1.${i + 1}` }],
  mailboxes: { a: 'ok', b: 'ok' },
  addresses: ['a', 'b', 'c', 'd'],
}));

interface StallingNode {
  url: string;
  /** Keep-alive blank lines sent after the stall. */
  readonly keepAlives: number;
  /** Verify requests whose client went away while the relay was stalling. */
  readonly cut: number;
  close(): Promise<void>;
}

/**
 * Healthy on /healthz; on /v1/verify relays the first `relay` results of a real daemon (all of them by
 * default), then only keep-alive blank lines: the stream never ends.
 */
async function startStallingNode(upstream: string, relay = Infinity): Promise<StallingNode> {
  const state = { keepAlives: 0, cut: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const node = await startRelayNode(upstream, relay, (res) => {
    // The engine is stuck; the shell still says it is alive, as the daemon's heartbeat does.
    const beat = setInterval(() => {
      if (res.destroyed) return;
      state.keepAlives++;
      res.write('\n');
    }, 50);
    timers.add(beat);
    res.on('close', () => {
      state.cut++;
      clearInterval(beat);
      timers.delete(beat);
    });
  });
  return {
    url: node.url,
    get keepAlives() {
      return state.keepAlives;
    },
    get cut() {
      return state.cut;
    },
    async close() {
      for (const t of timers) clearInterval(t);
      await node.close();
    },
  };
}

const fleet = worldWithTwoDaemons(domains, TOKEN);

describe('ProbeClient with a node whose engine stalls while its stream sends keep-alives', () => {
  it('gives up on that node after the result wait bound and redoes what it still owed on the other node, once: every address once, with its real verdict', { timeout: 30_000 }, async () => {
    const stalling = await startStallingNode(fleet.daemons[1]!.url, RELAYED_BEFORE_STALL);
    try {
      const urls = [fleet.daemons[0]!.url, stalling.url];
      // The stalling node is home to several domains (so it owes work after its first results).
      expect(domains.filter((d) => probeOrder(d.domain, urls)[0] === stalling.url).length).toBeGreaterThan(1);
      const client = new ProbeClient({ urls, token: TOKEN, retry: { backoffMs: 10 }, fleet: { idleTimeoutMs: 1_000, stallTimeoutMs: { bulk: 2_500 } } });
      const results = await collect(client.verify(fleet.world.emails, { depth: 'smtp', mode: 'bulk' }));

      expect(results).toHaveLength(fleet.world.emails.length);
      expect(new Set(results.map((r) => r.email)).size).toBe(fleet.world.emails.length);
      expect(outcome(results)).toEqual(expectedOutcome(fleet.world, fleet.world.emails));
      // The keep-alives kept it clear of the idle timeout; the stall bound cut it.
      expect(stalling.keepAlives).toBeGreaterThan(20);
      expect(client.stats.stalls).toBeGreaterThan(0);
      expect(stalling.cut).toBeGreaterThan(0);
      // What it answered before it stalled was kept; only the rest was planned again, on the other node.
      const fromStalled = client.stats.answered[stalling.url] ?? 0;
      expect(fromStalled).toBeGreaterThan(0);
      expect(client.stats.replanned + fromStalled).toBeLessThanOrEqual(fleet.world.emails.length);
      expect(client.stats.replanned).toBeGreaterThan(0);
      expect(client.stats.warnings.some((w) => w.includes(stalling.url) && w.includes('no result'))).toBe(true);
    } finally {
      await stalling.close();
    }
  });

  it('fails the call saying the node stalled when no other node is left (no hang, no verdict)', { timeout: 30_000 }, async () => {
    const stalling = await startStallingNode(fleet.daemons[1]!.url, RELAYED_BEFORE_STALL);
    try {
      const client = new ProbeClient({ urls: [stalling.url], token: TOKEN, retry: { backoffMs: 10 }, fleet: { idleTimeoutMs: 1_000, stallTimeoutMs: { realtime: 1_500 } } });
      const got: VerificationResult[] = [];
      const failure = await (async () => {
        for await (const r of client.verify(fleet.world.emails.slice(0, 12), { depth: 'smtp', mode: 'realtime' })) got.push(r);
      })().then(
        () => null,
        (err: unknown) => err as Error,
      );
      expect(failure?.message).toMatch(/sent no result for 1500 ms/);
      // Only what it relayed before the stall was answered, each once, with its real verdict.
      expect(got.length).toBeLessThanOrEqual(RELAYED_BEFORE_STALL);
      expect(outcome(got)).toEqual(expectedOutcome(fleet.world, got.map((r) => r.email)));
      expect(stalling.cut).toBeGreaterThan(0);
    } finally {
      await stalling.close();
    }
  });

  it('does not wait on a stream whose every address is answered but which never ends: the call completes, the node stays in use', { timeout: 30_000 }, async () => {
    const stalling = await startStallingNode(fleet.daemons[1]!.url);
    try {
      const client = new ProbeClient({ urls: [stalling.url], token: TOKEN, fleet: { idleTimeoutMs: 1_000, stallTimeoutMs: { bulk: 600_000 } } });
      const emails = fleet.world.emails.slice(0, 8);
      for (let call = 0; call < 2; call++) {
        const results = await collect(client.verify(emails, { depth: 'smtp', mode: 'bulk' }));
        expect(results.map((r) => r.email).sort()).toEqual([...emails].sort());
        expect(outcome(results)).toEqual(expectedOutcome(fleet.world, emails));
      }
      expect(client.stats.requests[stalling.url]).toBe(2);
      expect(client.stats.replanned).toBe(0);
      expect(client.stats.stalls).toBe(0);
      expect(stalling.cut).toBe(2); // each stream left once its last result was in
    } finally {
      await stalling.close();
    }
  });

  it('does not take a node that waits for room in its fleet RCPT budget window for a stalled one: the bound stretches to the window it names on /healthz', { timeout: 30_000 }, async () => {
    // Two RCPTs per MX per 2 s window: a domain of 6 addresses (and its random mailbox) comes back
    // in parts a window apart, longer apart than the stall bound this client is given.
    const windowMs = 2_000;
    const budgeted = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fleetProbeOptions(fleet.world), sourceIps: ['127.0.0.4'], mxRcptBudget: { rcpts: 2, windowMs, fleet: { budget: 2, size: 1 } } } });
    try {
      const client = new ProbeClient({ urls: [budgeted.url], token: TOKEN, retry: { backoffMs: 10 }, fleet: { stallTimeoutMs: { bulk: 1_200 } } });
      const emails = fleet.world.emails.filter((e) => e.endsWith('@d0.stall.test') || e.endsWith('@d1.stall.test')).slice(0, 6);
      expect(emails).toHaveLength(6);
      const results = await collect(client.verify(emails, { depth: 'smtp', mode: 'bulk' }));
      expect(outcome(results)).toEqual(expectedOutcome(fleet.world, emails));
      expect(client.stats.stalls).toBe(0);
      expect(client.stats.replanned).toBe(0);
    } finally {
      await budgeted.close();
    }
  });
});
