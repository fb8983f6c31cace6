// The probe daemon and its client on the simulated mail internet: POST /v1/verify streams one
// NDJSON result per address as each finishes, and ProbeClient yields them as they arrive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { verificationResultSchema, type VerificationResult } from '../../probe/contract';
import { startProbeDaemon } from '../../probe/daemon/server';
import { buildScenarios, startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { expectedOutcome, fastProbeOptions, freePort, outcome } from './mailworld-helpers';

const TOKEN = 'mailworld-daemon-test-token';
const picked = new Set(['normal', 'catch-all', 'mailbox-states', 'nxdomain', 'silent', 'tarpit', 'policy-block', 'dead-primary']);
const domains = buildScenarios({ tarpitMs: 200 }).filter((d) => picked.has(d.domain.split('.')[0] ?? ''));

let world: MailWorld;
let daemon: { url: string; close(): Promise<void> };

beforeAll(async () => {
  world = await startMailWorld({ domains });
  daemon = await startProbeDaemon({ port: await freePort(), token: TOKEN, probe: fastProbeOptions(world) });
});
afterAll(async () => {
  await daemon?.close();
  await world?.stop();
});

describe('probe daemon + ProbeClient on the mail world', () => {
  it('streams one valid result per address, each as it finishes, matching the ground truth', { timeout: 20_000 }, async () => {
    const client = new ProbeClient({ urls: [daemon.url], token: TOKEN });
    const started = Date.now();
    const results: VerificationResult[] = [];
    const arrival = new Map<string, number>();
    for await (const r of client.verify(world.emails, { depth: 'smtp', mode: 'realtime' })) {
      results.push(verificationResultSchema.parse(r));
      arrival.set(r.email, Date.now() - started);
    }
    expect(results).toHaveLength(world.emails.length);
    expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));
    // Streaming: the silent server costs a banner timeout (1200 ms); quick answers must not wait for it.
    const silentAt = arrival.get('alice@silent.mailworld.test') ?? 0;
    for (const quick of ['alice@normal.mailworld.test', 'ghost@normal.mailworld.test', 'alice@nxdomain.mailworld.test']) {
      expect(arrival.get(quick) ?? Infinity, quick).toBeLessThan(silentAt - 500);
    }
  });

  it('answers NDJSON over plain HTTP and refuses a missing token or a bad body', async () => {
    const url = `${daemon.url.replace(/\/$/, '')}/v1/verify`;
    const emails = ['alice@normal.mailworld.test', 'ghost@normal.mailworld.test', 'x@nxdomain.mailworld.test'];
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ emails, depth: 'smtp' }),
    });
    expect(res.status).toBe(200);
    const lines = (await res.text()).split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(3);
    const parsed = lines.map((l) => verificationResultSchema.parse(JSON.parse(l)));
    expect(new Set(parsed.map((r) => r.email))).toEqual(new Set(emails));

    const noToken = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ emails }) });
    expect(noToken.status).toBe(401);
    const bad = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ emails: [] }),
    });
    expect(bad.status).toBe(400);
  });

  it('stops connecting to mail servers soon after the client goes away', { timeout: 20_000 }, async () => {
    // A slow world: 300 addresses on one MX that takes 2 RCPTs per session and answers in 40 ms.
    const big: DomainSpec = {
      domain: 'slow-big.test',
      scenario: 'slow big domain',
      mx: [{ host: 'mx.slow-big.test', priority: 10, ip: '127.91.0.1', server: { maxRcptsPerSession: 2 } }],
      mailboxes: {},
      addresses: Array.from({ length: 300 }, (_, i) => `u${i}`),
    };
    const slow = await startMailWorld({ domains: [big], replyDelayMs: 40 });
    const d = await startProbeDaemon({ port: await freePort(), token: TOKEN, probe: fastProbeOptions(slow) });
    try {
      const client = new ProbeClient({ urls: [d.url], token: TOKEN });
      let seen = 0;
      for await (const r of client.verify(slow.emails, { depth: 'smtp', mode: 'bulk' })) {
        expect(r.verdict).toBe('undeliverable');
        if (++seen >= 4) break; // the client goes away
      }
      await new Promise((r) => setTimeout(r, 300));
      const atCancel = slow.counters.connections;
      await new Promise((r) => setTimeout(r, 1500));
      // Sessions already open may finish; no new wave of connections may start.
      expect(slow.counters.connections - atCancel).toBeLessThanOrEqual(5);
      expect(slow.counters.connections).toBeLessThan(100);
    } finally {
      await d.close();
      await slow.stop();
    }
  });
});
