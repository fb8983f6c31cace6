// Regression test: a greeting written as two complete 220 replies was only recognised (takeQueued)
// when both had arrived by the time the first was read. The same server whose second 220 comes a few
// ms later (a second write 10 ms later, over a link with a 60 ms round trip) got its 220 read as the
// answer to EHLO: the session ended "out of step" and the address was never answered — the verdict
// depended on packet timing. A 220 read in place of EHLO's (or HELO's) reply is more greeting.
import { describe, expect, it } from 'vitest';
import { runProbe, smtpContext } from '../testing/domain-probe';
import { runSession } from './session';
import { closedAfterEach, sessionParams } from '../testing/session-params';
import { lineSplitter, startLoopbackServer } from '../testing/loopback-server';

const track = closedAfterEach();


/** Greets with "220 …" and, `gapMs` later, a second complete "220 …" (before reading anything). */
async function splitDoubleBanner(gapMs: number): Promise<number> {
  const srv = await startLoopbackServer((s) => {
    s.write('220 mx.f.test ESMTP\r\n');
    const second = setTimeout(() => s.writable && s.write('220 Welcome to the F mail service\r\n'), gapMs);
    s.on('close', () => clearTimeout(second));
    const lines = lineSplitter('latin1');
    s.on('data', (d) => {
      for (const line of lines(d)) {
        if (!s.writable) return;
        // A real link: our EHLO reaches the server one round trip after its first 220, so its second
        // 220 (written `gapMs` after the first) reaches us before EHLO's answer does.
        if (line.startsWith('EHLO')) setTimeout(() => s.writable && s.write('250-mx.f.test\r\n250 PIPELINING\r\n'), 60);
        else if (line.startsWith('RCPT')) s.write(/<alice@/.test(line) ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n');
        else if (line.startsWith('QUIT')) {
          s.write('221 bye\r\n');
          s.end();
        } else s.write('250 2.1.0 Ok\r\n');
      }
    });
  });
  track(srv);
  return srv.port;
}

describe('a greeting in two complete 220 replies, the second a moment later ', () => {
  it('the session still reaches RCPT (same as when both 220s arrive together)', async () => {
    const port = await splitDoubleBanner(10);
    const res = await runSession(sessionParams(port, ['alice@f.test']));
    expect(res.detail).toBeNull();
    expect(res.rcptReplies.map((r) => r?.code ?? null)).toEqual([250]);
  });

  it('an existing mailbox behind it is answered, not left unreachable (domain probe)', async () => {
    const port = await splitDoubleBanner(10);
    const r = await runProbe({
      targets: [{ host: 'mx.f.test', ip: '127.0.0.1', priority: 10 }],
      addresses: ['alice@f.test'],
      randomAddress: 'xrandom@f.test',
      knownCatchAll: null,
      ctx: smtpContext(port),
      deadlineMs: 4000,
      retryDelaysMs: [300, 600],
    });
    expect(r.settled.get('alice@f.test')?.outcome.finding).toBe('accepted');
  });
});
