// Multi-line replies longer than the 200 lines the connection keeps: a long legal notice in the
// greeting ("220-WARNING: authorised use only …"), an EHLO listing hundreds of extensions. Like an
// MTA, the engine reads such a reply to its last line and keeps its first lines; it used to drop the
// connection ("reply has too many lines") and every address of the domain was unknown/smtp_unreachable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { startScriptedSmtp } from './testing/fake-smtp';
import { loopbackOptions } from './testing/loopback-options';
import { startLoopbackServer } from './testing/loopback-server';

let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns({ 'long.test': { mx: [[10, 'mx.long.test']] }, 'mx.long.test': { a: ['127.0.0.1'] } });
});
afterAll(() => dns.close());

const lines = (code: string, n: number, text: (i: number) => string, last: string): string =>
  [...Array.from({ length: n }, (_, i) => `${code}-${text(i)}`), `${code} ${last}`].join('\r\n');

function server(o: { banner?: string; ehlo?: string }): Parameters<typeof startScriptedSmtp>[0] {
  return {
    banner: o.banner ?? '220 mx.long.test ESMTP',
    reply: (line) => {
      if (line.startsWith('EHLO')) return o.ehlo ?? '250-mx.long.test\r\n250 PIPELINING';
      if (line.startsWith('RCPT')) return /<alice@/.test(line) ? '250 2.1.5 Ok' : '550 5.1.1 User unknown';
      return line.startsWith('QUIT') ? '221 bye' : '250 2.0.0 Ok';
    },
  };
}

async function verifyBoth(script: Parameters<typeof startScriptedSmtp>[0]) {
  const s = await startScriptedSmtp(script);
  const v = createVerifier(loopbackOptions(dns.server, s.port));
  try {
    return await Promise.all([v.verify('alice@long.test'), v.verify('bob@long.test')]);
  } finally {
    await v.close();
    await s.close();
  }
}

describe('replies of more than 200 lines', () => {
  it('a greeting with a 300-line legal notice: each address gets its answer', { timeout: 30_000 }, async () => {
    const [alice, bob] = await verifyBoth(server({ banner: lines('220', 300, (i) => `WARNING: authorised use only, line ${i + 1} of the notice`, 'mx.long.test ESMTP') }));
    expect(alice).toMatchObject({ verdict: 'deliverable', reason: 'accepted' });
    expect(bob).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
  });

  it('an EHLO reply of 250 extensions: each address gets its answer', { timeout: 30_000 }, async () => {
    const [alice, bob] = await verifyBoth(server({ ehlo: lines('250', 250, (i) => (i === 0 ? 'mx.long.test' : `X-EXTENSION-${i}`), 'PIPELINING') }));
    expect(alice).toMatchObject({ verdict: 'deliverable', reason: 'accepted' });
    expect(bob).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
  });

  it('a greeting that never ends (continuation lines forever) is a server that did not answer, and is left', { timeout: 30_000 }, async () => {
    const srv = await startLoopbackServer((socket) => {
      let i = 0;
      const timer = setInterval(() => {
        if (!socket.writable) return clearInterval(timer);
        socket.write(Array.from({ length: 50 }, () => `220-still greeting ${i++}\r\n`).join(''));
      }, 5);
      socket.on('close', () => clearInterval(timer));
    });
    const v = createVerifier(loopbackOptions(dns.server, srv.port, { bannerTimeoutMs: 1000 }));
    try {
      const alice = await v.verify('alice@long.test');
      expect(alice).toMatchObject({ verdict: 'unknown', reason: 'smtp_unreachable' });
    } finally {
      await v.close();
      await srv.close();
    }
  });
});
