// Regression test: Postfix's smtpd checks its error limit at the top of its command loop, BEFORE reading the
// next command: once a rejected RCPT brings error_count to smtpd_hard_error_limit (20; 1 under
// stress with the default "${stress?{1}:{20}}"), it writes "421 4.7.0 <host> Error: too many errors"
// right behind the rejection, in the same flush, and closes. The 421 is already queued when the
// session writes its next command (the next RCPT, or QUIT). SmtpConnection.write called any queued
// reply "out of step" and the session discarded EVERY RCPT answer it had — the 550s and the 250s.
// A waiting 421 is the server closing: it is read as the next recipient's reply, the answers before
// it stand, and the final QUIT is a goodbye written whatever is waiting.
import { describe, expect, it } from 'vitest';
import { runProbe, smtpContext } from '../testing/domain-probe';
import { runSession } from './session';
import { closedAfterEach, sessionParams } from '../testing/session-params';
import { lineSplitter, startLoopbackServer } from '../testing/loopback-server';

const track = closedAfterEach();


/**
 * A Postfix-like server without PIPELINING (smtpd_discard_ehlo_keywords = pipelining) and a hard
 * error limit of `limit`: the rejection that reaches it is followed at once by 421 and the close.
 */
async function errorLimitServer(limit: number): Promise<number> {
  const srv = await startLoopbackServer((s) => {
    s.write('220 mx.f.test ESMTP Postfix\r\n');
    let errors = 0;
    const lines = lineSplitter('latin1');
    s.on('data', (d) => {
      for (const line of lines(d)) {
        if (!s.writable) return;
        let out: string;
        if (line.startsWith('EHLO')) out = '250-mx.f.test\r\n250-SIZE 10240000\r\n250 8BITMIME\r\n';
        else if (line.startsWith('RCPT')) {
          if (/<alice@/.test(line)) out = '250 2.1.5 Ok\r\n';
          else {
            errors++;
            out = '550 5.1.1 <x@f.test>: Recipient address rejected: User unknown in virtual mailbox table\r\n';
          }
        } else if (line.startsWith('QUIT')) {
          s.end('221 2.0.0 Bye\r\n');
          return;
        } else out = '250 2.1.0 Ok\r\n';
        if (errors >= limit) {
          s.end(`${out}421 4.7.0 mx.f.test Error: too many errors\r\n`);
          return;
        }
        s.write(out);
      }
    });
  });
  track(srv);
  return srv.port;
}

describe('Postfix error limit: 421 written right behind a rejection ', () => {
  it('keeps the answers read before the 421 (alice 250, ghost 550)', async () => {
    const port = await errorLimitServer(1);
    const res = await runSession(sessionParams(port, ['alice@f.test', 'ghost@f.test', 'bob@f.test']));
    expect(res.rcptReplies.slice(0, 2).map((r) => r?.code ?? null)).toEqual([250, 550]);
  });

  it('keeps the last recipient\'s rejection when the 421 follows it (QUIT is never answered)', async () => {
    const port = await errorLimitServer(1);
    const res = await runSession(sessionParams(port, ['ghost@f.test']));
    expect(res.rcptReplies.map((r) => r?.code ?? null)).toEqual([550]);
  });

  it('a mailbox that exists is answered, not left unreachable (domain probe, random mailbox asked first)', async () => {
    const port = await errorLimitServer(1);
    const r = await runProbe({
      targets: [{ host: 'mx.f.test', ip: '127.0.0.1', priority: 10 }],
      addresses: ['alice@f.test', 'ghost@f.test'],
      randomAddress: 'xrandom@f.test',
      knownCatchAll: null,
      ctx: smtpContext(port),
      deadlineMs: 4000,
      retryDelaysMs: [300, 600],
    });
    expect(r.settled.get('alice@f.test')?.outcome.finding).toBe('accepted');
    expect(r.settled.get('ghost@f.test')?.outcome.finding).toBe('mailbox_not_found');
  });
});
