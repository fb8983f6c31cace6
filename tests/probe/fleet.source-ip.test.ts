// Node identity: each probe node speaks from its own source address (PROBE_SOURCE_IP) and holds
// the politeness caps per (source IP, MX IP) — what a receiver counts. Two nodes on one shared MX
// each stay within their own cap, while together they use both caps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProbeDaemon } from '../../probe/daemon/server';
import { createVerifier } from '../../probe/index';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { expectedOutcome, fastProbeOptions, outcome } from './mailworld-helpers';

const MX_IP = '127.91.0.1';
const shared: DomainSpec = {
  domain: 'shared-mx.test',
  scenario: 'one domain on one MX IP, asked by two nodes',
  mx: [{ host: 'mx.shared-mx.test', priority: 10, ip: MX_IP, server: { maxRcptsPerSession: 100 } }],
  mailboxes: {},
  addresses: [],
};
for (let i = 0; i < 120; i++) {
  shared.addresses.push(`p${i}`);
  if (i % 3 !== 0 && shared.mailboxes) shared.mailboxes[`p${i}`] = 'ok';
}

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({ domains: [shared], replyDelayMs: 5 });
});
afterAll(async () => {
  await world?.stop();
});

async function run(sourceIp: string, emails: string[]): Promise<VerificationResult[]> {
  const verifier = createVerifier({ ...fastProbeOptions(world), sourceIps: [sourceIp], maxConnectionsPerIp: 2, maxRcptsPerSession: 5 });
  const out: VerificationResult[] = [];
  try {
    for await (const r of verifier.verifyBatch(emails, { depth: 'smtp', mode: 'bulk' })) out.push(r);
  } finally {
    await verifier.close();
  }
  return out;
}

describe('probe node identity (PROBE_SOURCE_IP)', () => {
  it('binds each node to its source address and holds the connection cap per (source IP, MX IP)', { timeout: 30_000 }, async () => {
    world.resetCounters();
    const half = world.emails.length / 2;
    const [a, b] = await Promise.all([run('127.0.0.2', world.emails.slice(0, half)), run('127.0.0.3', world.emails.slice(half))]);
    const results = [...a, ...b];
    expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));

    const host = world.counters.perIp.get(MX_IP);
    const clients = Object.fromEntries([...(host?.byClient ?? [])].map(([ip, c]) => [ip, c.maxConcurrent]));
    // The server saw exactly the two source addresses, each at most (and, with 60 addresses in
    // sessions of 5, exactly) 2 connections at once; together they had more than one node's cap open.
    expect(clients).toEqual({ '127.0.0.2': 2, '127.0.0.3': 2 });
    expect(host?.maxConcurrent).toBeGreaterThan(2);
    expect(host?.maxConcurrent).toBeLessThanOrEqual(4);
    expect(world.counters.maxRcptsPerSession).toBeLessThanOrEqual(5);
  });

  it('refuses to start a daemon whose PROBE_SOURCE_IP is not an address of this machine', async () => {
    await expect(startProbeDaemon({ port: 0, host: '127.0.0.1', token: 't', probe: { sourceIps: ['192.0.2.1'] } })).rejects.toThrow(/PROBE_SOURCE_IP 192.0.2.1 cannot be used on this machine \(EADDRNOTAVAIL\)/);
  });
});
