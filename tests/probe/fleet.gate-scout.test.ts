// A split domain's random mailbox is asked once, by its home node; the other nodes wait at its gate.
// The gate opens on the home node's answer for its scout (the first address it looks up) or on the
// first answer carrying catch-all. Neither a copy of the scout answered by another node, nor a
// syntax-invalid address the home node answers at once, may open it early: the other nodes would
// hear "nothing learnt" and ask a random mailbox of their own. The home node starts late here (its
// requests are held 800 ms by a relay) so that the other node is well under way by then.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { probeOrder } from '../../probe/client/pick-probe';
import type { VerificationResult } from '../../probe/contract';
import { startProbeDaemon } from '../../probe/daemon/server';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { collect, listenLocal } from './fake-nodes';
import { expectedOutcome, fleetProbeOptions, outcome } from './mailworld-helpers';

const TOKEN = 'gate-token';
// One domain per test: a daemon remembers a domain's catch-all answer from an earlier test.
function bigDomain(domain: string, ip: string): DomainSpec {
  const d: DomainSpec = { domain, scenario: 'big provider', mx: [{ host: `mx.${domain}`, priority: 10, ip, server: { maxRcptsPerSession: 100 } }], mailboxes: {}, addresses: [] };
  for (let i = 0; i < 200; i++) {
    d.addresses.push(`user${i}`);
    if (i % 4 !== 3) d.mailboxes![`user${i}`] = 'ok';
  }
  return d;
}
const CONTROL = { domain: 'gatecontrol.test', ip: '127.93.0.1' };
const DUP = { domain: 'gatedup.test', ip: '127.93.0.2' };
const BADSCOUT = { domain: 'gatebad.test', ip: '127.93.0.3' };

/** A pass-through relay in front of a daemon that holds each /v1/verify request `delayMs` before passing it on. */
async function startDelayRelay(upstream: string): Promise<{ url: string; delayMs: number; close(): Promise<void> }> {
  const relay = { url: '', delayMs: 0, close: async () => undefined as void };
  const local = await listenLocal((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.url === '/v1/verify') await new Promise((r) => setTimeout(r, relay.delayMs));
        const up = await fetch(`${upstream}${req.url}`, { method: req.method, headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' }, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
        res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
        res.flushHeaders();
        if (up.body) for await (const c of up.body) res.write(c);
        res.end();
      })().catch(() => res.destroy());
    });
  });
  relay.url = local.url;
  relay.close = local.close;
  return relay;
}

let world: MailWorld;
const daemons: { url: string; close(): Promise<void> }[] = [];
const relays: Awaited<ReturnType<typeof startDelayRelay>>[] = [];
beforeAll(async () => {
  world = await startMailWorld({ domains: [bigDomain(CONTROL.domain, CONTROL.ip), bigDomain(DUP.domain, DUP.ip), bigDomain(BADSCOUT.domain, BADSCOUT.ip)], replyDelayMs: 3 });
  for (const ip of ['127.0.0.2', '127.0.0.3']) {
    const d = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fleetProbeOptions(world), sourceIps: [ip], maxConnectionsPerIp: 2, maxRcptsPerSession: 10 } });
    daemons.push(d);
    relays.push(await startDelayRelay(d.url));
  }
});
afterAll(async () => {
  await Promise.all(relays.map((r) => r.close()));
  await Promise.all(daemons.map((d) => d.close()));
  await world?.stop();
});

async function run(d: { domain: string; ip: string }, emails: string[]): Promise<{ results: VerificationResult[]; rcpts: number; randoms: number }> {
  world.resetCounters();
  const urls = relays.map((r) => r.url);
  const home = probeOrder(d.domain, urls)[0]!;
  for (const r of relays) r.delayMs = r.url === home ? 800 : 0; // the home node starts late
  const client = new ProbeClient({ urls, token: TOKEN, fleet: { catchAllWaitMs: 5_000 } });
  const results = await collect(client.verify(emails, { depth: 'smtp', mode: 'bulk' }));
  // Random mailboxes asked for the domain, as the results' replies name them.
  const randoms = new Set(results.flatMap((r) => r.evidence.replies.filter((x) => x.stage === 'rcpt_random').map((x) => x.text)));
  return { results, rcpts: world.counters.perIp.get(d.ip)?.rcpts ?? 0, randoms: randoms.size };
}

describe("a split domain's gate", () => {
  // The list starts with a mailbox that does not exist (user3): it is the home share's scout.
  function listOf(domain: string): string[] {
    const all = Array.from({ length: 200 }, (_, i) => `user${i}@${domain}`);
    return [all[3]!, ...all.filter((_, i) => i !== 3)];
  }

  it('asks the random mailbox once (200 RCPTs + 1)', { timeout: 30_000 }, async () => {
    const { results, rcpts, randoms } = await run(CONTROL, listOf(CONTROL.domain));
    expect(results).toHaveLength(200);
    expect(randoms).toBe(1);
    expect(rcpts).toBe(200 + 1);
  });

  it('with the scout listed again in the other node\'s share, the random mailbox is still asked once (201 RCPTs + 1)', { timeout: 30_000 }, async () => {
    // 201 addresses over two nodes: shares of 101 (list[0..100]) and 100 (list[101..200]).
    // The scout (user3) is listed again as the first address of the second share.
    const base = listOf(DUP.domain);
    const emails = [...base.slice(0, 101), base[0]!, ...base.slice(101)];
    expect(emails).toHaveLength(201);
    const { results, rcpts, randoms } = await run(DUP, emails);
    expect(results).toHaveLength(201);
    expect(outcome(results)).toEqual(expectedOutcome(world, emails));
    // One random mailbox for the domain; each listed address once per listing (the duplicate is
    // on another node: asked twice) plus that one random-mailbox RCPT.
    expect(randoms).toBe(1);
    expect(rcpts).toBe(201 + 1);
  });

  it('with a syntax-invalid address of the domain first in the list (the scout), the random mailbox is still asked once', { timeout: 30_000 }, async () => {
    const emails = ['not valid@' + BADSCOUT.domain, ...listOf(BADSCOUT.domain)];
    const { results, rcpts, randoms } = await run(BADSCOUT, emails);
    expect(results).toHaveLength(201);
    expect(randoms).toBe(1);
    expect(rcpts).toBe(200 + 1);
  });
});
