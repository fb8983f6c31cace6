// A server that offers PIPELINING but loses pipelined commands: it reads one command per TCP segment
// and drops the rest of the segment (a broken SMTP proxy or firewall "fixup", an MTA that flushes its
// input buffer after each reply). A pipelined group gets MAIL's reply and then nothing: its RCPTs are
// lost, not ignored. Asked one command at a time, it answers every one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { loopbackOptions } from './testing/loopback-options';
import { startLoopbackServer } from './testing/loopback-server';

let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns({ 'lossy.test': { mx: [[10, 'mx.lossy.test']] }, 'mx.lossy.test': { a: ['127.0.0.1'] } });
});
afterAll(() => dns.close());

/** `keepLast`: the last command line of a segment is read too (QUIT, after a pipelined group). */
async function startLossyServer(keepLast = false): Promise<{ port: number; close(): Promise<void> }> {
  return startLoopbackServer((socket) => {
    socket.write('220 mx.lossy.test ESMTP\r\n');
    socket.on('data', (d) => {
      // Only the first command line of each segment is read; the rest of the segment is lost.
      const all = d.toString('latin1').split('\r\n').filter(Boolean);
      const lines = keepLast && all.length > 1 ? [all[0] ?? '', all[all.length - 1] ?? ''] : all.slice(0, 1);
      for (const line of lines) {
        if (line.startsWith('EHLO')) socket.write('250-mx.lossy.test\r\n250-PIPELINING\r\n250 ENHANCEDSTATUSCODES\r\n');
        else if (line.startsWith('RCPT')) socket.write(/<(alice|bob)@/.test(line) ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n');
        else if (line.startsWith('QUIT')) socket.end('221 2.0.0 Bye\r\n');
        else socket.write('250 2.1.0 Ok\r\n');
      }
    });
  });
}

describe('a server that offers PIPELINING and loses the pipelined commands', () => {
  it.each([false, true])('is asked again one command at a time, and every address gets its answer, not unknown/smtp_unreachable (QUIT answered in place of the RCPTs: %s)', { timeout: 30_000 }, async (keepLast) => {
    const server = await startLossyServer(keepLast);
    const v = createVerifier(loopbackOptions(dns.server, server.port, { replyTimeoutMs: 600 }));
    try {
      const got: Record<string, string> = {};
      for await (const r of v.verifyBatch(['alice@lossy.test', 'ghost@lossy.test', 'bob@lossy.test'])) got[r.email] = `${r.verdict}/${r.reason}`;
      expect(got).toEqual({ 'alice@lossy.test': 'deliverable/accepted', 'ghost@lossy.test': 'undeliverable/mailbox_not_found', 'bob@lossy.test': 'deliverable/accepted' });
    } finally {
      await v.close();
      await server.close();
    }
  });
});
