// A shared hosting server (many small domains on one address) that keeps each client to two
// connections, turning the ones over it away without a 421: closed or reset right after accepting
// them, before any greeting. The server answers every session it lets in; each of its domains'
// addresses must get the answer it gives, never unknown/smtp_unreachable because one domain's first
// connections happened to be the ones turned away.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns, type FakeName } from './testing/fake-dns';
import { loopbackOptions } from './testing/loopback-options';
import { lineSplitter, startLoopbackServer } from './testing/loopback-server';

const DOMAINS = 5;
const PER_DOMAIN = 12;
let dns: FakeDns;

beforeAll(async () => {
  const names: Record<string, FakeName> = { 'mx.shared.test': { a: ['127.0.0.1'] } };
  for (let d = 0; d < DOMAINS; d++) names[`site${d}.test`] = { mx: [[10, 'mx.shared.test']] };
  dns = await startFakeDns(names);
});
afterAll(async () => {
  await dns.close();
});

/** Even-numbered users exist. */
const exists = (address: string): boolean => /^user\d*[02468]@/.test(address);

function startSharedHost(turnAway: (socket: net.Socket) => void) {
  let open = 0;
  return startLoopbackServer((socket) => {
    if (open >= 2) return turnAway(socket);
    open++;
    socket.on('close', () => open--);
    socket.write('220 shared.test ESMTP\r\n');
    const lines = lineSplitter();
    socket.on('data', (d) => {
      for (const line of lines(d)) {
        if (line.startsWith('EHLO')) socket.write('250-shared.test\r\n250-PIPELINING\r\n250 ENHANCEDSTATUSCODES\r\n');
        else if (line.startsWith('RCPT')) {
          const addr = /<([^>]*)>/.exec(line)?.[1] ?? '';
          socket.write(exists(addr) ? '250 2.1.5 Ok\r\n' : `550 5.1.1 <${addr}>: Recipient address rejected: User unknown in virtual mailbox table\r\n`);
        } else if (line.startsWith('QUIT')) socket.end('221 2.0.0 Bye\r\n');
        else socket.write('250 2.1.0 Ok\r\n');
      }
    });
  });
}

describe('a shared host that turns connections over its per-client limit away without a 421', () => {
  it.each([
    ['closed at once', (s: net.Socket) => void s.end()],
    ['reset at once', (s: net.Socket) => void s.resetAndDestroy()],
  ])('%s: every address of every domain on it gets its verdict', async (_name, turnAway) => {
    const server = await startSharedHost(turnAway);
    const v = createVerifier(loopbackOptions(dns.server, server.port, { greylistDeadlineMs: { realtime: 8000, bulk: 8000 } }));
    try {
      const emails = Array.from({ length: DOMAINS * PER_DOMAIN }, (_, i) => `user${i % PER_DOMAIN}@site${Math.floor(i / PER_DOMAIN)}.test`);
      const wrong: string[] = [];
      for await (const r of v.verifyBatch(emails, { mode: 'bulk' })) {
        const want = exists(r.email) ? 'deliverable/accepted' : 'undeliverable/mailbox_not_found';
        if (`${r.verdict}/${r.reason}` !== want) wrong.push(`${r.email}: ${r.verdict}/${r.reason} ${r.evidence.detail ?? ''}`);
      }
      expect(wrong).toEqual([]);
    } finally {
      await v.close();
      await server.close();
    }
  }, 30_000);
});
