// Provider classification on the mail world goes by the server that answered: an on-premise
// Exchange server is not Microsoft 365, and a backup MX's name (a gateway's, Microsoft's) does not
// label the answer of another server of the domain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { expectedOutcome, fastProbeOptions, outcome, verifyWorld } from './mailworld-helpers';

const domains: DomainSpec[] = [
  {
    // An on-premise Exchange server (its own host name, Exchange's stock banner) accepting every recipient.
    domain: 'onprem-exchange.test',
    scenario: 'on-premise Exchange, accept-all',
    mx: [{ host: 'mail.onprem-exchange.test', priority: 10, ip: '127.91.0.1', server: { persona: 'm365' } }],
    catchAll: true,
    addresses: ['alice'],
  },
  {
    // The domain's own (Postfix-like) server answers; a Proofpoint host is only the backup MX.
    domain: 'backup-gw.test',
    scenario: 'own server first, Proofpoint backup MX',
    mx: [
      { host: 'mx.backup-gw.test', priority: 10, ip: '127.91.0.2' },
      { host: 'mx0b-backup-gw.pphosted.com', priority: 20, ip: '127.91.0.3', server: { persona: 'proofpoint' } },
    ],
    rejectUnknown: 'policy',
    mailboxes: { alice: 'ok' },
    addresses: ['alice'],
  },
  {
    // The Microsoft 365 MX does not take connections; a store-and-forward backup MX (not Microsoft) answers.
    domain: 'm365-backup.test',
    scenario: 'M365 primary down, non-Microsoft accept-all backup MX answers',
    mx: [
      { host: 'm365-backup-test.mail.protection.outlook.com', priority: 10, ip: '127.91.0.4', server: { persona: 'm365', mode: 'refused' } },
      { host: 'backup.m365-backup.test', priority: 20, ip: '127.91.0.5', server: { acceptAll: true } },
    ],
    mailboxes: { alice: 'ok' },
    addresses: ['alice'],
  },
];

let world: MailWorld;
let results: Map<string, VerificationResult>;
beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 2 });
  results = await verifyWorld(world, { ...fastProbeOptions(world), dnsTimeoutMs: 3000 });
});
afterAll(async () => {
  await world?.stop();
});

describe('the provider of the server that answered', () => {
  it('an on-premise Exchange server is not reported as a Microsoft 365 tenant', () => {
    const r = results.get('alice@onprem-exchange.test');
    expect(r?.evidence.provider).toBeNull();
    expect(r?.evidence.detail ?? '').not.toMatch(/Microsoft 365/);
  });

  it("an answer from the domain's own server is not a security gateway's because a backup MX is named *.pphosted.com", () => {
    const r = results.get('alice@backup-gw.test');
    expect(r?.evidence.mx_host).toBe('mx.backup-gw.test');
    expect(outcome([r as VerificationResult])).toEqual(expectedOutcome(world, ['alice@backup-gw.test']));
    expect(r?.evidence.provider).toBeNull();
  });

  it("an accept-all backup MX's answer is not a Microsoft 365 tenant in Internal Relay because the primary MX is Microsoft's", () => {
    const r = results.get('alice@m365-backup.test');
    expect(r?.evidence.mx_host).toBe('backup.m365-backup.test');
    expect(r?.evidence.provider).toBeNull();
    expect(r?.evidence.detail ?? '').not.toMatch(/Microsoft 365/);
  });
});
