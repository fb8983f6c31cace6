// A quoted local part that needs no quotes ("alice"@example.com is alice@example.com) is asked about in
// its bare form (RFC 5321 4.1.2: the form with the least quoting). A server that looks the quoted form
// up as it stands answered 550 5.1.1 for an existing mailbox: a false undeliverable.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationResult } from './contract';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { loopbackOptions } from './testing/loopback-options';
import { lineSplitter, startLoopbackServer, type LoopbackServer } from './testing/loopback-server';
import { wireLocalPart } from './syntax/parse-address';

let dns: FakeDns;
let server: LoopbackServer;
const rcpts: string[] = [];
beforeAll(async () => {
  dns = await startFakeDns({ 'quoted.test': { mx: [[10, 'mx.quoted.test']] }, 'mx.quoted.test': { a: ['127.0.0.1'] } });
  // Knows alice and "al ice" exactly as written (a lookup table keyed by the RCPT's local part).
  server = await startLoopbackServer((socket: net.Socket) => {
    socket.write('220 mx.quoted.test ESMTP\r\n');
    const lines = lineSplitter();
    socket.on('data', (d) => {
      let out = '';
      for (const line of lines(d)) {
        if (line.startsWith('EHLO')) out += '250-mx.quoted.test\r\n250-PIPELINING\r\n250 ENHANCEDSTATUSCODES\r\n';
        else if (line.startsWith('RCPT')) {
          const to = /<(.*)>/.exec(line)?.[1] ?? '';
          rcpts.push(to);
          out += to === 'alice@quoted.test' || to === '"al ice"@quoted.test' ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n';
        } else if (line.startsWith('QUIT')) return void socket.end(`${out}221 2.0.0 Bye\r\n`);
        else out += '250 2.1.0 Ok\r\n';
      }
      if (out) socket.write(out);
    });
  });
});
afterAll(async () => {
  await Promise.all([server.close(), dns.close()]);
});

async function verdicts(emails: string[]): Promise<Record<string, string>> {
  const v = createVerifier(loopbackOptions(dns.server, server.port));
  try {
    const got: Record<string, string> = {};
    for await (const r of v.verifyBatch(emails) as AsyncIterable<VerificationResult>) got[r.email] = `${r.verdict}/${r.reason}`;
    return got;
  } finally {
    await v.close();
  }
}

describe('quoted local parts on the wire', () => {
  it('"alice" is asked as alice: deliverable, not undeliverable; "al ice" keeps its quotes; the bare and quoted forms are one RCPT', async () => {
    rcpts.length = 0;
    const r = await verdicts(['"alice"@quoted.test', 'alice@quoted.test', '"al ice"@quoted.test', '"ghost"@quoted.test']);
    expect(r).toEqual({
      '"alice"@quoted.test': 'deliverable/accepted',
      'alice@quoted.test': 'deliverable/accepted',
      '"al ice"@quoted.test': 'deliverable/accepted',
      '"ghost"@quoted.test': 'undeliverable/mailbox_not_found',
    });
    const asked = rcpts.filter((t) => !/^[a-z0-9]{10,}@/.test(t)); // the random catch-all mailbox aside
    expect(asked.filter((t) => t === 'alice@quoted.test')).toHaveLength(1);
    expect(asked).not.toContain('"alice"@quoted.test');
    expect(asked).toContain('"al ice"@quoted.test');
    expect(asked).toContain('ghost@quoted.test');
  });

  it('the least quoting: quoted pairs undone, quotes kept only where a dot-atom cannot say it', () => {
    expect(wireLocalPart('"alice"')).toBe('alice');
    expect(wireLocalPart('"a\\lice.b"')).toBe('alice.b');
    expect(wireLocalPart('"first.last+tag"')).toBe('first.last+tag');
    expect(wireLocalPart('Alice')).toBe('Alice');
    for (const keep of ['"al ice"', '"a..b"', '".a"', '"a."', '""', '"a@b"', '"a\\"b"']) expect(wireLocalPart(keep)).toBe(keep);
  });
});
