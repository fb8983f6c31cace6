// A mail world host that hangs up at an unknown recipient (an anti-harvesting drop: no reply, the
// connection closed) instead of refusing it. The world's ground truth: the existing mailboxes are
// deliverable wherever they stand among the unknown ones, the unknown ones unknown/smtp_unreachable
// (the server never said anything about them), never invalid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { SmtpTestClient } from '../mailworld/smtp-test-client';
import { expectedOutcome, fastProbeOptions, outcome } from './mailworld-helpers';

const domains: DomainSpec[] = [
  {
    domain: 'hang-up.mailworld.test',
    scenario: 'hangs up at an unknown recipient',
    mx: [{ host: 'mx.hang-up.mailworld.test', priority: 10, ip: '127.66.1.1', server: { hangUpAtUnknown: true } }],
    mailboxes: { alice: 'ok', bob: 'ok', carol: 'ok' },
    // Unknown ones before, between and after the existing ones, as a list arrives.
    addresses: ['ghost1', 'ghost2', 'alice', 'ghost3', 'bob', 'ghost4', 'carol'],
  },
  {
    // The same primary, with a backup MX: the primary greeted and answered the others, so what it would
    // not say about a recipient is not asked of a less-preferred server (which may refuse what it cannot
    // check: "User unknown in relay recipient table"); the first server that greets decides.
    domain: 'hang-up-backup.mailworld.test',
    scenario: 'hangs up at an unknown recipient, backup MX behind it',
    mx: [
      { host: 'mx1.hang-up-backup.mailworld.test', priority: 10, ip: '127.66.2.1', server: { hangUpAtUnknown: true } },
      { host: 'mx2.hang-up-backup.mailworld.test', priority: 20, ip: '127.66.2.2' },
    ],
    mailboxes: { alice: 'ok', bob: 'ok' },
    addresses: ['ghost1', 'alice', 'ghost2', 'bob'],
  },
];

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 2 });
});
afterAll(async () => {
  await world?.stop();
});

describe('a host that hangs up at an unknown recipient', () => {
  it('answers the recipients before it, then closes without a reply (the world itself)', async () => {
    const c = await SmtpTestClient.connect('127.66.1.1', world.smtpPort);
    try {
      expect((await c.read())?.code).toBe(220);
      await c.cmd('EHLO probe.test');
      await c.cmd('MAIL FROM:<a@probe.test>');
      expect((await c.cmd('RCPT TO:<alice@hang-up.mailworld.test>'))?.code).toBe(250);
      expect(await c.cmd('RCPT TO:<ghost@hang-up.mailworld.test>')).toBeNull();
    } finally {
      c.close();
    }
  });

  it('every verdict is the ground truth: the existing mailboxes deliverable, the unknown ones never invalid', { timeout: 30_000 }, async () => {
    const verifier = createVerifier(fastProbeOptions(world));
    const results: VerificationResult[] = [];
    try {
      for await (const r of verifier.verifyBatch(world.emails, { depth: 'smtp', mode: 'bulk' })) results.push(r);
    } finally {
      await verifier.close();
    }
    expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));
    expect(world.truth.get('alice@hang-up.mailworld.test')?.verdict).toBe('deliverable');
    expect(world.truth.get('ghost1@hang-up.mailworld.test')).toMatchObject({ verdict: 'unknown', reason: 'smtp_unreachable' });
  });

  it('a backup MX is not asked about a recipient the primary, alive, hung up on: unknown, never invalid', { timeout: 30_000 }, async () => {
    const verifier = createVerifier(fastProbeOptions(world));
    const results: VerificationResult[] = [];
    const emails = world.emails.filter((e) => e.endsWith('@hang-up-backup.mailworld.test'));
    try {
      for await (const r of verifier.verifyBatch(emails, { depth: 'smtp', mode: 'bulk' })) results.push(r);
    } finally {
      await verifier.close();
    }
    expect(outcome(results)).toEqual(expectedOutcome(world, emails));
    expect(outcome(results)['ghost1@hang-up-backup.mailworld.test']).toBe('unknown/smtp_unreachable');
  });
});
