// A session's recipient limit as qmail's MAXRCPT patch and indimail write it: '553 sorry, too many
// recipients (#5.7.1)', '557 sorry, too many recipients (#5.7.1)'. RFC 5321 4.5.3.1.10 wants 452
// (RFC 821's 552), but what it says is the same: the recipients past the limit were not asked, and
// each must be asked again in a session of its own, not answered with the limit as a policy refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { startScriptedSmtp } from './testing/fake-smtp';
import { loopbackOptions } from './testing/loopback-options';

let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns({ 'limit.test': { mx: [[10, 'mx.limit.test']] }, 'mx.limit.test': { a: ['127.0.0.1'] } });
});
afterAll(() => dns.close());

/** A qmail-style server that takes `limit` recipients per session and refuses the rest with `refusal`. */
function limited(refusal: string, limit = 1): Parameters<typeof startScriptedSmtp>[0] {
  return {
    reply: (line, state) => {
      if (line.startsWith('EHLO')) return '250-mx.limit.test\r\n250 PIPELINING';
      if (line.startsWith('RCPT')) {
        if (state.commands.filter((c) => c.startsWith('RCPT')).length > limit) return refusal;
        return /<alice@/.test(line) ? '250 ok' : '553 sorry, no mailbox here by that name (#5.1.1)';
      }
      return line.startsWith('QUIT') ? '221 bye' : '250 ok';
    },
  };
}

describe('a recipient limit refused with a 553 or 557 (qmail, indimail)', () => {
  for (const refusal of ['553 sorry, too many recipients (#5.7.1)', '557 sorry, too many recipients (#5.7.1)', '554 Too many recipients']) {
    it(`${refusal}: every address gets its own answer`, { timeout: 30_000 }, async () => {
      const server = await startScriptedSmtp(limited(refusal));
      const v = createVerifier(loopbackOptions(dns.server, server.port));
      try {
        const [alice, bob, carol] = await Promise.all(['alice@limit.test', 'bob@limit.test', 'carol@limit.test'].map((e) => v.verify(e)));
        expect(alice).toMatchObject({ verdict: 'deliverable', reason: 'accepted' });
        expect(bob).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
        expect(carol).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
      } finally {
        await v.close();
        await server.close();
      }
    });
  }
});
