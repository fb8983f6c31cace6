// Whole-domain probes across several MX addresses: temporary refusals and 421 at the greeting fall
// through to the backup, a backup's refusal in the MX race waits for the live primary, an address
// remembered as unreachable is tried last (not never), a tarpit on unknown recipients costs the
// real mailboxes nothing, and an address that needs SMTPUTF8 goes to the MX that offers it.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedSmtp } from '../testing/fake-smtp';
import { startMiniHost } from '../testing/address-smtp';
import { runProbe, smtpContext } from '../testing/domain-probe';
import { lineSplitter } from '../testing/loopback-server';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A server on `ip`:`port` (0: any) that greets with `banner` and answers every command with `answer`. */
async function startGreeter(ip: string, port: number, banner: string, answer = '250 ok'): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    s.write(`${banner}\r\n`);
    const lines = lineSplitter();
    s.on('data', (d) => {
      for (const line of lines(d)) {
        if (/^QUIT/i.test(line)) {
          s.write('221 bye\r\n');
          s.end();
        } else s.write(`${answer}\r\n`);
      }
    });
  });
  await new Promise<void>((resolve) => srv.listen(port, ip, () => resolve()));
  closers.push(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        srv.close(() => r());
      }),
  );
  return { port: (srv.address() as net.AddressInfo).port, connections: () => connections };
}

const rcpt = (a: string): string => (a.startsWith('alice') ? '250 2.1.5 ok' : '550 5.1.1 no such user');

/** alice (exists) and ghost (does not) at d.test, whose MX are 127.0.0.1 (10) and 127.0.0.2 (20). */
const probeTwoMx = (ctx: ReturnType<typeof smtpContext>) =>
  runProbe({
    targets: [
      { host: 'mx1.d.test', ip: '127.0.0.1', priority: 10 },
      { host: 'mx2.d.test', ip: '127.0.0.2', priority: 20 },
    ],
    addresses: ['alice@d.test', 'ghost@d.test'],
    randomAddress: 'xrandom@d.test',
    knownCatchAll: null,
    ctx,
    deadlineMs: 3000,
    retryDelaysMs: [300, 600],
  });

describe('MX fallback on temporary refusals at the greeting', () => {
  it('a primary MX that greets with a 4xx other than 421 (451 4.3.2): the backup MX is asked, as RFC 5321 5.1 wants', async () => {
    const primary = await startGreeter('127.0.0.1', 0, '451 4.3.2 System not accepting network messages');
    const backup = await startMiniHost('127.0.0.2', primary.port, rcpt);
    closers.push(() => backup.close());
    const r = await probeTwoMx(smtpContext(primary.port));
    expect(r.settled.get('alice@d.test')?.outcome.finding).toBe('accepted');
    expect(r.settled.get('ghost@d.test')?.outcome.finding).toBe('mailbox_not_found');
  });

  it('a primary MX that answers our HELO with 421 (EHLO not supported): the backup MX is asked, like after a 421 to EHLO', async () => {
    const primary = await startScriptedSmtp({
      reply: (line) => (line.startsWith('EHLO') ? '502 5.5.2 Command not recognized' : line.startsWith('HELO') ? '421 4.3.2 Too busy, closing' : '250 ok'),
    });
    closers.push(() => primary.close());
    const backup = await startMiniHost('127.0.0.2', primary.port, rcpt);
    closers.push(() => backup.close());
    const r = await probeTwoMx(smtpContext(primary.port));
    expect(r.settled.get('alice@d.test')?.outcome.finding).toBe('accepted');
    expect(r.settled.get('ghost@d.test')?.outcome.finding).toBe('mailbox_not_found');
  });
});

describe('a refusal at the greeting (5xx)', () => {
  it('the primary refuses us at the greeting (554 5.7.1 blocklist) and the backup answers: policy_block, the first rule of the verdict table that matches (as the mail world\'s truth says: the first MX that greets decides)', async () => {
    const primary = await startGreeter('127.0.0.1', 0, '554 5.7.1 mx1.d.test Service unavailable; Client host [127.0.0.9] blocked using bl.example');
    const backup = await startMiniHost('127.0.0.2', primary.port, rcpt);
    closers.push(() => backup.close());
    const r = await probeTwoMx(smtpContext(primary.port));
    for (const address of ['alice@d.test', 'ghost@d.test']) {
      expect(r.settled.get(address)?.outcome, address).toMatchObject({ finding: 'policy_block', mxIp: '127.0.0.1' });
    }
    expect(backup.rcpts).toEqual([]);
  });

  it('the primary refuses us at the greeting (554 5.7.1 blocklist), the backup is down: policy_block, the one answer there was, not smtp_unreachable', async () => {
    // Nothing listens on 127.0.0.2 at the primary's port: the backup refuses connections.
    const primary = await startGreeter('127.0.0.1', 0, '554 5.7.1 mx1.d.test Service unavailable; Client host [127.0.0.9] blocked using bl.example');
    const r = await probeTwoMx(smtpContext(primary.port));
    for (const address of ['alice@d.test', 'ghost@d.test']) {
      const outcome = r.settled.get(address)?.outcome;
      expect(outcome?.finding, address).toBe('policy_block');
      expect(outcome?.replies.at(-1), address).toMatchObject({ stage: 'banner', code: 554 });
    }
  });
});

/**
 * A Postfix-postscreen-style primary on 127.0.0.1: "220-" at once, the final "220 " line after
 * `pauseMs` (postscreen's greet wait is 6 s), then a normal server answering RCPT with `rcpt`.
 * `early: false`: nothing at all before the greeting (sendmail's greet_pause).
 */
async function startPostscreen(pauseMs: number, early = true): Promise<{ port: number; rcpts: string[] }> {
  const rcpts: string[] = [];
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    if (early) s.write('220-mx1.d.test ESMTP\r\n');
    setTimeout(() => s.writable && s.write('220 mx1.d.test ESMTP\r\n'), pauseMs);
    const lines = lineSplitter();
    s.on('data', (d) => {
      for (const line of lines(d)) {
        if (line.startsWith('EHLO')) s.write('250-mx1.d.test\r\n250 PIPELINING\r\n');
        else if (line.startsWith('RCPT')) {
          const a = /<([^>]*)>/.exec(line)?.[1] ?? '';
          rcpts.push(a);
          s.write(`${rcpt(a)}\r\n`);
        } else if (line.startsWith('QUIT')) {
          s.write('221 bye\r\n');
          s.end();
        } else s.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  closers.push(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        srv.close(() => r());
      }),
  );
  return { port: (srv.address() as net.AddressInfo).port, rcpts };
}

describe('the MX race (head start) against a primary with a greeting pause', () => {
  const race = async (backupReply: (a: string) => string, early = true) => {
    const primary = await startPostscreen(600, early);
    const backup = await startMiniHost('127.0.0.2', primary.port, backupReply);
    closers.push(() => backup.close());
    const r = await probeTwoMx(smtpContext(primary.port, { headStartMs: 200, bannerTimeoutMs: 3000 }));
    return { r, primary, backup };
  };

  it('a backup MX that does not relay for the domain (554 5.7.1 Relay access denied) does not win over the live primary: its policy refusal is not an answer', async () => {
    const { r, backup } = await race((a) => `554 5.7.1 <${a}>: Relay access denied`);
    expect(backup.rcpts.length).toBeGreaterThan(0); // the race did happen
    expect(r.settled.get('alice@d.test')?.outcome.finding).toBe('accepted');
    expect(r.settled.get('ghost@d.test')?.outcome.finding).toBe('mailbox_not_found');
  });

  it('a backup MX without the recipient list (550 5.1.1 User unknown in relay recipient table for everyone) does not make an existing mailbox invalid while the primary is alive', async () => {
    const { r, backup } = await race((a) => `550 5.1.1 <${a}>: Recipient address rejected: User unknown in relay recipient table`);
    expect(backup.rcpts.length).toBeGreaterThan(0);
    expect(r.settled.get('alice@d.test')?.outcome.finding).toBe('accepted');
  });

  // A primary that says nothing at all until it greets (sendmail's greet_pause) has still taken the
  // connection: a backup that refuses every recipient has shown no recipient list, and waits for it.
  it('a silent-until-it-greets primary and a backup refusing everyone (550 5.1.1 … relay recipient table): the primary decides, no existing mailbox made invalid', async () => {
    const { r, backup, primary } = await race((a) => `550 5.1.1 <${a}>: Recipient address rejected: User unknown in relay recipient table`, false);
    expect(backup.rcpts.length).toBeGreaterThan(0); // the race did happen
    expect(primary.rcpts).toContain('alice@d.test');
    expect(r.settled.get('alice@d.test')?.outcome.finding).toBe('accepted');
    expect(r.settled.get('ghost@d.test')?.outcome.finding).toBe('mailbox_not_found');
    expect(r.settled.get('ghost@d.test')?.outcome.mxIp).toBe('127.0.0.1');
  });

  it('a silent-until-it-greets primary and a backup that does not relay for the domain (554 5.7.1): the primary decides, not policy_block', async () => {
    const { r, backup } = await race((a) => `554 5.7.1 <${a}>: Relay access denied`, false);
    expect(backup.rcpts.length).toBeGreaterThan(0);
    expect(r.settled.get('alice@d.test')?.outcome.finding).toBe('accepted');
    expect(r.settled.get('ghost@d.test')?.outcome.finding).toBe('mailbox_not_found');
  });

  it('a backup that shows its recipient list (accepts alice, refuses ghost) is trusted at once: the slow primary is not waited for', async () => {
    const { r, primary } = await race(rcpt, false);
    expect(r.settled.get('alice@d.test')?.outcome).toMatchObject({ finding: 'accepted', mxIp: '127.0.0.2' });
    expect(r.settled.get('ghost@d.test')?.outcome).toMatchObject({ finding: 'mailbox_not_found', mxIp: '127.0.0.2' });
    expect(primary.rcpts).toEqual([]);
  });
});

describe('an MX address remembered as unreachable is tried last, not never', () => {
  it('the primary was unreachable a moment ago (now back) and the backup refuses connections: the primary is tried again before calling the domain unreachable', async () => {
    const primary = await startScriptedSmtp({
      reply: (line) => {
        if (line.startsWith('EHLO')) return '250-fake.test\r\n250 PIPELINING';
        if (line.startsWith('RCPT')) return rcpt(/<([^>]*)>/.exec(line)?.[1] ?? '');
        if (line.startsWith('QUIT')) return '221 bye';
        return '250 ok';
      },
    });
    closers.push(() => primary.close());
    // Nothing listens on 127.0.0.2 at that port: the backup refuses connections.
    const unreachableUntil = new Map([['127.0.0.1', Date.now() + 300_000]]);
    const r = await probeTwoMx(smtpContext(primary.port, { unreachableUntil }));
    expect(r.settled.get('alice@d.test')?.outcome.finding).toBe('accepted');
    expect(r.settled.get('ghost@d.test')?.outcome.finding).toBe('mailbox_not_found');
  });
});

describe('a tarpit on unknown recipients (anti-harvesting delay longer than our reply timeout)', () => {
  it('the random mailbox\'s slow refusal does not cost the real mailboxes their answer', async () => {
    // Unknown recipients are answered 550 only after 2.5 s (reply timeout 1.5 s); known ones at once.
    const host = await startMiniHost('127.0.0.1', 0, rcpt, (a) => (a.startsWith('alice') ? 0 : 2500));
    closers.push(() => host.close());
    const r = await runProbe({
      targets: [{ host: 'mx.d.test', ip: '127.0.0.1', priority: 10 }],
      addresses: ['alice@d.test'],
      randomAddress: 'xrandom@d.test',
      knownCatchAll: null,
      ctx: smtpContext(host.port),
      deadlineMs: 8000,
      retryDelaysMs: [300, 600],
    });
    expect(r.settled.get('alice@d.test')?.outcome.finding).toBe('accepted');
  }, 20_000);
  it('the random mailbox is asked after the real ones in its session: a tarpit on unknown recipients never leaves them unanswered and asked again', async () => {
    // Unknown recipients are answered only after 2.5 s (reply timeout 1.5 s). Asked first, the random
    // mailbox's silence left alice unanswered behind it, session after session, and she was asked anew each time.
    const known = (a: string): boolean => a.startsWith('alice') || a.startsWith('bob');
    const host = await startMiniHost('127.0.0.1', 0, (a) => (known(a) ? '250 2.1.5 ok' : '550 5.1.1 no such user'), (a) => (known(a) ? 0 : 2500));
    closers.push(() => host.close());
    const r = await runProbe({
      targets: [{ host: 'mx.d.test', ip: '127.0.0.1', priority: 10 }],
      addresses: ['alice@d.test', 'bob@d.test'],
      randomAddress: 'xrandom@d.test',
      knownCatchAll: null,
      ctx: smtpContext(host.port),
      deadlineMs: 8000,
      retryDelaysMs: [300, 600],
    });
    expect(r.settled.get('alice@d.test')?.outcome.finding).toBe('accepted');
    expect(r.settled.get('bob@d.test')?.outcome.finding).toBe('accepted');
    expect(host.rcpts.slice(0, 3)).toEqual(['alice@d.test', 'bob@d.test', 'xrandom@d.test']);
    expect(host.rcpts.filter((a) => a !== 'xrandom@d.test')).toEqual(['alice@d.test', 'bob@d.test']);
  }, 20_000);
});

describe('an address with a UTF-8 local part (RFC 6531) and MX hosts with and without SMTPUTF8', () => {
  const utf8Rcpt = (a: string): string => (a.startsWith('jösé') || a.startsWith('alice') ? '250 2.1.5 ok' : '550 5.1.1 no such user');

  it('the primary does not offer SMTPUTF8, the backup does: the address is asked at the backup only, and answered', async () => {
    const primary = await startMiniHost('127.0.0.1', 0, () => '501 5.1.3 Bad recipient address syntax', () => 0, ['PIPELINING']);
    const backup = await startMiniHost('127.0.0.2', primary.port, utf8Rcpt, () => 0, ['PIPELINING', 'SMTPUTF8']);
    closers.push(() => primary.close(), () => backup.close());
    const r = await runProbe({
      targets: [
        { host: 'mx1.d.test', ip: '127.0.0.1', priority: 10 },
        { host: 'mx2.d.test', ip: '127.0.0.2', priority: 20 },
      ],
      addresses: ['jösé@d.test'],
      randomAddress: 'xrandom@d.test',
      knownCatchAll: null,
      ctx: smtpContext(primary.port),
      deadlineMs: 3000,
      retryDelaysMs: [300, 600],
    });
    expect(r.settled.get('jösé@d.test')?.outcome).toMatchObject({ finding: 'accepted', mxIp: '127.0.0.2' });
    expect(primary.rcpts.filter((a) => a.startsWith('jösé'))).toEqual([]);
  });

  it('no MX offers SMTPUTF8: smtputf8_unsupported, never mailbox_not_found, and the address is never sent', async () => {
    const primary = await startMiniHost('127.0.0.1', 0, () => '553 5.1.3 Bad recipient address syntax', () => 0, ['PIPELINING']);
    const backup = await startMiniHost('127.0.0.2', primary.port, () => '501 5.1.3 Bad recipient address syntax', () => 0, []);
    closers.push(() => primary.close(), () => backup.close());
    const r = await runProbe({
      targets: [
        { host: 'mx1.d.test', ip: '127.0.0.1', priority: 10 },
        { host: 'mx2.d.test', ip: '127.0.0.2', priority: 20 },
      ],
      addresses: ['jösé@d.test'],
      randomAddress: 'xrandom@d.test',
      knownCatchAll: null,
      ctx: smtpContext(primary.port),
      deadlineMs: 3000,
      retryDelaysMs: [300, 600],
    });
    expect(r.settled.get('jösé@d.test')?.outcome.finding).toBe('smtputf8_unsupported');
    expect([...primary.rcpts, ...backup.rcpts].filter((a) => a.startsWith('jösé'))).toEqual([]);
  });
});
