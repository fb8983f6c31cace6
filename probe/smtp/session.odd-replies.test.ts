// Sessions against real-world server quirks: long reply lines in several segments, control bytes,
// code-less continuation lines, plaintext injected after STARTTLS, and replies nobody asked for
// (a greeting sent as two complete replies). Each answer must stay with the recipient it belongs to.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startScriptedSmtp, type RunningServer } from '../testing/fake-smtp';
import { runProbe, smtpContext } from '../testing/domain-probe';
import { runSession, type SessionParams } from './session';
import { closedAfterEach, sessionParams } from '../testing/session-params';
import { lineSplitter, startLoopbackServer } from '../testing/loopback-server';

const track = closedAfterEach();

const params = (port: number, rcpts: string[], over: Partial<SessionParams> = {}): SessionParams => sessionParams(port, rcpts, { host: 'mx.fake.test', ...over });

/**
 * A raw server whose RCPT answer is written in several TCP writes (`chunks`), `gapMs` apart, the way a
 * slow or busy server's long reply reaches us in several segments.
 */
async function startChunkedRcptServer(chunks: string[], gapMs = 30): Promise<RunningServer> {
  const srv = await startLoopbackServer((socket) => {
    socket.write('220 fake.test ESMTP\r\n');
    const lines = lineSplitter('latin1');
    socket.on('data', async (d) => {
      for (const line of lines(d)) {
        if (/^EHLO/i.test(line)) socket.write('250 fake.test\r\n');
        else if (/^RCPT/i.test(line)) {
          for (const c of chunks) {
            if (!socket.writable) break;
            socket.write(c);
            await new Promise((r) => setTimeout(r, gapMs));
          }
        } else if (/^QUIT/i.test(line)) {
          socket.write('221 bye\r\n');
          socket.end();
        } else socket.write('250 ok\r\n');
      }
    });
  });
  return {
    port: srv.port,
    counters: { connections: 0, current: 0, maxConcurrent: 0, rcptsPerSession: [] },
    close: srv.close,
  };
}

describe('replies as real servers send them', () => {
  it('reads a long RCPT reply line that arrives in several TCP segments the same as one that arrives whole', async () => {
    // 5,000 characters of text: over RFC 5321's 512, but sent by real servers (long URLs, transcripts).
    const line = `550 5.1.1 <ghost@f.test>: Recipient address rejected: User unknown ${'x'.repeat(5000)}\r\n`;
    const whole = track(await startChunkedRcptServer([line]));
    const split = track(await startChunkedRcptServer([line.slice(0, 4500), line.slice(4500)]));
    const a = await runSession(params(whole.port, ['ghost@f.test']));
    const b = await runSession(params(split.port, ['ghost@f.test']));
    expect(a.rcptReplies[0]?.code).toBe(550);
    // Same reply, only segmented differently: must read the same.
    expect(b.rcptReplies[0]?.code ?? null).toBe(550);
  });

  it('never carries a NUL byte from a server reply into the result evidence (jsonb cannot store U+0000)', async () => {
    const srv = track(
      await startScriptedSmtp({
        reply: (line) => (line.startsWith('RCPT') ? '550 5.1.1 no such user\u0000here' : line.startsWith('QUIT') ? '221 bye' : '250 ok'),
      }),
    );
    const res = await runSession(params(srv.port, ['ghost@f.test']));
    expect(res.rcptReplies[0]?.code).toBe(550);
    expect(res.rcptReplies[0]?.text.includes('\u0000')).toBe(false);
  });
});

describe('multi-line replies with odd continuation', () => {
  it('a multi-line banner with a text-only continuation line (no reply code) still lets the session run (Postfix\'s client skips such garbage)', async () => {
    const srv = track(
      await startScriptedSmtp({
        banner: '220-mx.f.test ESMTP\r\nWelcome to the F mail service.\r\n220 mx.f.test ready',
        reply: (line) => (line.startsWith('RCPT') ? '250 2.1.5 ok' : line.startsWith('QUIT') ? '221 bye' : '250 ok'),
      }),
    );
    const res = await runSession(params(srv.port, ['alice@f.test']));
    expect(res.outcome).toBe('ok');
    expect(res.rcptReplies[0]?.code).toBe(250);
  });
});

/**
 * A server offering STARTTLS whose "220 Ready" is followed, in plain text, by one more reply (an
 * on-path attacker's, or a broken server's); after TLS it answers alice 250 and anyone else 550 5.1.1.
 */
async function startInjectingTlsServer(): Promise<number> {
  const { createRequire } = await import('node:module');
  const path = await import('node:path');
  const tls = await import('node:tls');
  const require = createRequire(import.meta.url);
  const tlsOptions = require(path.join(path.dirname(require.resolve('smtp-server')), 'tls-options.js')) as () => import('node:tls').SecureContextOptions;
  const { key, cert } = tlsOptions();
  const srv = await startLoopbackServer((raw) => {
    raw.write('220 mx.f.test ESMTP\r\n');
    const speak = (s: net.Socket, secure: boolean): void => {
      const lines = lineSplitter('latin1');
      const onData = (d: Buffer): void => {
        for (const line of lines(d)) {
          if (line.startsWith('EHLO')) s.write(secure ? '250-mx.f.test\r\n250 8BITMIME\r\n' : '250-mx.f.test\r\n250 STARTTLS\r\n');
          else if (line.startsWith('STARTTLS') && !secure) {
            s.write('220 2.0.0 Ready to start TLS\r\n250 2.1.5 injected\r\n');
            s.off('data', onData);
            const secured = new tls.TLSSocket(s, { isServer: true, key, cert });
            secured.on('error', () => undefined);
            speak(secured, true);
            return;
          } else if (line.startsWith('RCPT')) s.write(/<alice@/.test(line) ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n');
          else if (line.startsWith('QUIT')) {
            s.write('221 bye\r\n');
            s.end();
          } else s.write('250 2.1.0 Ok\r\n');
        }
      };
      s.on('data', onData);
    };
    speak(raw, false);
  });
  track(srv);
  return srv.port;
}

describe('STARTTLS response injection (plaintext replies queued before the TLS upgrade)', () => {
  it('drops replies that arrived in plain text after "220 Ready" to STARTTLS: the answers after TLS stay in step with their recipients', async () => {
    const port = await startInjectingTlsServer();
    const res = await runSession(params(port, ['ghost@f.test', 'alice@f.test'], { startTls: true }));
    expect(res.tls).toBe(true);
    // ghost does not exist, alice does: each answer must be its own.
    expect(res.rcptReplies.map((r) => r?.code ?? null)).toEqual([550, 250]);
  });

  it('an existing mailbox behind such a server is never called undeliverable (domain probe, an unknown mailbox asked first)', async () => {
    const port = await startInjectingTlsServer();
    const r = await runProbe({
      targets: [{ host: 'mx.f.test', ip: '127.0.0.1', priority: 10 }],
      addresses: ['ghost@f.test', 'alice@f.test'],
      randomAddress: 'xrandom@f.test',
      knownCatchAll: null,
      ctx: smtpContext(port),
      deadlineMs: 3000,
      retryDelaysMs: [300, 600],
    });
    expect(r.settled.get('alice@f.test')?.outcome.finding).not.toBe('mailbox_not_found');
    expect(r.settled.get('alice@f.test')?.outcome.finding).toBe('accepted');
  });
});

describe('unsolicited replies (a banner sent as two complete replies)', () => {
  // A custom two-line greeting written without the "220-" continuation mark: two complete replies.
  const doubleBanner = () =>
    startScriptedSmtp({
      banner: '220 mx.f.test ESMTP\r\n220 Welcome to the F mail service',
      reply: (line) => (line.startsWith('RCPT') ? (/<alice@/.test(line) ? '250 2.1.5 Ok' : '550 5.1.1 User unknown') : line.startsWith('QUIT') ? '221 bye' : line.startsWith('EHLO') ? '250-mx.f.test\r\n250 PIPELINING' : '250 2.1.0 Ok'),
    });

  it('never hands a recipient the reply meant for the one before it', async () => {
    const srv = track(await doubleBanner());
    const res = await runSession(params(srv.port, ['ghost@f.test', 'alice@f.test']));
    // Either in step (550 for ghost, 250 for alice) or given up as out of step: never alice = 550.
    expect(res.rcptReplies[1]?.code ?? null).not.toBe(550);
  });

  it('an existing mailbox behind such a server is never called undeliverable (domain probe, an unknown mailbox asked first)', async () => {
    const srv = track(await doubleBanner());
    const r = await runProbe({
      targets: [{ host: 'mx.f.test', ip: '127.0.0.1', priority: 10 }],
      addresses: ['ghost@f.test', 'alice@f.test'],
      randomAddress: 'xrandom@f.test',
      knownCatchAll: null,
      ctx: smtpContext(srv.port),
      deadlineMs: 3000,
      retryDelaysMs: [300, 600],
    });
    expect(r.settled.get('alice@f.test')?.outcome.finding).not.toBe('mailbox_not_found');
  });
});

describe('a pipelined group answered out of order (the RCPTs before MAIL), without enhanced codes', () => {
  // "250 Ok" for MAIL and for a known recipient alike: only the addresses the refusals name show the shift.
  const lateMail = () =>
    startLoopbackServer((socket) => {
      socket.write('220 fake.test ESMTP\r\n');
      const lines = lineSplitter();
      socket.on('data', (d) => {
        for (const line of lines(d)) {
          if (line.startsWith('EHLO')) socket.write('250-fake.test\r\n250 PIPELINING\r\n');
          else if (line.startsWith('MAIL')) setTimeout(() => socket.writable && socket.write('250 Ok\r\n'), 80);
          else if (line.startsWith('RCPT')) {
            const addr = /<([^>]*)>/.exec(line)?.[1] ?? '';
            socket.write(addr.startsWith('alice@') ? '250 Ok\r\n' : `550 <${addr.toUpperCase()}>: Recipient address rejected: User unknown\r\n`);
          } else if (line.startsWith('QUIT')) setTimeout(() => socket.writable && socket.end('221 Bye\r\n'), 120);
        }
      });
    });

  it('a refusal naming another recipient is never kept as an answer: the session is out of step, no reply is handed out', async () => {
    const srv = track(await lateMail());
    for (const rcpts of [['alice@f.test', 'ghost@f.test'], ['ghost@f.test', 'alice@f.test']]) {
      const res = await runSession(params(srv.port, rcpts));
      expect(res.outOfStep, rcpts.join()).toBe(true);
      expect(res.rcptReplies, rcpts.join()).toEqual([null, null]);
    }
  });

  it('one command at a time (pipelining: false), the same server answers each recipient in step', async () => {
    const srv = track(await lateMail());
    const res = await runSession(params(srv.port, ['alice@f.test', 'ghost@f.test'], { pipelining: false }));
    expect(res.pipelining).toBe(false);
    expect(res.rcptReplies.map((r) => r?.code ?? null)).toEqual([250, 550]);
  });
});

describe('blank lines and text outside any reply (a server that ends each reply twice, a banner with a preamble)', () => {
  /** Every reply written with `end` after it (a reply text that already ends in LF, given CRLF again: "\n\r\n"). */
  const doubleEnded = (end: string, preamble = ''): Promise<{ port: number; close(): Promise<void> }> =>
    startLoopbackServer((socket) => {
      const say = (reply: string): void => void (socket.writable && socket.write(`${reply.replace(/\n/g, '\r\n')}${end}`));
      if (preamble) socket.write(preamble);
      say('220 fake.test ESMTP\n');
      const lines = lineSplitter();
      socket.on('data', (d) => {
        for (const line of lines(d)) {
          if (line.startsWith('EHLO')) say('250-fake.test\n250 PIPELINING\n');
          else if (line.startsWith('RCPT')) say(/<alice@/.test(line) ? '250 2.1.5 Ok\n' : '550 5.1.1 User unknown\n');
          else if (line.startsWith('QUIT')) {
            say('221 Bye\n');
            socket.end();
          } else say('250 Ok\n');
        }
      });
    });

  it.each([
    ['"\\n\\r\\n" after every reply', '\r\n', ''],
    ['"\\r\\n\\r\\n" after every reply', '\r\n\r\n', ''],
    ['a text preamble before the greeting', '', 'Welcome to the fake.test mail service\r\n\r\n'],
  ])('%s: every recipient gets its own answer, pipelined or not', async (_name, end, preamble) => {
    const srv = track(await doubleEnded(end, preamble));
    for (const pipelining of [true, false]) {
      const res = await runSession(params(srv.port, ['alice@f.test', 'ghost@f.test', 'bob@f.test'], { pipelining }));
      expect(res.outcome, `pipelining ${pipelining}: ${res.detail}`).toBe('ok');
      expect(res.rcptReplies.map((r) => r?.code ?? null), `pipelining ${pipelining}`).toEqual([250, 550, 550]);
    }
  });
});
