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
});
