// What a user sees from the whole engine (DNS + SMTP + verdict) behind a server that sends more
// replies than asked for: an existing mailbox is never reported invalid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier, type ProbeOptions } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { startScriptedSmtp, type RunningServer } from './testing/fake-smtp';
import { loopbackOptions } from './testing/loopback-options';

let dns: FakeDns;
let smtp: RunningServer;

beforeAll(async () => {
  dns = await startFakeDns({
    'banner.test': { mx: [[10, 'mx.banner.test']] },
    'mx.banner.test': { a: ['127.0.0.1'] },
  });
  // A two-line greeting written without the "220-" continuation mark: two complete 220 replies.
  smtp = await startScriptedSmtp({
    banner: '220 mx.banner.test ESMTP\r\n220 Welcome to the Banner mail service',
    reply: (line) => {
      if (line.startsWith('EHLO')) return '250-mx.banner.test\r\n250 PIPELINING';
      if (line.startsWith('RCPT')) return /<alice@/.test(line) ? '250 2.1.5 Ok' : '550 5.1.1 User unknown';
      return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
    },
  });
});
afterAll(async () => {
  await smtp.close();
  await dns.close();
});

const opts = (o: Partial<ProbeOptions> = {}): ProbeOptions => loopbackOptions(dns.server, smtp.port, o);

describe('a server whose greeting is two complete replies', () => {
  it('an existing mailbox (250 at RCPT) is never reported invalid', async () => {
    const v = createVerifier(opts());
    try {
      const alice = await v.verify('alice@banner.test');
      expect(alice.result).not.toBe('invalid');
      expect(alice.verdict).toBe('deliverable');
    } finally {
      await v.close();
    }
  });
});
