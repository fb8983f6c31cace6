// A pipelining server that answers a pipelined group with one reply too many (a bare "250 Ok" ahead of
// MAIL's reply, then every real answer: each shifted onto the next command), whose last replies (the
// real answer of the last recipient, then QUIT's 221) come late: after the quick look for QUIT's reply
// the answers used to be handed over as read, so the recipient after an unknown one was "undeliverable"
// (the unknown one's 550) and the unknown one "deliverable" (MAIL's 250). With catch-all already known
// (no random mailbox in the group to give the shift away) that was believed. A reply one too many, however
// late it comes while the group is still being answered, means none of its answers is believed: they
// are asked again one command at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { loopbackOptions } from './testing/loopback-options';
import { lineSplitter, startLoopbackServer, type LoopbackServer } from './testing/loopback-server';

let dns: FakeDns;
let server: LoopbackServer;
/** How long the server takes over its last real RCPT answer in a pipelined group. */
const LAST_ANSWER_MS = 400;

beforeAll(async () => {
  dns = await startFakeDns({ 'shift.test': { mx: [[10, 'mx.shift.test']] }, 'mx.shift.test': { a: ['127.0.0.1'] } });
  server = await startLoopbackServer((socket) => {
    socket.write('220 mx.shift.test ESMTP\r\n');
    const lines = lineSplitter();
    const answer = (line: string): string => (/<alice@/.test(line) ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n');
    socket.on('data', (d) => {
      const got = lines(d);
      const rcpts = got.filter((l) => l.startsWith('RCPT'));
      if (got.some((l) => l.startsWith('MAIL')) && rcpts.length > 0) {
        // The pipelined group: a premature "250 Ok", MAIL's reply, the real answers, the last one late, then QUIT's.
        const real = rcpts.map(answer);
        const last = real.pop() ?? '';
        socket.write(`250 Ok\r\n250 2.1.0 Ok\r\n${real.join('')}`);
        setTimeout(() => {
          if (!socket.destroyed) socket.end(`${last}221 2.0.0 Bye\r\n`);
        }, LAST_ANSWER_MS);
        return;
      }
      let out = '';
      for (const line of got) {
        if (line.startsWith('EHLO')) out += '250-mx.shift.test\r\n250-PIPELINING\r\n250 ENHANCEDSTATUSCODES\r\n';
        else if (line.startsWith('RCPT')) out += answer(line);
        else if (line.startsWith('QUIT')) {
          socket.end(`${out}221 2.0.0 Bye\r\n`);
          return;
        } else out += '250 2.1.0 Ok\r\n';
      }
      if (out) socket.write(out);
    });
  });
});
afterAll(async () => {
  await server.close();
  await dns.close();
});

describe('a pipelined group whose one reply too many comes late', () => {
  it.each([
    ['an unknown mailbox before a real one', ['ghost@shift.test', 'alice@shift.test']],
    ['a real mailbox before an unknown one', ['alice@shift.test', 'ghost@shift.test']],
  ])('is not believed (%s): every address gets its true verdict, never a false "undeliverable" or "deliverable"', { timeout: 30_000 }, async (_, emails) => {
    const v = createVerifier(loopbackOptions(dns.server, server.port));
    try {
      const got: Record<string, string> = {};
      // Catch-all already known (a fleet peer's answer): no random mailbox in the group.
      for await (const r of v.verifyBatch(emails, { catchAllHints: { 'shift.test': false } })) got[r.email] = `${r.verdict}/${r.reason}`;
      expect(got).toEqual({ 'alice@shift.test': 'deliverable/accepted', 'ghost@shift.test': 'undeliverable/mailbox_not_found' });
    } finally {
      await v.close();
    }
  });
});

describe('a server asked one command at a time that answers MAIL twice (its sender check finishing late)', () => {
  let dns2: FakeDns;
  let twice: LoopbackServer;
  beforeAll(async () => {
    dns2 = await startFakeDns({ 'twice.test': { mx: [[10, 'mx.twice.test']] }, 'mx.twice.test': { a: ['127.0.0.1'] } });
    twice = await startLoopbackServer((socket) => {
      socket.write('220 mx.twice.test ESMTP\r\n');
      const lines = lineSplitter();
      let rcpts = 0;
      // Replies go out in order, each after the one before it (a slow one holds back those behind it).
      let chain = Promise.resolve();
      const send = (text: string, delayMs = 0): void => {
        chain = chain.then(() => new Promise<void>((resolve) => setTimeout(() => (socket.destroyed ? undefined : socket.write(text), resolve()), delayMs)));
      };
      socket.on('data', (d) => {
        for (const line of lines(d)) {
          if (line.startsWith('EHLO')) send('250-mx.twice.test\r\n250 ENHANCEDSTATUSCODES\r\n');
          else if (line.startsWith('MAIL')) send('250 2.1.0 Sender ok\r\n');
          else if (line.startsWith('RCPT')) {
            const real = /<alice@/.test(line) ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n';
            // MAIL's second reply comes as the first RCPT arrives; that RCPT's own answer a moment later.
            if (++rcpts === 1) send('250 2.1.0 Sender verified\r\n');
            send(real, rcpts === 1 ? 30 : 0);
          } else if (line.startsWith('QUIT')) {
            send('221 2.0.0 Bye\r\n');
            chain = chain.then(() => void socket.end());
          } else send('250 2.0.0 Ok\r\n');
        }
      });
    });
  });
  afterAll(async () => {
    await twice.close();
    await dns2.close();
  });

  it('gives no address another one\'s answer: never a false "undeliverable" or "deliverable"', { timeout: 30_000 }, async () => {
    const v = createVerifier(loopbackOptions(dns2.server, twice.port));
    try {
      const got: Record<string, string> = {};
      for await (const r of v.verifyBatch(['ghost@twice.test', 'alice@twice.test'], { catchAllHints: { 'twice.test': false } })) got[r.email] = `${r.verdict}/${r.reason}`;
      // Each answer read may be its neighbour's: unknown is honest; the other verdict never is.
      expect(got['alice@twice.test']).not.toBe('undeliverable/mailbox_not_found');
      expect(got['ghost@twice.test']).not.toBe('deliverable/accepted');
    } finally {
      await v.close();
    }
  });
});
