// Mail servers whose answers cannot be taken at face value. Each is a mail-world host with ground
// truth; the verdict must be that truth, or unknown with a reason where the server's answers cannot
// be trusted: never a confident valid, never a false invalid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { SmtpTestClient, type Reply } from '../mailworld/smtp-test-client';
import { expectedOutcome, fastProbeOptions, outcome } from './mailworld-helpers';

const domains: DomainSpec[] = [
  {
    domain: 'hidden-tls.mailworld.test',
    scenario: 'demands STARTTLS before MAIL (530 5.7.0) without offering it in EHLO',
    mx: [{ host: 'mx.hidden-tls.mailworld.test', priority: 10, ip: '127.68.1.1', server: { requireTls: true, hiddenStarttls: true } }],
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'ghost'],
  },
  {
    domain: 'drop-rcpt.mailworld.test',
    scenario: 'drops every RCPT silently, answers QUIT 250',
    mx: [{ host: 'mx.drop-rcpt.mailworld.test', priority: 10, ip: '127.68.2.1', server: { dropRcpts: true } }],
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'ghost'],
  },
  {
    domain: 'early-answers.mailworld.test',
    scenario: 'answers pipelined RCPTs with a bare 250 Ok before MAIL\'s reply, then again for real',
    mx: [{ host: 'mx.early-answers.mailworld.test', priority: 10, ip: '127.68.3.1', server: { prematureRcptAnswers: true } }],
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

/** A raw session with the host at `ip`, greeted and past EHLO (its reply given), closed after `use`. */
async function rawSession(ip: string, use: (c: SmtpTestClient, ehlo: Reply | null) => Promise<void>): Promise<void> {
  const c = await SmtpTestClient.connect(ip, world.smtpPort);
  try {
    expect((await c.read())?.code).toBe(220);
    await use(c, await c.cmd('EHLO probe.test'));
  } finally {
    c.close();
  }
}

const of = (domain: string): string[] => world.emails.filter((e) => e.endsWith(`@${domain}`));

describe('a server that demands STARTTLS without advertising it', () => {
  it('answers MAIL 530 5.7.0 in plain text while its EHLO lists no STARTTLS (the world itself)', async () => {
    await rawSession('127.68.1.1', async (c, ehlo) => {
      expect(ehlo?.lines.join('\n')).not.toMatch(/STARTTLS/);
      expect(await c.cmd('MAIL FROM:<a@probe.test>')).toMatchObject({ code: 530 });
    });
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

describe('a server that drops RCPT commands silently and answers QUIT 250', () => {
  it('never answers a RCPT, and says 250 to QUIT before closing (the world itself)', async () => {
    await rawSession('127.68.2.1', async (c) => {
      expect((await c.cmd('MAIL FROM:<a@probe.test>'))?.code).toBe(250);
      expect(await c.cmd('RCPT TO:<alice@drop-rcpt.mailworld.test>', 300)).toBeNull();
      expect(await c.cmd('QUIT')).toMatchObject({ code: 250 });
    });
  });

  // RFC 2920 section 3.1 and RFC 5321 4.1.1.10: every pipelined command gets one reply, in order, and
  // QUIT's is 221. Here the group's one reply after MAIL's is QUIT's "250 Bye": read in order it
  // would be the first recipient's "accepted". Fewer replies than commands before the close cannot be
  // matched to them: the recipients are asked one at a time, where no RCPT is ever answered.
  it('no recipient is "accepted" on the strength of QUIT\'s reply: every address is unknown/smtp_unreachable, never deliverable', { timeout: 30_000 }, async () => {
    const emails = of('drop-rcpt.mailworld.test');
    const results = await verifyAll(emails);
    expect(outcome(results)).toEqual(expectedOutcome(world, emails));
    expect(world.truth.get('alice@drop-rcpt.mailworld.test')).toMatchObject({ verdict: 'unknown', reason: 'smtp_unreachable' });
  });
});

describe('a pipelining server that answers RCPTs before MAIL\'s reply', () => {
  it('answers the pipelined RCPTs "250 Ok" ahead of MAIL\'s reply, then again for real (the world itself)', async () => {
    await rawSession('127.68.3.1', async (c) => {
      c.write('MAIL FROM:<a@probe.test>\r\nRCPT TO:<ghost@early-answers.mailworld.test>');
      const replies = [await c.read(), await c.read(), await c.read()].map((r) => r?.lines.join(' '));
      expect(replies).toEqual(['250 Ok', '250 2.1.0 Ok', expect.stringMatching(/^550 5\.1\.1/)]);
    });
  });

  // RFC 2920 section 3.1: replies come in the order of the commands, one each, and the client matches
  // them by order. Here MAIL's slot gets a recipient's early "250 Ok", each recipient the reply
  // meant for the one before, and the real answers come after: one reply per command cannot hold, so
  // no answer of the group is believed; asked one command at a time, each reply is its command's.
  it('the replies shifted onto the wrong recipients are not believed: every address gets its ground truth, never a false "accepted"', { timeout: 30_000 }, async () => {
    const emails = of('early-answers.mailworld.test');
    expect(outcome(await verifyAll(emails))).toEqual(expectedOutcome(world, emails));
    expect(world.truth.get('ghost@early-answers.mailworld.test')).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
  });
});
