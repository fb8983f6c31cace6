// Regression tests: what a user is told about an address whose mailbox the server accepts, when the
// domain's flags (disposable, free provider) come from the maintained lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationResultSchema } from '../../probe/contract';
import { createVerifier, type ProbeOptions } from '../../probe/index';
import { startFakeDns, type FakeDns } from '../../probe/testing/fake-dns';
import { startScriptedSmtp, type RunningServer } from '../../probe/testing/fake-smtp';

let dns: FakeDns;
let smtp: RunningServer;

// Real businesses register names under these public suffixes (PSL: pp.ua is a Ukrainian
// second-level registry, msk.ru Moscow's, nom.za South Africa's personal names).
const BUSINESS_DOMAINS = ['kvitka.pp.ua', 'stroygrad.msk.ru', 'smith.nom.za'];

beforeAll(async () => {
  const names: Parameters<typeof startFakeDns>[0] = { 'mx.hosting.test': { a: ['127.0.0.1'] } };
  for (const d of BUSINESS_DOMAINS) names[d] = { mx: [[10, 'mx.hosting.test']] };
  // A throw-away domain not (yet) on any list, whose mail is received by Mailinator's servers.
  names['inbox-7731.test'] = { mx: [[10, 'mail.mailinator.com']] };
  names['mail.mailinator.com'] = { a: ['127.0.0.1'] };
  dns = await startFakeDns(names);
  smtp = await startScriptedSmtp({
    reply: (line) => {
      if (line.startsWith('EHLO')) return '250-fake\r\n250 PIPELINING';
      if (line.startsWith('RCPT')) return /<owner@/i.test(line) ? '250 2.1.5 ok' : '550 5.1.1 User unknown';
      return line.startsWith('QUIT') ? '221 bye' : '250 ok';
    },
  });
});
afterAll(async () => {
  await smtp.close();
  await dns.close();
});

const opts = (): ProbeOptions => ({
  dnsServers: [dns.server],
  dnsTimeoutMs: 2000,
  smtpPort: smtp.port,
  heloName: 'probe.test',
  allowPrivateNetworks: true,
  connectTimeoutMs: 2000,
  bannerTimeoutMs: 2000,
  replyTimeoutMs: 2000,
});

describe('disposable flag on domains registered under a public suffix', () => {
  it.each(BUSINESS_DOMAINS)('an accepted mailbox at %s (random mailbox refused) is valid, not risky/disposable', async (domain) => {
    const v = createVerifier(opts());
    try {
      const r = verificationResultSchema.parse(await v.verify(`owner@${domain}`));
      expect({ verdict: r.verdict, result: r.result, reason: r.reason, disposable: r.disposable, catch_all: r.catch_all }).toEqual({
        verdict: 'deliverable',
        result: 'valid',
        reason: 'accepted',
        disposable: false,
        catch_all: false,
      });
      expect(r.score).toBe(100);
    } finally {
      await v.close();
    }
  });
});

describe('disposable detection by mail server', () => {
  it('flags a domain whose MX is a disposable provider\'s mail server (mail.mailinator.com)', async () => {
    const v = createVerifier(opts());
    try {
      const r = verificationResultSchema.parse(await v.verify('owner@inbox-7731.test'));
      expect({ verdict: r.verdict, reason: r.reason, disposable: r.disposable }).toEqual({ verdict: 'risky', reason: 'disposable', disposable: true });
    } finally {
      await v.close();
    }
  });
});
