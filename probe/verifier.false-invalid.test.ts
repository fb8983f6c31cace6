// What a user sees from the whole engine (DNS + SMTP + verdict) behind mail servers it may never
// have met: one that sends more replies than asked for, one without SMTPUTF8, multi-line replies
// with mixed codes, refusals whose code says "no mailbox" and whose text says "blocked". An
// existing mailbox is never reported invalid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier, type ProbeOptions } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { startScriptedSmtp, type RunningServer } from './testing/fake-smtp';
import { loopbackOptions } from './testing/loopback-options';
import { lineSplitter, startLoopbackServer } from './testing/loopback-server';

let dns: FakeDns;
let smtp: RunningServer;

beforeAll(async () => {
  dns = await startFakeDns({
    'banner.test': { mx: [[10, 'mx.banner.test']] },
    'mx.banner.test': { a: ['127.0.0.1'] },
  });
  // A two-line greeting written without the "220-" continuation mark: two complete 220 replies.
  smtp = await startScriptedSmtp({
    banner: '220 mx.banner.test ESMTP\r\n220 Welcome to the Banner mail service',
    reply: (line) => {
      if (line.startsWith('EHLO')) return '250-mx.banner.test\r\n250 PIPELINING';
      if (line.startsWith('RCPT')) return /<alice@/.test(line) ? '250 2.1.5 Ok' : '550 5.1.1 User unknown';
      return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
    },
  });
});
afterAll(async () => {
  await smtp.close();
  await dns.close();
});

const opts = (o: Partial<ProbeOptions> = {}): ProbeOptions => loopbackOptions(dns.server, smtp.port, o);

describe('a server whose greeting is two complete replies', () => {
  it('an existing mailbox (250 at RCPT) is never reported invalid', async () => {
    const v = createVerifier(opts());
    try {
      const alice = await v.verify('alice@banner.test');
      expect(alice.result).not.toBe('invalid');
      expect(alice.verdict).toBe('deliverable');
    } finally {
      await v.close();
    }
  });
});

/** Verifies `email` against a scripted server of its own (DNS: the domain's MX is it). */
async function verifyAgainst(script: Parameters<typeof startScriptedSmtp>[0], email: string) {
  const server = await startScriptedSmtp(script);
  const v = createVerifier(loopbackOptions(dns.server, server.port));
  try {
    return { result: await v.verify(email), commands: server.commandsSeen.flat() };
  } finally {
    await v.close();
    await server.close();
  }
}

describe('an address with a UTF-8 local part at a server that does not offer SMTPUTF8 (RFC 6531)', () => {
  // Postfix with smtputf8_enable=no, Exchange: the 8-bit RCPT is refused as bad syntax (5.1.3) or
  // "mailbox name not allowed" — about the server's abilities, not about the mailbox.
  const noUtf8 = (refusal: string): Parameters<typeof startScriptedSmtp>[0] => ({
    reply: (line) => {
      if (line.startsWith('EHLO')) return '250-mx.banner.test\r\n250-PIPELINING\r\n250 8BITMIME';
      if (line.startsWith('RCPT')) return /[^\u0000-\u007f]/.test(line) ? refusal : /<alice@/.test(line) ? '250 2.1.5 Ok' : '550 5.1.1 User unknown';
      return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
    },
  });

  it('is never invalid: unknown, reason smtputf8_unsupported, and the 8-bit RCPT is never sent', async () => {
    for (const refusal of ['501 5.1.3 Bad recipient address syntax', '553 5.6.7 SMTPUTF8 is required, but was not offered', '550 5.1.1 User unknown']) {
      const { result, commands } = await verifyAgainst(noUtf8(refusal), 'jösé@banner.test');
      expect(result.result, refusal).not.toBe('invalid');
      expect(result, refusal).toMatchObject({ verdict: 'unknown', result: 'risky', reason: 'smtputf8_unsupported', smtputf8: true });
      expect(result.evidence.detail, refusal).toMatch(/SMTPUTF8/);
      // RFC 6531 3.4: without the extension the client must not send the address at all.
      expect(commands.filter((c) => /[^\u0000-\u007f]/.test(c)), refusal).toEqual([]);
    }
  });

  it('an ASCII address in the same batch is still asked and answered as before', async () => {
    const server = await startScriptedSmtp(noUtf8('501 5.1.3 Bad recipient address syntax'));
    const v = createVerifier(loopbackOptions(dns.server, server.port));
    try {
      const got = new Map<string, string>();
      for await (const r of v.verifyBatch(['jösé@banner.test', 'alice@banner.test', 'ghost@banner.test'])) got.set(r.email, `${r.verdict}/${r.reason}`);
      expect(Object.fromEntries(got)).toEqual({
        'jösé@banner.test': 'unknown/smtputf8_unsupported',
        'alice@banner.test': 'deliverable/accepted',
        'ghost@banner.test': 'undeliverable/mailbox_not_found',
      });
    } finally {
      await v.close();
      await server.close();
    }
  });

  it('a server that offers SMTPUTF8 is asked the address, with MAIL FROM … SMTPUTF8', async () => {
    const { result, commands } = await verifyAgainst(
      {
        reply: (line) => {
          if (line.startsWith('EHLO')) return '250-mx.banner.test\r\n250-PIPELINING\r\n250 SMTPUTF8';
          if (line.startsWith('RCPT')) return /<jösé@|<alice@/.test(line) ? '250 2.1.5 Ok' : '550 5.1.1 User unknown';
          return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
        },
      },
      'jösé@banner.test',
    );
    expect(result).toMatchObject({ verdict: 'deliverable', reason: 'accepted' });
    expect(commands.some((c) => c.startsWith('MAIL FROM:') && c.endsWith(' SMTPUTF8'))).toBe(true);
  });
});

describe('a multi-line reply whose lines carry different codes (RFC 5321 4.2.1: the last line, "code SP", is the reply)', () => {
  const mixed = (answer: string): Parameters<typeof startScriptedSmtp>[0] => ({
    reply: (line) => {
      if (line.startsWith('EHLO')) return '250-mx.banner.test\r\n250 PIPELINING';
      if (line.startsWith('RCPT')) return /<alice@/.test(line) ? answer : '550 5.1.1 User unknown';
      return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
    },
  });
  const fast = { greylistDeadlineMs: { realtime: 600, bulk: 600 }, greylistRetryDelaysMs: [100] };

  it('"550-5.1.1 …" then "451 4.3.0 …" is a temporary failure, never mailbox_not_found', async () => {
    const server = await startScriptedSmtp(mixed('550-5.1.1 <alice@banner.test>: Recipient address rejected\r\n451 4.3.0 <alice@banner.test>: Temporary lookup failure'));
    const v = createVerifier(loopbackOptions(dns.server, server.port, fast));
    try {
      const r = await v.verify('alice@banner.test');
      expect(r.result).not.toBe('invalid');
      expect(r).toMatchObject({ verdict: 'unknown', reason: 'greylisted' });
      expect(r.evidence.replies.find((x) => x.stage === 'rcpt')).toMatchObject({ code: 451, enhanced: '4.3.0' });
    } finally {
      await v.close();
      await server.close();
    }
  });

  // RFC 3463 puts one enhanced code on every line of a reply; a reply whose lines disagree says two
  // things at once. A line's 5.7.1 (policy), 5.2.2 (full: the mailbox exists) or 5.0.0 outweighs
  // another line's "no such mailbox": only a reply whose every code says so is mailbox_not_found.
  it.each([
    ['550-5.1.1 <alice@banner.test>: Recipient rejected\r\n550 5.7.1 Unauthenticated senders are not allowed here', 'unknown/policy_block'],
    ['550-5.1.1 Recipient rejected\r\n550 5.7.1 see https://help.banner.test/smtp', 'unknown/policy_block'],
    ['550-5.1.1 Recipient rejected\r\n550 5.2.2 Mailbox quota exceeded', 'risky/mailbox_full'],
    ['550 5.1.1 sorry, you are not allowed here (#5.7.1)', 'unknown/policy_block'],
  ])('lines with conflicting enhanced codes, %s, are never mailbox_not_found', async (answer, expected) => {
    const { result } = await verifyAgainst(mixed(answer), 'alice@banner.test');
    expect(result.result).not.toBe('invalid');
    expect(`${result.verdict}/${result.reason}`).toBe(expected);
  });

  it('a multi-line 550 whose every line says 5.1.1 (Gmail) is still mailbox_not_found', async () => {
    const gmail = "550-5.1.1 The email account that you tried to reach does not exist. Please try\r\n550-5.1.1 double-checking the recipient's email address for typos or\r\n550 5.1.1 unnecessary spaces. https://support.google.com/mail/?p=NoSuchUser";
    const { result } = await verifyAgainst(mixed(gmail), 'alice@banner.test');
    expect(result).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
  });
});

describe('a permanent refusal at RCPT whose text says it is about policy or a block, whatever its code says', () => {
  // The code (5.1.1, or a bare 550/551) claims "no such mailbox"; the text says we were blocked, a
  // policy or filter refused, the server does not relay, or our sender is refused: nothing is known
  // about the mailbox.
  const refusals = [
    '550 Requested action not taken: mailbox unavailable - IP blocked',
    '550 5.1.1 Your IP has been blocked',
    '550 5.1.1 <alice@banner.test>: Recipient address rejected: blocked',
    '550 5.1.1 Recipient rejected due to policy',
    '550 5.1.1 Access denied',
    '550 5.1.1 Address rejected by content filter',
    '550 Mailbox unavailable or access denied',
    '551 not local host banner.test, not a gateway',
    "553 sorry, that domain isn't in my list of allowed rcpthosts.",
    '550 Domain not served here',
    '550 Mailbox unavailable (greylisted)',
    '550 Service unavailable',
    '550 Not accepting mail from your network',
    '550 5.1.1 Too many invalid recipients',
    // Our sender refused at RCPT time (Postfix's smtpd_delay_reject), in words other than "sender … rejected".
    '550 5.1.0 Invalid sender address',
    '550 Unknown sender',
    '553 5.1.1 Forged sender',
    '550 5.1.1 The sender domain has no MX',
    '550 5.1.1 Return path rejected',
    // The same in the server's own language: blocked, access denied, our sender invalid.
    '550 5.1.1 Ihre IP-Adresse ist gesperrt',
    '550 5.1.1 Accès refusé',
    '550 5.1.0 Absender ungültig',
    '550 5.1.0 Remitente rechazado',
    // Postfix could not verify the recipient at its back end (reject_unverified_recipient, a 5xx code set by the admin).
    '550 5.1.1 <alice@banner.test>: Recipient address rejected: unverified address: connect to backend.banner.test[10.0.0.5]:25: Connection timed out',
  ];

  it.each(refusals)('%s → unknown/policy_block, never invalid', async (refusal) => {
    const { result } = await verifyAgainst(
      {
        reply: (line) => {
          if (line.startsWith('EHLO')) return '250-mx.banner.test\r\n250 PIPELINING';
          if (line.startsWith('RCPT')) return /<alice@/.test(line) ? refusal : '550 5.1.1 User unknown';
          return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
        },
      },
      'alice@banner.test',
    );
    expect(result.result).not.toBe('invalid');
    expect(result).toMatchObject({ verdict: 'unknown', reason: 'policy_block' });
  });

  it('those words inside an address or a host name are not read: "550 5.1.1 <ghost@blocked-policy.example>… greylist.example" is still mailbox_not_found', async () => {
    const { result } = await verifyAgainst(
      {
        reply: (line) => {
          if (line.startsWith('EHLO')) return '250-mx.banner.test\r\n250 PIPELINING';
          if (line.startsWith('RCPT')) return '550 5.1.1 <ghost@blocked-policy.example>: Recipient address rejected: User unknown (mx.greylist.example, see https://relay.example/blocked)';
          return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
        },
      },
      'ghost@banner.test',
    );
    expect(result).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
  });
});

describe('the evidence of a refusal before RCPT', () => {
  it('lists the refusing reply once (a 554 greeting, a 550 to MAIL FROM), not twice', async () => {
    const atMail = await verifyAgainst({ reply: (line) => (line.startsWith('MAIL') ? '550 5.7.1 Sender rejected' : line.startsWith('QUIT') ? '221 bye' : '250 ok') }, 'alice@banner.test');
    expect(atMail.result).toMatchObject({ verdict: 'unknown', reason: 'policy_block' });
    expect(atMail.result.evidence.replies.filter((r) => r.stage === 'mail')).toHaveLength(1);
    const atGreeting = await verifyAgainst({ banner: '554 5.7.1 No SMTP service here', reply: () => '221 bye' }, 'alice@banner.test');
    expect(atGreeting.result).toMatchObject({ verdict: 'unknown', reason: 'policy_block' });
    expect(atGreeting.result.evidence.replies.filter((r) => r.stage === 'banner')).toHaveLength(1);
  });
});

describe('a recipient limit refused with 552 or 550 (RFC 821 listed 552; RFC 5321 4.5.3.1.10: treat it as 452)', () => {
  // Two RCPTs per connection, then the limit: every further RCPT of that session gets `refusal`.
  const limited = (refusal: string): Parameters<typeof startScriptedSmtp>[0] => ({
    reply: (line, state) => {
      if (line.startsWith('EHLO')) return '250-mx.banner.test\r\n250 PIPELINING';
      if (line.startsWith('RCPT')) {
        if (state.commands.filter((c) => c.startsWith('RCPT')).length > 2) return refusal;
        return /<user\d@/.test(line) ? '250 2.1.5 Ok' : '550 5.1.1 User unknown';
      }
      return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
    },
  });

  it.each(['552 Too many recipients', '550 Too many recipients', '552 4.5.3 Too many recipients', '552 Recipient limit exceeded'])('%s: the recipients past the limit are asked in new sessions, and every existing one is deliverable', async (refusal) => {
    const server = await startScriptedSmtp(limited(refusal));
    const v = createVerifier(loopbackOptions(dns.server, server.port));
    try {
      const users = ['user1', 'user2', 'user3', 'user4', 'user5'].map((u) => `${u}@banner.test`);
      const got = new Map<string, string>();
      for await (const r of v.verifyBatch([...users, 'ghost@banner.test'])) got.set(r.email, `${r.verdict}/${r.reason}`);
      expect(Object.fromEntries(got)).toEqual({ ...Object.fromEntries(users.map((u) => [u, 'deliverable/accepted'])), 'ghost@banner.test': 'undeliverable/mailbox_not_found' });
    } finally {
      await v.close();
      await server.close();
    }
  });
});

describe('a server that answers the RCPTs of a pipelined group before MAIL (its sender check finishes late)', () => {
  // PIPELINING offered; MAIL's reply waits for a sender check, RCPT replies go out as soon as read.
  // Read in order, each reply would answer the command before its own: alice would get ghost's 550.
  async function startLateMail(): Promise<{ port: number; close(): Promise<void> }> {
    return startLoopbackServer((socket) => {
      socket.write('220 mx.banner.test ESMTP\r\n');
      const lines = lineSplitter();
      socket.on('data', (d) => {
        for (const line of lines(d)) {
          if (line.startsWith('EHLO')) socket.write('250-mx.banner.test\r\n250-PIPELINING\r\n250 ENHANCEDSTATUSCODES\r\n');
          else if (line.startsWith('MAIL')) setTimeout(() => socket.writable && socket.write('250 2.1.0 Ok\r\n'), 100);
          else if (line.startsWith('RCPT')) {
            const addr = /<([^>]*)>/.exec(line)?.[1] ?? '';
            const answer = /^(alice|bob)@/.test(addr) ? '250 2.1.5 Ok' : `550 5.1.1 <${addr}>: Recipient address rejected: User unknown in virtual mailbox table`;
            socket.write(`${answer}\r\n`);
          } else if (line.startsWith('QUIT')) setTimeout(() => socket.writable && socket.end('221 2.0.0 Bye\r\n'), 150);
          else socket.write('250 2.0.0 Ok\r\n');
        }
      });
    });
  }

  it('no existing mailbox is reported undeliverable: the answers out of order are dropped, and the server is asked one command at a time', async () => {
    const server = await startLateMail();
    const v = createVerifier(loopbackOptions(dns.server, server.port));
    try {
      const got = new Map<string, string>();
      for await (const r of v.verifyBatch(['alice@banner.test', 'ghost@banner.test', 'bob@banner.test'])) got.set(r.email, `${r.verdict}/${r.reason}`);
      expect(got.get('alice@banner.test')).not.toBe('undeliverable/mailbox_not_found');
      expect(got.get('bob@banner.test')).not.toBe('undeliverable/mailbox_not_found');
      expect(Object.fromEntries(got)).toEqual({
        'alice@banner.test': 'deliverable/accepted',
        'ghost@banner.test': 'undeliverable/mailbox_not_found',
        'bob@banner.test': 'deliverable/accepted',
      });
    } finally {
      await v.close();
      await server.close();
    }
  });
});

describe('a server that refuses every further recipient of a session once it has seen too many unknown ones (anti-harvesting)', () => {
  // After two unknown recipients in one session, every further RCPT of that session is refused with
  // `poison`, whether the mailbox exists or not; a new session starts the count over.
  const harvestGuard = (poison: string): Parameters<typeof startScriptedSmtp>[0] => {
    let unknown = 0;
    return {
      reply: (line) => {
        if (line.startsWith('EHLO')) return '250-mx.banner.test\r\n250-PIPELINING\r\n250 ENHANCEDSTATUSCODES';
        if (line.startsWith('MAIL')) {
          unknown = 0;
          return '250 2.1.0 Ok';
        }
        if (line.startsWith('RCPT')) {
          if (unknown >= 2) return poison;
          if (/<(alice|bob)@/.test(line)) return '250 2.1.5 Ok';
          unknown++;
          return '550 5.1.1 User unknown';
        }
        return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
      },
    };
  };

  it.each(['550 5.7.1 Too many invalid recipients', '550 Too many bad recipients in this session'])('%s: the existing mailboxes after it are asked again in a new session and found', async (poison) => {
    const server = await startScriptedSmtp(harvestGuard(poison));
    const v = createVerifier(loopbackOptions(dns.server, server.port, { greylistDeadlineMs: { realtime: 1500, bulk: 1500 }, greylistRetryDelaysMs: [300] }));
    try {
      const got = new Map<string, string>();
      for await (const r of v.verifyBatch(['ghost1@banner.test', 'ghost2@banner.test', 'alice@banner.test', 'ghost3@banner.test', 'bob@banner.test'])) got.set(r.email, `${r.verdict}/${r.reason}`);
      expect(Object.fromEntries(got)).toEqual({
        'ghost1@banner.test': 'undeliverable/mailbox_not_found',
        'ghost2@banner.test': 'undeliverable/mailbox_not_found',
        'alice@banner.test': 'deliverable/accepted',
        'ghost3@banner.test': 'undeliverable/mailbox_not_found',
        'bob@banner.test': 'deliverable/accepted',
      });
    } finally {
      await v.close();
      await server.close();
    }
  });
});

describe('a refusal written in the 8-bit charset of the server\'s locale (Windows-1252, Windows-1251, KOI8-R), not UTF-8', () => {
  // SMTP replies should be ASCII; older European and Russian servers write their own language in
  // their locale's charset. Read as UTF-8, "Accès refusé" became "Acc\uFFFDs refus\uFFFD" and its words
  // were lost: the 5.1.1 made an existing mailbox invalid.
  /** Bytes of `text` in a one-byte charset (the inverse of TextDecoder's table). */
  const encode = (text: string, charset: string): Buffer => {
    const table = new Map<string, number>();
    const decoder = new TextDecoder(charset);
    for (let b = 0; b < 256; b++) table.set(decoder.decode(Uint8Array.of(b)), b);
    return Buffer.from([...text].map((c) => table.get(c) ?? 0x3f));
  };
  /** A server refusing everyone but alice with `refusal`, written as these bytes. */
  async function verifyBytes(refusal: Buffer, email: string) {
    const server = await startLoopbackServer((socket) => {
      socket.write('220 mx.banner.test ESMTP\r\n');
      const lines = lineSplitter('latin1');
      socket.on('data', (d) => {
        for (const line of lines(d)) {
          if (line.startsWith('EHLO')) socket.write('250-mx.banner.test\r\n250 PIPELINING\r\n');
          else if (line.startsWith('RCPT')) socket.write(/<alice@/.test(line) ? '250 2.1.5 Ok\r\n' : Buffer.concat([refusal, Buffer.from('\r\n')]));
          else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
          else socket.write('250 2.1.0 Ok\r\n');
        }
      });
    });
    const v = createVerifier(loopbackOptions(dns.server, server.port));
    try {
      return await v.verify(email);
    } finally {
      await v.close();
      await server.close();
    }
  }

  it.each([
    ['550 5.1.1 Accès refusé', 'windows-1252'],
    ['550 5.1.1 Destinatario bloqueado por política', 'windows-1252'],
    ['550 5.1.1 Доступ запрещён', 'windows-1251'],
    ['550 5.1.1 Доступ запрещён', 'koi8-r'],
  ])('"%s" in %s → unknown/policy_block, never invalid, and the evidence reads the words', async (text, charset) => {
    const r = await verifyBytes(encode(text, charset), 'bob@banner.test');
    expect(r.result).not.toBe('invalid');
    expect(r).toMatchObject({ verdict: 'unknown', reason: 'policy_block' });
    expect(r.evidence.replies.find((x) => x.stage === 'rcpt')?.text).toBe(text.slice('550 5.1.1 '.length));
  });

  it('"550 5.1.1 Odmowa dostępu" in ISO-8859-2 (read as Windows-1252: "dostêpu") is still a policy refusal, never invalid', async () => {
    const r = await verifyBytes(encode('550 5.1.1 Odmowa dostępu', 'iso-8859-2'), 'bob@banner.test');
    expect(r).toMatchObject({ verdict: 'unknown', reason: 'policy_block' });
  });

  it('"550 Empfänger unbekannt" in Windows-1252 is read as the unknown user it names (mailbox_not_found)', async () => {
    const r = await verifyBytes(encode('550 Empfänger unbekannt', 'windows-1252'), 'ghost@banner.test');
    expect(r).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
    expect(r.evidence.replies.find((x) => x.stage === 'rcpt')?.text).toBe('Empfänger unbekannt');
  });
});

describe('a temporary refusal about us, still given at the deadline (our client, our sender, a blocklist)', () => {
  // Postfix's reject_unknown_client_hostname and friends answer 450/451 while the cause lasts: retried
  // to the deadline, it is still the same refusal of us. That is a policy refusal, not greylisting.
  const fast = { greylistDeadlineMs: { realtime: 900, bulk: 900 }, greylistRetryDelaysMs: [150] };
  const refusing = (answer: string): Parameters<typeof startScriptedSmtp>[0] => ({
    reply: (line) => {
      if (line.startsWith('EHLO')) return '250-mx.banner.test\r\n250 PIPELINING';
      if (line.startsWith('RCPT')) return answer;
      return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
    },
  });

  it.each([
    '450 4.7.1 <unknown[203.0.113.9]>: Client host rejected: cannot find your hostname',
    '451 4.7.1 Service unavailable; Client host [203.0.113.9] blocked using zen.spamhaus.org',
    '450 4.1.8 <verify@probe.test>: Sender address rejected: Domain not found',
  ])('"%s" → unknown/policy_block, not greylisted', async (answer) => {
    const server = await startScriptedSmtp(refusing(answer));
    const v = createVerifier(loopbackOptions(dns.server, server.port, fast));
    try {
      expect(await v.verify('alice@banner.test')).toMatchObject({ verdict: 'unknown', reason: 'policy_block' });
    } finally {
      await v.close();
      await server.close();
    }
  });

  it('greylisting that names our client is still greylisting: "451 4.7.1 Greylisted, client host [203.0.113.9] please retry" → unknown/greylisted', async () => {
    const server = await startScriptedSmtp(refusing('451 4.7.1 <alice@banner.test>: Recipient address rejected: Greylisted, client host [203.0.113.9] please try again later'));
    const v = createVerifier(loopbackOptions(dns.server, server.port, fast));
    try {
      expect(await v.verify('alice@banner.test')).toMatchObject({ verdict: 'unknown', reason: 'greylisted' });
    } finally {
      await v.close();
      await server.close();
    }
  });
});
