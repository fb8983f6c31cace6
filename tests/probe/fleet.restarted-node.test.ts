// A node taken for stalled (its stream alive with keep-alives, no result for the stall bound) is
// skipped by later calls for as long as it kept the call waiting: up to 15 minutes for a bulk job. An
// operator who restarts it (a new process at the same URL: its /healthz names a new node id) expects
// it back once the usual cooldown has passed, not a quarter of an hour later; the same process, still
// stalled, stays skipped.
// The node is a relay in front of a real daemon: "stalled" it sends only blank lines; "restarted" it
// passes the daemon's stream on whole, and answers /healthz with a new id.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { probeOrder } from '../../probe/client/pick-probe';
import { ProbeClient } from '../../probe/client/probe-client';
import { sleep } from '../../probe/misc/sleep';
import type { DomainSpec } from '../mailworld/index';
import { collect, listenLocal, type LocalServer } from './fake-nodes';
import { expectedOutcome, outcome, worldWithTwoDaemons } from './mailworld-helpers';

const TOKEN = 'restarted-token';

const domains: DomainSpec[] = Array.from({ length: 10 }, (_, i) => ({
  domain: `d${i}.restart.test`,
  scenario: 'small',
  mx: [{ host: `mx.d${i}.restart.test`, priority: 10, ip: `127.93.2.${i + 1}` }],
  mailboxes: { a: 'ok', b: 'ok' },
  addresses: ['a', 'b', 'c'],
}));

interface SwitchableNode extends LocalServer {
  /** The node's process: its /healthz id, and whether its engine is stuck. */
  state: { id: string; stalled: boolean };
}

async function startSwitchableNode(upstream: string): Promise<SwitchableNode> {
  const state = { id: 'node-first-process', stalled: true };
  const beats = new Set<NodeJS.Timeout>();
  const local = await listenLocal((req, res) => {
    if (req.url === '/healthz') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, node: state.id }));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.flushHeaders();
      if (state.stalled) {
        const beat = setInterval(() => res.write('\n'), 50);
        beats.add(beat);
        res.on('close', () => clearInterval(beat));
        return;
      }
      const up = http.request(`${upstream}/v1/verify`, { method: 'POST', headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' } }, (upRes) => upRes.pipe(res));
      up.on('error', () => res.destroy());
      res.on('close', () => up.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  return {
    ...local,
    state,
    async close() {
      for (const b of beats) clearInterval(b);
      await local.close();
    },
  };
}

const fleet = worldWithTwoDaemons(domains, TOKEN);

describe('ProbeClient with a node that stalled and is then restarted', () => {
  it('uses the restarted node again after the cooldown (its /healthz names a new node id), while the same stalled process stays skipped', { timeout: 40_000 }, async () => {
    const node = await startSwitchableNode(fleet.daemons[1]!.url);
    try {
      const urls = [fleet.daemons[0]!.url, node.url];
      expect(domains.filter((d) => probeOrder(d.domain, urls)[0] === node.url).length).toBeGreaterThan(0);
      // A long stall bound next to a short cooldown and health TTL: the stalled node's skip outlasts both.
      const client = new ProbeClient({ urls, token: TOKEN, retry: { backoffMs: 10, cooldownMs: 100 }, fleet: { idleTimeoutMs: 1_000, healthTtlMs: 100, stallTimeoutMs: { bulk: 4_000 } } });
      const verifyAll = async (): Promise<void> => {
        const results = await collect(client.verify(fleet.world.emails, { depth: 'smtp', mode: 'bulk' }));
        expect(results).toHaveLength(fleet.world.emails.length);
        expect(outcome(results)).toEqual(expectedOutcome(fleet.world, fleet.world.emails));
      };

      await verifyAll();
      expect(client.stats.stalls).toBeGreaterThan(0);
      const afterStall = client.stats.requests[node.url] ?? 0;

      // The same process, still stuck: skipped (no request), past the cooldown.
      await sleep(300);
      await verifyAll();
      expect(client.stats.requests[node.url] ?? 0).toBe(afterStall);

      // Restarted: a new process at the same URL is used again once the cooldown has passed.
      node.state.id = 'node-second-process';
      node.state.stalled = false;
      await sleep(300);
      const stallsBefore = client.stats.stalls;
      await verifyAll();
      expect(client.stats.requests[node.url] ?? 0).toBeGreaterThan(afterStall);
      expect(client.stats.answered[node.url] ?? 0).toBeGreaterThan(0);
      expect(client.stats.stalls).toBe(stallsBefore);
    } finally {
      await node.close();
    }
  });
});
