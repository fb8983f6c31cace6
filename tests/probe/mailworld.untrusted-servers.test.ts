// Mail servers whose answers cannot be taken at face value. Each is a mail-world host with ground
// truth; the verdict must be that truth, or unknown with a reason where the server's answers cannot
// be trusted: never a confident valid, never a false invalid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { SmtpTestClient } from '../mailworld/smtp-test-client';
import { expectedOutcome, fastProbeOptions, outcome } from './mailworld-helpers';

const domains: DomainSpec[] = [
  {
    domain: 'hidden-tls.mailworld.test',
    scenario: 'demands STARTTLS before MAIL (530 5.7.0) without offering it in EHLO',
    mx: [{ host: 'mx.hidden-tls.mailworld.test', priority: 10, ip: '127.68.1.1', server: { requireTls: true, hiddenStarttls: true } }],
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'ghost'],
  },
];

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 2 });
});
afterAll(async () => {
  await world?.stop();
});

async function verifyAll(emails: string[]) {
  const verifier = createVerifier(fastProbeOptions(world));
  try {
    return await Promise.all(emails.map((e) => verifier.verify(e, { depth: 'smtp', mode: 'realtime' })));
  } finally {
    await verifier.close();
  }
}

const of = (domain: string): string[] => world.emails.filter((e) => e.endsWith(`@${domain}`));

describe('a server that demands STARTTLS without advertising it', () => {
  it('answers MAIL 530 5.7.0 in plain text while its EHLO lists no STARTTLS (the world itself)', async () => {
    const c = await SmtpTestClient.connect('127.68.1.1', world.smtpPort);
    try {
      expect((await c.read())?.code).toBe(220);
      const ehlo = await c.cmd('EHLO probe.test');
      expect(ehlo?.lines.join('\n')).not.toMatch(/STARTTLS/);
      expect(await c.cmd('MAIL FROM:<a@probe.test>')).toMatchObject({ code: 530 });
    } finally {
      c.close();
    }
  });

  // RFC 3207 section 4: a server that requires TLS answers other commands "530 5.7.0 Must issue a
  // STARTTLS command first"; that names the command to send, as real MTAs read it (they try STARTTLS
  // whatever EHLO listed). The refusal is about our plain-text session, never a policy verdict on us.
  it('is asked again after STARTTLS, sent although not offered, and every mailbox gets its real answer, not unknown/policy_block', { timeout: 30_000 }, async () => {
    const emails = of('hidden-tls.mailworld.test');
    expect(outcome(await verifyAll(emails))).toEqual(expectedOutcome(world, emails));
    expect(world.truth.get('ghost@hidden-tls.mailworld.test')).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
  });
});
