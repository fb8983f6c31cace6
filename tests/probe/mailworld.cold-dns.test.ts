// A resolver that has not resolved a name yet often answers SERVFAIL (its upstream was slow; it gave up
// and keeps resolving), and the same question a moment later gets the records. Such a domain is not
// unknown/dns_error for one cold answer: each of its questions is asked again, and every address gets
// its ground truth. A domain whose DNS keeps failing is still unknown/dns_error, never undeliverable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { expectedOutcome, falseUndeliverable, fastProbeOptions, outcome } from './mailworld-helpers';

const domains: DomainSpec[] = [
  {
    domain: 'cold.mailworld.test',
    scenario: 'the first MX and A questions answered SERVFAIL, then the records',
    servfailFirst: 1,
    mx: [{ host: 'mx1.cold.mailworld.test', priority: 10, ip: '127.93.1.1' }],
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'ghost'],
  },
  {
    domain: 'cold-implicit.mailworld.test',
    scenario: 'no MX, an A record; the first questions answered SERVFAIL',
    servfailFirst: 1,
    aRecords: [{ ip: '127.93.2.1' }],
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'ghost'],
  },
  {
    domain: 'cold-realtime.mailworld.test',
    scenario: 'the first MX and A questions answered SERVFAIL (asked by a real-time check alone)',
    servfailFirst: 1,
    mx: [{ host: 'mx1.cold-realtime.mailworld.test', priority: 10, ip: '127.93.3.1' }],
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'ghost'],
  },
  { domain: 'servfail.mailworld.test', scenario: 'SERVFAIL for good', dns: 'servfail', mx: [], mailboxes: {}, addresses: ['alice'] },
];

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({ domains });
});
afterAll(async () => {
  await world?.stop();
});

describe('a resolver whose first answer for a name is SERVFAIL', () => {
  it('the world itself: the first question about a name is SERVFAIL, the next one gets the records', async () => {
    const { Resolver } = await import('node:dns/promises');
    const r = new Resolver({ timeout: 500, tries: 1 });
    r.setServers([world.dnsServer]);
    await expect(r.resolveMx('cold.mailworld.test')).rejects.toMatchObject({ code: 'ESERVFAIL' });
    expect(await r.resolveMx('cold.mailworld.test')).toEqual([{ exchange: 'mx1.cold.mailworld.test', priority: 10 }]);
  });

  it('bulk: every address gets its ground truth (not unknown/dns_error), and lasting SERVFAIL is still unknown', { timeout: 30_000 }, async () => {
    const v = createVerifier(fastProbeOptions(world));
    try {
      const results = [];
      const emails = world.emails.filter((e) => !e.endsWith('@cold-realtime.mailworld.test'));
      for await (const r of v.verifyBatch(emails, { depth: 'smtp', mode: 'bulk' })) results.push(r);
      expect(falseUndeliverable(world, results)).toEqual([]);
      expect(outcome(results)).toEqual(expectedOutcome(world, emails));
      expect(outcome(results)['alice@cold.mailworld.test']).toBe('deliverable/accepted');
    } finally {
      await v.close();
    }
  });

  it('a real-time check of a cold domain is answered too', { timeout: 30_000 }, async () => {
    const v = createVerifier(fastProbeOptions(world));
    try {
      const r = await v.verify('ghost@cold-realtime.mailworld.test');
      expect(`${r.verdict}/${r.reason}`).toBe('undeliverable/mailbox_not_found');
    } finally {
      await v.close();
    }
  });
});
