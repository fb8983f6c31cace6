// How a pipelined group's replies are counted before its RCPT answers are handed over (RFC 2920
// section 3.1: one reply per command, in order). The answers were once held for QUIT's reply, then
// handed over after a 25 ms look for it, which let a server whose reply one too many (every answer
// shifted onto the next recipient) came later be believed. Now the answers wait for the reply in
// QUIT's place (up to QUIT's wait): a 221 hands them over at once; none at all, or one more reply after
// it, means they are not their commands' (out of step: asked again one command at a time).
import { describe, expect, it } from 'vitest';
import { runProbe, smtpContext } from '../testing/domain-probe';
import { PipeliningFallback } from './pipelining-fallback';
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
  it('a QUIT reply that never comes leaves the group uncounted: no answer of it is kept (out of step)', async () => {
    const srv = await pipeliningServer(null);
    const res = await runSession(params(srv.port, ['alice@fake.test', 'nobody@fake.test'], { replyTimeoutMs: 600 }));
    expect(res.rcptReplies.map((r) => r?.code ?? null)).toEqual([null, null]);
    expect(res.outOfStep).toBe(true);
    expect(res.detail).toMatch(/QUIT's place/);
  });

  it('a QUIT answered "221" right behind the answers hands them over', async () => {
    const srv = await pipeliningServer('221 2.0.0 Bye');
    const res = await runSession(params(srv.port, ['alice@fake.test', 'nobody@fake.test']));
    expect(res.rcptReplies.map((r) => r?.code)).toEqual([250, 550]);
    expect(res.outOfStep).toBe(false);
  });

  it('a QUIT answered "250 Bye" on a connection left open, with nothing after it, keeps the answers', async () => {
    const srv = await pipeliningServer('250 2.0.0 Bye');
    const res = await runSession(params(srv.port, ['alice@fake.test'], { replyTimeoutMs: 600 }));
    expect(res.rcptReplies.map((r) => r?.code)).toEqual([250]);
    expect(res.outOfStep).toBe(false);
  });

  it('a group answered with one reply too many, all at once, keeps none of its answers (they are shifted)', async () => {
    const srv = await pipeliningServer('221 Bye', { answerFirstRcptTwice: true });
    const res = await runSession(params(srv.port, ['nobody@fake.test', 'alice@fake.test']));
    // Read in order the replies would say nobody 550, alice 550: alice's real 250 is in QUIT's place.
    expect(res.rcptReplies.map((r) => r?.code ?? null)).toEqual([null, null]);
    expect(res.detail).toMatch(/out of step/);
  });

  it('a server that never answers QUIT is asked again one command at a time, and its answer is kept (domain probe)', async () => {
    const srv = await pipeliningServer(null);
    const r = await runProbe({
      targets: [{ host: 'mx.fake.test', ip: '127.0.0.1', priority: 10 }],
      addresses: ['alice@fake.test', 'nobody@fake.test'],
      randomAddress: null,
      knownCatchAll: null,
      deadlineMs: 10_000,
      retryDelaysMs: [],
      ctx: smtpContext(srv.port, { replyTimeoutMs: 600, pipeliningFallback: new PipeliningFallback() }),
    });
    expect(Object.fromEntries([...r.settled].map(([a, x]) => [a, x.outcome.finding]))).toEqual({ 'alice@fake.test': 'accepted', 'nobody@fake.test': 'mailbox_not_found' });
  });
});
