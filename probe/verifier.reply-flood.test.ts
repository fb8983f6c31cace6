// A server that floods replies nobody asked for while the session waits (here for the node's RCPT
// budget at that MX, mxRcptBudget): every reply that came was kept, unread, without bound, so one
// hostile server could fill the probe node's memory (a few MB a second of "250 ok" lines became
// hundreds of MB of reply objects). The session now hangs up once more replies wait unread than any
// command group of ours could have asked for, and the address is not reported invalid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { loopbackOptions } from './testing/loopback-options';
import { lineSplitter, startLoopbackServer } from './testing/loopback-server';

let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns({ 'flood.test': { mx: [[10, 'mx.flood.test']] }, 'mx.flood.test': { a: ['127.0.0.1'] } });
});
afterAll(() => dns.close());

const FLOOD_BYTES = 8 * 1024 * 1024;

/** 64 KB of short '250 ok' replies, or one 200-line reply of 4000-character lines (800 KB). */
const SHORT = Buffer.from('250 ok\r\n'.repeat(8192));
const LONG = Buffer.from(`${Array.from({ length: 199 }, () => `250-${'x'.repeat(4000)}\r\n`).join('')}250 ${'x'.repeat(4000)}\r\n`);

describe('a server flooding replies while the session waits for the RCPT budget', () => {
  for (const [name, chunk, total] of [
    ['short replies', SHORT, FLOOD_BYTES],
    ['replies of 200 lines of 4000 characters (their text is cut to 8192, their lines are kept)', LONG, 4 * FLOOD_BYTES],
  ] as const)
  it(`${name}: hung up on before the whole flood is sent, and no address is reported invalid`, { timeout: 60_000 }, async () => {
    let flushed = 0;
    let flooding: Promise<void> | null = null;
    const srv = await startLoopbackServer((socket) => {
      const lines = lineSplitter();
      socket.write('220 mx.flood.test ESMTP\r\n');
      const flood = async (): Promise<void> => {
        while (flushed < total && !socket.destroyed) {
          if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r).once('close', r));
          if (!socket.destroyed) flushed += chunk.length;
        }
      };
      socket.on('data', (d) => {
        for (const l of lines(d)) {
          if (l.startsWith('EHLO')) socket.write('250 mx.flood.test\r\n'); // no PIPELINING: one RCPT at a time
          else if (l.startsWith('RCPT')) {
            socket.write('250 2.1.5 Ok\r\n');
            flooding ??= flood();
          } else if (l.startsWith('QUIT')) socket.end('221 bye\r\n');
          else socket.write('250 2.0.0 Ok\r\n');
        }
      });
    });
    const v = createVerifier(loopbackOptions(dns.server, srv.port, { mxRcptBudget: { rcpts: 1, windowMs: 3000 } }));
    try {
      const alice = await v.verify('alice@flood.test');
      expect(alice.result).not.toBe('invalid');
      await flooding;
      expect(flushed).toBeLessThan(total);
    } finally {
      await v.close();
      await srv.close();
    }
  });
});
