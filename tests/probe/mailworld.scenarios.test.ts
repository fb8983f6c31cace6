// Every scenario of the simulated mail internet, verified through the probe library's public API:
// the verdict and reason must equal the world's ground truth (DESIGN.md's verdict table).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import type { VerificationResult } from '../../probe/contract';
import { buildScenarios, startMailWorld, type MailWorld } from '../mailworld/index';
import { expectedOutcome, fastProbeOptions, outcome } from './mailworld-helpers';

const scenarios = buildScenarios({ greylistMs: 250, tarpitMs: 300, rcptLimit: 3, connLimit: 2 });
let world: MailWorld;
let verifier: ReturnType<typeof createVerifier>;

const byEmail = new Map<string, VerificationResult>();
async function verifyAll(domain: string): Promise<VerificationResult[]> {
  const spec = scenarios.find((d) => d.domain === domain);
  if (!spec) throw new Error(`no scenario ${domain}`);
  const results = await Promise.all(
    spec.addresses.map((l) => verifier.verify(`${l}@${domain}`, { depth: 'smtp', mode: 'realtime' })),
  );
  for (const r of results) byEmail.set(r.email, r);
  return results;
}

beforeAll(async () => {
  world = await startMailWorld({ domains: scenarios });
  verifier = createVerifier(fastProbeOptions(world));
});
afterAll(async () => {
  await verifier?.close();
  await world?.stop();
});

describe.concurrent('each scenario gets the verdict and reason of its ground truth', () => {
  for (const d of scenarios) {
    it(`${d.domain}: ${d.scenario}`, { timeout: 20_000 }, async () => {
      const results = await verifyAll(d.domain);
      const emails = d.addresses.map((l) => `${l}@${d.domain}`);
      expect(outcome(results)).toEqual(expectedOutcome(world, emails));
      for (const r of results) expect(r.result).toBe(r.verdict === 'deliverable' ? 'valid' : r.verdict === 'undeliverable' ? 'invalid' : 'risky');
    });
  }
});

describe('evidence and flags behind the scenario verdicts', () => {
  const get = (email: string): VerificationResult => {
    const r = byEmail.get(email);
    if (!r) throw new Error(`${email} was not verified by the scenario tests`);
    return r;
  };

  it('an unknown mailbox is explained by the 550 5.1.1 RCPT reply from the MX that was asked', () => {
    const r = get('ghost@normal.mailworld.test');
    expect(r.evidence.mx_ip).toBe('127.77.1.1');
    expect(r.mx_hosts).toContain('mx1.normal.mailworld.test');
    expect(r.evidence.replies.some((x) => x.code === 550 && x.enhanced === '5.1.1')).toBe(true);
    expect(r.catch_all).toBe(false);
  });

  it('a role address is a flag, never a verdict', () => {
    expect(get('info@normal.mailworld.test')).toMatchObject({ verdict: 'deliverable', role: true, role_detected: true });
    expect(get('alice@normal.mailworld.test').role).toBe(false);
  });

  it('a catch-all domain is reported as catch_all', () => {
    expect(get('whoever@catch-all.mailworld.test').catch_all).toBe(true);
  });

  it('a greylisted mailbox is retried until accepted, and the retries are counted', () => {
    expect(get('alice@greylist.mailworld.test').evidence.retries).toBeGreaterThanOrEqual(1);
  });

  it('the verdict comes from the live secondary when the primary is refused or silent', () => {
    expect(get('alice@dead-primary.mailworld.test').evidence.mx_ip).toBe('127.77.12.2');
    expect(get('alice@silent-primary.mailworld.test').evidence.mx_ip).toBe('127.77.13.2');
  });

  it('a domain without MX is asked on its A record', () => {
    expect(get('alice@implicit-mx.mailworld.test').evidence.mx_ip).toBe('127.77.14.1');
  });

  it('a disposable provider is flagged disposable', () => {
    expect(get('alice@mailinator.com')).toMatchObject({ disposable: true, disposable_provider: true });
  });

  it('STARTTLS is used when offered, required or not', () => {
    expect(world.counters.perIp.get('127.77.22.1')?.tlsUpgrades).toBeGreaterThanOrEqual(1);
    expect(world.counters.perIp.get('127.77.34.1')?.tlsUpgrades).toBeGreaterThanOrEqual(1);
  });

  it('commands are pipelined to servers that offer PIPELINING', () => {
    expect(world.counters.pipelinedCommands).toBeGreaterThan(0);
  });

  it('commands are not pipelined to a server that does not offer PIPELINING', () => {
    expect(world.counters.violations.filter((v) => v.startsWith('127.77.24.1:'))).toEqual([]);
  });

  it('no verifier ever sends DATA or speaks out of turn', () => {
    expect(world.counters.violations).toEqual([]);
  });

  it('a 452 recipient limit is obeyed: further recipients go to new sessions', () => {
    const host = world.counters.perIp.get('127.77.20.1');
    expect(host?.sessions).toBeGreaterThanOrEqual(4);
  });
});

describe('addresses as users type them', () => {
  it('an IDN domain typed in Unicode is verified under its A-label', async () => {
    const r = await verifier.verify('alice@bücher.mailworld.test', { depth: 'smtp' });
    expect(`${r.verdict}/${r.reason}`).toBe('deliverable/accepted');
    expect(r.normalized).toBe('alice@xn--bcher-kva.mailworld.test');
    expect(r.email).toBe('alice@bücher.mailworld.test');
  });

  it('a mixed-case domain is the same domain', async () => {
    const r = await verifier.verify('ghost@Normal.MailWorld.TEST', { depth: 'smtp' });
    expect(`${r.verdict}/${r.reason}`).toBe('undeliverable/mailbox_not_found');
  });
});

describe('caches', () => {
  it('a second check on a domain asks DNS nothing new', async () => {
    await verifier.verify('alice@normal.mailworld.test', { depth: 'smtp' });
    const before = world.counters.dnsQueries;
    const r = await verifier.verify('bob@normal.mailworld.test', { depth: 'smtp' });
    expect(r.verdict).toBe('deliverable');
    expect(world.counters.dnsQueries).toBe(before);
  });
});

describe('depth and safety', () => {
  it('depth mx stops before SMTP and says so', async () => {
    const r = await verifier.verify('alice@normal.mailworld.test', { depth: 'mx' });
    expect(r).toMatchObject({ reason: 'smtp_not_checked', is_mx_valid: true });
    const nx = await verifier.verify('alice@nxdomain.mailworld.test', { depth: 'mx' });
    expect(`${nx.verdict}/${nx.reason}`).toBe('undeliverable/no_domain');
  });

  it('bad syntax is undeliverable without any network', async () => {
    const r = await verifier.verify('not an address', { depth: 'smtp' });
    expect(`${r.verdict}/${r.reason}`).toBe('undeliverable/syntax');
  });

  it('refuses loopback MX addresses unless private networks are allowed', async () => {
    const strict = createVerifier({ ...fastProbeOptions(world), allowPrivateNetworks: false });
    try {
      const r = await strict.verify('alice@normal.mailworld.test', { depth: 'smtp' });
      expect(`${r.verdict}/${r.reason}`).toBe('unknown/blocked_address');
    } finally {
      await strict.close();
    }
  });
});
