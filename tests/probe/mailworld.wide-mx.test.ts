// A domain that publishes a huge MX set at one preference (30 hosts, one address each): a check
// of one address must not open a connection to every one of them (the random mailbox used to be
// asked at every address of the best preference). Like Postfix's smtp_mx_address_limit, only the
// first addresses in preference order are used; the verdicts stay those of the ground truth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { expectedOutcome, fastProbeOptions, outcome } from './mailworld-helpers';

const wide: DomainSpec = {
  domain: 'wide-mx.test',
  scenario: '30 MX hosts at one preference',
  mx: Array.from({ length: 30 }, (_, i) => ({ host: `mx${i + 1}.a-long-mail-exchanger-name.wide-mx.test`, priority: 10, ip: `127.87.0.${i + 1}` })),
  mailboxes: { alice: 'ok' },
  addresses: ['alice', 'ghost'],
};

// A hostile (or broken) domain: 300 MX hosts at one preference, only the first two with an address.
// Each host named is an A (and then AAAA) question for the node's DNS, whose 64 slots every check shares.
const hostile: DomainSpec = {
  domain: 'hostile-mx.test',
  scenario: '300 MX hosts, two with an address',
  mx: Array.from({ length: 300 }, (_, i) => ({ host: `m${i + 1}.hostile-mx.test`, priority: 10, ...(i < 2 ? { ip: `127.87.1.${i + 1}` } : {}) })),
  mailboxes: { alice: 'ok' },
  addresses: ['alice', 'ghost'],
};

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({ domains: [wide, hostile], replyDelayMs: 0 });
});
afterAll(async () => {
  await world?.stop();
});

describe('a huge MX set at one preference', () => {
  it('one address is verified against at most 10 of its addresses, with the verdict of the ground truth', { timeout: 20_000 }, async () => {
    const verifier = createVerifier(fastProbeOptions(world));
    const results: VerificationResult[] = [];
    try {
      for (const email of ['alice@wide-mx.test', 'ghost@wide-mx.test']) results.push(await verifier.verify(email));
    } finally {
      await verifier.close();
    }
    expect(outcome(results)).toEqual(expectedOutcome(world, results.map((r) => r.email)));
    // Every MX host is still listed (what DNS says), but only the first addresses are connected to.
    expect(results[0]?.mx_hosts).toHaveLength(30);
    const contacted = [...world.counters.perIp.values()].filter((h) => h.connections > 0);
    expect(contacted.length).toBeGreaterThan(0);
    expect(contacted.length).toBeLessThanOrEqual(10);
    // Each check: at most one session per address used (the random mailbox), plus its mailbox's own.
    expect(world.counters.connections).toBeLessThanOrEqual(2 * 11);
  });
});

describe('a domain publishing hundreds of MX hosts', () => {
  it('one check asks DNS about the first 16 of them only (in preference order), not all 300, and still gets the ground truth', { timeout: 20_000 }, async () => {
    const verifier = createVerifier(fastProbeOptions(world));
    world.resetCounters();
    const results: VerificationResult[] = [];
    try {
      for (const email of ['alice@hostile-mx.test', 'ghost@hostile-mx.test']) results.push(await verifier.verify(email));
    } finally {
      await verifier.close();
    }
    expect(outcome(results)).toEqual(expectedOutcome(world, results.map((r) => r.email)));
    // One MX question, then A (and AAAA where A has none) for at most 16 hosts, plus the blocklist
    // questions about the addresses used: with every host asked about it was about 600 questions.
    expect(world.counters.dnsQueries).toBeLessThanOrEqual(1 + 2 * 16 + 4);
    // The hosts not looked up are still listed (they are what DNS says), after those with an address.
    expect(results[0]?.mx_hosts.slice(0, 3)).toEqual(['m1.hostile-mx.test', 'm2.hostile-mx.test', 'm17.hostile-mx.test']);
    expect(results[0]?.mx_hosts).toContain('m300.hostile-mx.test');
  });
});
