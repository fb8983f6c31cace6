// Politeness caps hold on a batch of hundreds of addresses: the simulated servers' own counters
// never see more concurrent connections per MX IP, or more RCPTs per session, than configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import type { VerificationResult } from '../../probe/contract';
import { generateBulkDomains, startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { expectedOutcome, falseUndeliverable, fastProbeOptions, outcome } from './mailworld-helpers';

// One big single-MX domain (where the caps bite hardest) plus a skewed mix of 40 domains.
const oneMx: DomainSpec = {
  domain: 'one-mx.test',
  scenario: 'one big domain on one MX IP',
  mx: [{ host: 'mx.one-mx.test', priority: 10, ip: '127.90.0.1' }],
  mailboxes: {},
  addresses: [],
};
for (let i = 0; i < 260; i++) {
  const local = `person${i}`;
  oneMx.addresses.push(local);
  if (i % 4 !== 0 && oneMx.mailboxes) oneMx.mailboxes[local] = 'ok';
}
const domains = [oneMx, ...generateBulkDomains({ domains: 40, addresses: 300, seed: 3, greylistMs: 300, tarpitMs: 200 })];

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 5 });
});
afterAll(async () => {
  await world?.stop();
});

async function runBatch(caps: { maxConnectionsPerIp?: number; maxRcptsPerSession?: number }): Promise<VerificationResult[]> {
  world.resetCounters();
  world.resetGreylist();
  // A generous DNS timeout: this test is about the caps, and a 400 ms lookup budget is not always
  // met on a loaded 2-core machine (every domain then answers dns_error).
  const verifier = createVerifier({ ...fastProbeOptions(world), dnsTimeoutMs: 3000, ...caps, globalConcurrency: 64 });
  const results: VerificationResult[] = [];
  try {
    for await (const r of verifier.verifyBatch(world.emails, { depth: 'smtp', mode: 'bulk' })) results.push(r);
  } finally {
    await verifier.close();
  }
  return results;
}

describe('politeness on a batch of hundreds of addresses', () => {
  it('never exceeds 3 connections per MX IP or 7 RCPTs per session when so configured', { timeout: 60_000 }, async () => {
    const results = await runBatch({ maxConnectionsPerIp: 3, maxRcptsPerSession: 7 });
    expect(results).toHaveLength(world.emails.length);
    expect(new Set(results.map((r) => r.email)).size).toBe(world.emails.length);
    expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));
    expect(falseUndeliverable(world, results)).toEqual([]);
    const perIp = [...world.counters.perIp.values()];
    expect(perIp.filter((h) => h.maxConcurrent > 3).map((h) => `${h.ip}: ${h.maxConcurrent}`)).toEqual([]);
    expect(perIp.filter((h) => h.maxRcptsPerSession > 7).map((h) => `${h.ip}: ${h.maxRcptsPerSession}`)).toEqual([]);
    expect(world.counters.maxConcurrentPerIp).toBeLessThanOrEqual(3);
    expect(world.counters.maxRcptsPerSession).toBeLessThanOrEqual(7);
    expect(world.counters.violations).toEqual([]);
  });

  it('keeps the defaults (5 connections per MX IP, 20 RCPTs per session) and batches recipients', { timeout: 60_000 }, async () => {
    const results = await runBatch({});
    expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));
    expect(world.counters.maxConcurrentPerIp).toBeLessThanOrEqual(5);
    expect(world.counters.maxRcptsPerSession).toBeLessThanOrEqual(20);
    // Several recipients share a session: far fewer connections than addresses.
    expect(world.counters.perIp.get('127.90.0.1')?.connections).toBeLessThanOrEqual(Math.ceil(260 / 5));
    // One RCPT per address plus one random-mailbox RCPT for the domain's catch-all test.
    expect(world.counters.perIp.get('127.90.0.1')?.rcpts).toBe(261);
  });
});
