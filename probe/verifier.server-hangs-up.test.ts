// Servers that hang up instead of answering: at an unknown recipient (an anti-harvesting drop, no
// reply), right after refusing our EHLO, or right after the TLS handshake. What the server never said is not held against the
// mailboxes it never read, and a refusal it did say is kept.
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { loopbackOptions } from './testing/loopback-options';
import { lineSplitter, startLoopbackServer } from './testing/loopback-server';

let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns({ 'hangup.test': { mx: [[10, 'mx.hangup.test']] }, 'mx.hangup.test': { a: ['127.0.0.1'] } });
});
afterAll(() => dns.close());

/**
 * A server answering each command line with `answer(line, socket)` (null: it has dealt with the line
 * itself). `stats.connections`: the connections it accepted.
 */
async function verifyAll(answer: (line: string, socket: net.Socket) => string | null, emails: string[], pipelining = true, stats = { connections: 0 }): Promise<Record<string, string>> {
  const server = await startLoopbackServer((socket) => {
    stats.connections++;
    socket.write('220 mx.hangup.test ESMTP\r\n');
    const lines = lineSplitter();
    socket.on('data', (d) => {
      for (const line of lines(d)) {
        if (socket.destroyed) return;
        const own = answer(line, socket);
        if (own !== null) socket.write(`${own}\r\n`);
        else if (line.startsWith('EHLO')) socket.write(`250-mx.hangup.test\r\n250 ${pipelining ? 'PIPELINING' : '8BITMIME'}\r\n`);
        else if (line.startsWith('HELO')) socket.write('250 mx.hangup.test\r\n');
        else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 2.1.0 Ok\r\n');
      }
    });
  });
  const v = createVerifier(loopbackOptions(dns.server, server.port));
  try {
    const got: Record<string, string> = {};
    for await (const r of v.verifyBatch(emails)) got[r.email] = `${r.verdict}/${r.reason}`;
    return got;
  } finally {
    await v.close();
    await server.close();
  }
}

describe('a server that drops the connection, without a reply, at an unknown recipient', () => {
  // alice exists; at any other RCPT the connection is reset. Sent in one pipelined group (or one by
  // one), alice comes after unknown ones: the server never read her RCPT before it hung up.
  const dropAtUnknown = (line: string, socket: net.Socket): string | null => {
    if (!line.startsWith('RCPT')) return null;
    if (/<alice@/.test(line)) return '250 2.1.5 Ok';
    socket.destroy();
    return null;
  };
  const emails = ['g1@hangup.test', 'g2@hangup.test', 'alice@hangup.test', 'g3@hangup.test'];

  it.each([true, false])('the existing mailbox asked after them is still asked and found deliverable; the unknown ones are never invalid (pipelining %s)', async (pipelining) => {
    const got = await verifyAll(dropAtUnknown, emails, pipelining);
    expect(got['alice@hangup.test']).toBe('deliverable/accepted');
    for (const g of ['g1', 'g2', 'g3']) expect(got[`${g}@hangup.test`]).toBe('unknown/smtp_unreachable');
  });
});

describe('a server that hangs up at every recipient (its recipient check is broken)', () => {
  it('is not reconnected to once or twice per address: after a few such sessions every recipient of one counts as unanswered', async () => {
    const stats = { connections: 0 };
    const emails = Array.from({ length: 60 }, (_, i) => `user${i}@hangup.test`);
    const got = await verifyAll((line, socket) => (line.startsWith('RCPT') ? (socket.destroy(), null) : null), emails, true, stats);
    expect(new Set(Object.values(got))).toEqual(new Set(['unknown/smtp_unreachable']));
    // Blaming one recipient per session would take two sessions per address (about 120).
    expect(stats.connections).toBeLessThanOrEqual(20);
  });
});

describe('a server that refuses our EHLO and hangs up', () => {
  it.each(['550 5.7.1 Client host rejected: access denied', '554 5.7.1 Service unavailable; client blocked'])('"%s", then the close: a policy refusal (the server said why), not an unreachable server', async (refusal) => {
    const got = await verifyAll((line, socket) => {
      if (!line.startsWith('EHLO')) return null;
      socket.end(`${refusal}\r\n`);
      return null;
    }, ['alice@hangup.test']);
    expect(got).toEqual({ 'alice@hangup.test': 'unknown/policy_block' });
  });
});

describe('a server whose TLS breaks right after the handshake (it offers STARTTLS, the handshake completes, then it hangs up)', () => {
  const require = createRequire(import.meta.url);
  const { key, cert } = (require(path.join(path.dirname(require.resolve('smtp-server')), 'tls-options.js')) as () => tls.SecureContextOptions)();

  /** Answers in plain text as a normal server; inside TLS it hangs up at once (`atOnce`) or at the EHLO. */
  async function startBrokenTls(atOnce: boolean): Promise<{ port: number; close(): Promise<void> }> {
    return startLoopbackServer((raw) => {
      raw.write('220 mx.hangup.test ESMTP\r\n');
      const speak = (s: net.Socket, secure: boolean): void => {
        const lines = lineSplitter();
        const onData = (d: Buffer): void => {
          for (const line of lines(d)) {
            if (line.startsWith('EHLO')) {
              if (secure) return void s.destroy();
              s.write('250-mx.hangup.test\r\n250-PIPELINING\r\n250 STARTTLS\r\n');
            } else if (line.startsWith('STARTTLS') && !secure) {
              s.write('220 2.0.0 Ready to start TLS\r\n');
              s.off('data', onData);
              const secured = new tls.TLSSocket(s, { isServer: true, key, cert });
              secured.on('error', () => undefined);
              if (atOnce) secured.once('secure', () => secured.destroy());
              return speak(secured, true);
            } else if (line.startsWith('RCPT')) s.write(/<alice@/.test(line) ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n');
            else if (line.startsWith('QUIT')) s.end('221 bye\r\n');
            else s.write('250 2.1.0 Ok\r\n');
          }
        };
        s.on('data', onData);
      };
      speak(raw, false);
    });
  }

  it.each([true, false])('is asked again in plain text, as after a failed handshake, and answers (hangs up at once: %s)', async (atOnce) => {
    const server = await startBrokenTls(atOnce);
    const v = createVerifier(loopbackOptions(dns.server, server.port));
    try {
      const got: Record<string, string> = {};
      for await (const r of v.verifyBatch(['alice@hangup.test', 'ghost@hangup.test'])) got[r.email] = `${r.verdict}/${r.reason}`;
      expect(got).toEqual({ 'alice@hangup.test': 'deliverable/accepted', 'ghost@hangup.test': 'undeliverable/mailbox_not_found' });
    } finally {
      await v.close();
      await server.close();
    }
  });
});
