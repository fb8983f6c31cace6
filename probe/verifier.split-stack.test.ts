// An MX host whose IPv4 address may never be connected to (0.0.0.0 here; on the internet also a
// private address published by mistake, or split-horizon DNS leaking the inside one) while its AAAA
// record is an address that may: only the A record was used when there was one, so the network guard
// refused it and the mailbox was never asked (unknown/blocked_address). A dual-stack MTA delivers
// there over IPv6; so the AAAA records of such a host are looked up and asked too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { startScriptedSmtp } from './testing/fake-smtp';
import { loopbackOptions } from './testing/loopback-options';

let dns: FakeDns;
let smtp: Awaited<ReturnType<typeof startScriptedSmtp>>;

beforeAll(async () => {
  smtp = await startScriptedSmtp({
    host: '::1',
    reply: (line) => {
      if (/^EHLO/i.test(line)) return '250-mx.split.test\r\n250 PIPELINING';
      if (/^MAIL/i.test(line)) return '250 2.1.0 Ok';
      if (/^RCPT/i.test(line)) return /<alice@/i.test(line) ? '250 2.1.5 Ok' : '550 5.1.1 User unknown';
      if (/^QUIT/i.test(line)) return '221 2.0.0 Bye';
      return '502 5.5.2 Error';
    },
  });
  dns = await startFakeDns({
    'split.test': { mx: [[10, 'mx.split.test']] },
    'mx.split.test': { a: ['0.0.0.0'], aaaa: ['::1'] },
  });
});
afterAll(async () => {
  await smtp.close();
  await dns.close();
});

describe('an MX host whose A record may not be connected to but whose AAAA may', () => {
  it('asks the mailboxes over IPv6 instead of answering blocked_address', async () => {
    const v = createVerifier(loopbackOptions(dns.server, smtp.port));
    const results = new Map<string, { verdict: string; reason: string; mx_ip: string | null }>();
    for await (const r of v.verifyBatch(['alice@split.test', 'ghost@split.test'])) results.set(r.email, { verdict: r.verdict, reason: r.reason, mx_ip: r.evidence.mx_ip });
    await v.close();
    expect(results.get('alice@split.test')).toEqual({ verdict: 'deliverable', reason: 'accepted', mx_ip: '::1' });
    expect(results.get('ghost@split.test')).toEqual({ verdict: 'undeliverable', reason: 'mailbox_not_found', mx_ip: '::1' });
  });
});
