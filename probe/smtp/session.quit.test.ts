// Regression test: the pipelined group's QUIT reply was awaited (and the reply after it, when QUIT's
// was not 221) BEFORE the session's RCPT answers were handed over. A server that answers QUIT late,
// never, or with something other than 221 (and keeps the connection open) held back answers that
// were already in, for up to 2 × min(replyTimeout, 2000) ms — on the verdict's critical path, and
// past the check's deadline they were lost altogether. The answers are handed over at once; QUIT's
// reply is read in the background.
import { describe, expect, it } from 'vitest';
import { runProbe, smtpContext } from '../testing/domain-probe';
import { runSession, type SessionParams } from './session';
import { closedAfterEach, sessionParams } from '../testing/session-params';
import { lineSplitter, startLoopbackServer } from '../testing/loopback-server';

const track = closedAfterEach();

const params = (port: number, rcpts: string[], over: Partial<SessionParams> = {}): SessionParams => sessionParams(port, rcpts, { host: 'mx.fake.test', replyTimeoutMs: 5000, ...over });

/**
 * A PIPELINING server that answers every RCPT at once; QUIT gets `quit` (null: no answer) and the
 * connection stays open (the server closes it only on its own idle timeout, far later).
 */
async function pipeliningServer(quit: string | null, o: { answerFirstRcptTwice?: boolean } = {}) {
  const srv = await startLoopbackServer((socket) => {
    socket.write('220 fake.test ESMTP\r\n');
    const lines = lineSplitter('latin1');
    socket.on('data', (d) => {
      let out = '';
      for (const line of lines(d)) {
        if (/^EHLO/i.test(line)) out += '250-fake.test\r\n250 PIPELINING\r\n';
        else if (/^RCPT/i.test(line)) {
          const answer = line.includes('nobody') ? '550 5.1.1 User unknown\r\n' : '250 2.1.5 Ok\r\n';
          out += o.answerFirstRcptTwice && !out.includes('2.1.5') && !out.includes('5.1.1') ? answer + answer : answer;
        }
        else if (/^QUIT/i.test(line)) out += quit === null ? '' : `${quit}\r\n`;
        else out += '250 2.1.0 Ok\r\n';
      }
      if (out && socket.writable) socket.write(out);
    });
  });
  return track(srv);
}

describe('pipelined QUIT-reply wait ', () => {
  it('hands over RCPT answers already received without waiting for a QUIT reply that never comes', async () => {
    const srv = await pipeliningServer(null);
    const t0 = Date.now();
    const res = await runSession(params(srv.port, ['alice@fake.test', 'nobody@fake.test']));
    const ms = Date.now() - t0;
    expect(res.rcptReplies.map((r) => r?.code)).toEqual([250, 550]);
    // Before this change the answers came back as soon as the last RCPT was answered (~tens of ms).
    expect(ms).toBeLessThan(1000);
  });

  it('a QUIT answered "250 Bye" on a connection left open does not delay the answers already received', async () => {
    const srv = await pipeliningServer('250 2.0.0 Bye');
    const t0 = Date.now();
    const res = await runSession(params(srv.port, ['alice@fake.test']));
    const ms = Date.now() - t0;
    expect(res.rcptReplies.map((r) => r?.code)).toEqual([250]);
    expect(ms).toBeLessThan(1000);
  });

  it('a group answered with one reply too many, all at once, keeps none of its answers (they are shifted)', async () => {
    const srv = await pipeliningServer('221 Bye', { answerFirstRcptTwice: true });
    const res = await runSession(params(srv.port, ['nobody@fake.test', 'alice@fake.test']));
    // Read in order the replies would say nobody 550, alice 550: alice's real 250 is in QUIT's place.
    expect(res.rcptReplies.map((r) => r?.code ?? null)).toEqual([null, null]);
    expect(res.detail).toMatch(/out of step/);
  });

  it('an answer received well before the check is cut off is not lost waiting for QUIT\'s reply (domain probe)', async () => {
    const srv = await pipeliningServer(null);
    const signal = AbortSignal.timeout(1200);
    const r = await runProbe({
      targets: [{ host: 'mx.fake.test', ip: '127.0.0.1', priority: 10 }],
      addresses: ['alice@fake.test'],
      randomAddress: null,
      knownCatchAll: null,
      deadlineMs: 1200,
      retryDelaysMs: [],
      ctx: smtpContext(srv.port, { replyTimeoutMs: 5000 }),
      signal,
    }).catch((err: unknown) => ({ error: err as Error, settled: new Map() }));
    // The RCPT was answered 250 within a few ms; the check was cut off at 1.2 s.
    expect([...r.settled.keys()]).toEqual(['alice@fake.test']);
  });
});
