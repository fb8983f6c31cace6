// More provider behaviours (issue #11 item 7) on the mail world, each with ground truth: security
// gateways that greylist or tarpit before answering, a gateway that calls a mailbox disabled while it
// accepts made-up addresses, a gateway that hangs up at unknown recipients, Microsoft 365 with
// directory-based edge blocking off (every recipient accepted at RCPT, unknown ones bounced later),
// and Google Workspace (multi-line 550-5.1.1, conclusive). Verdicts must be honest: no false
// invalid, never a confident valid where the mailbox cannot be verified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { expectedOutcome, falseUndeliverable, fastProbeOptions, outcome, resultFor, verifyEach } from './mailworld-helpers';

const suffix = 'providers.mailworld.test';
const ip = (n: number) => `127.78.${n}.1`;
const hosted = (n: number, host: string, server: NonNullable<DomainSpec['mx']>[number]['server']): DomainSpec['mx'] => [{ host, priority: 10, ip: ip(n), server }];
const domains: DomainSpec[] = [
  {
    domain: `gateway-greylist.${suffix}`,
    scenario: 'Mimecast-style gateway greylisting every recipient (451 4.7.1) for 400 ms, then accepting everyone',
    mx: hosted(1, 'us-smtp-inbound-1.mimecast.com', { persona: 'mimecast' }),
    greylistMs: 400,
    catchAll: true,
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'whoever'],
  },
  {
    domain: `gateway-greylist-validating.${suffix}`,
    scenario: 'Barracuda-style gateway greylisting for 400 ms, then refusing unknown users with 550 5.1.1 (conclusive)',
    mx: hosted(2, 'd2.ess.barracudanetworks.com', { persona: 'barracuda' }),
    greylistMs: 400,
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'ghost'],
  },
  {
    domain: `gateway-tarpit.${suffix}`,
    scenario: 'Proofpoint-style gateway tarpitting (greeting +300 ms, every reply +150 ms), accepting everyone',
    mx: hosted(3, 'mx0b-gateway-tarpit.pphosted.com', { persona: 'proofpoint', bannerDelayMs: 300, slowRepliesMs: 150 }),
    catchAll: true,
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'whoever'],
  },
  {
    domain: `gateway-states.${suffix}`,
    scenario: 'Proofpoint-style gateway accepting made-up addresses while calling one mailbox disabled and one full',
    mx: hosted(4, 'mx0a-gateway-states.pphosted.com', { persona: 'proofpoint' }),
    catchAll: true,
    mailboxes: { alice: 'ok', gone: 'disabled', full: 'full' },
    addresses: ['alice', 'gone', 'full'],
  },
  {
    domain: `m365-dbeb-off.${suffix}`,
    scenario: 'Microsoft 365 tenant with directory-based edge blocking off: every recipient accepted at RCPT, unknown ones bounced later',
    mx: hosted(5, 'm365-dbeb-off-providers-mailworld-test.mail.protection.outlook.com', { persona: 'm365' }),
    catchAll: true,
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'ghost'],
  },
  {
    domain: `google-workspace.${suffix}`,
    scenario: 'Google Workspace: multi-line greeting, multi-line 550-5.1.1 for unknown users (conclusive), 452 4.2.2 for a full inbox',
    mx: hosted(6, 'aspmx.l.google.com', { multiline: true }),
    mailboxes: { alice: 'ok', quota: 'full-temp' },
    addresses: ['alice', 'ghost', 'quota'],
  },
  {
    domain: `gateway-hangup.${suffix}`,
    scenario: 'Proofpoint-style gateway that hangs up at an unknown recipient (anti-harvesting) instead of refusing it',
    mx: hosted(7, 'mx0a-gateway-hangup.pphosted.com', { persona: 'proofpoint', hangUpAtUnknown: true }),
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'ghost'],
  },
];

let world: MailWorld;
let verifier: ReturnType<typeof createVerifier>;
let results: Map<string, VerificationResult>;

beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 2 });
  verifier = createVerifier(fastProbeOptions(world));
  results = await verifyEach(verifier, world);
});
afterAll(async () => {
  await verifier?.close();
  await world?.stop();
});

const get = (email: string): VerificationResult => resultFor(results, email);

describe('more provider behaviours on the mail world', () => {
  it('every address gets its ground truth: no false invalid, no confident valid where the mailbox cannot be verified', () => {
    expect(outcome(results.values())).toEqual(expectedOutcome(world, world.emails));
    expect(falseUndeliverable(world, results.values())).toEqual([]);
    for (const r of results.values()) {
      const truth = world.truth.get(r.email);
      if (truth?.verdict !== 'deliverable') expect(r.evidence.confidence === 'high' && r.verdict === 'deliverable', r.email).toBe(false);
    }
  });

  it('a gateway that greylists and then accepts everyone is unverifiable, not catch-all-risky nor valid', () => {
    for (const email of [`alice@gateway-greylist.${suffix}`, `whoever@gateway-greylist.${suffix}`]) {
      expect(get(email), email).toMatchObject({ verdict: 'unknown', reason: 'security_gateway', evidence: { provider: 'mimecast', confidence: 'low' } });
    }
  });

  it('a gateway that greylists and then validates recipients is conclusive once the greylisting clears', () => {
    expect(get(`alice@gateway-greylist-validating.${suffix}`)).toMatchObject({ verdict: 'deliverable', reason: 'accepted', evidence: { provider: 'barracuda', confidence: 'high' } });
    expect(get(`ghost@gateway-greylist-validating.${suffix}`)).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
  });

  it('a tarpitting gateway is waited for and still called unverifiable', () => {
    expect(get(`alice@gateway-tarpit.${suffix}`)).toMatchObject({ verdict: 'unknown', reason: 'security_gateway', evidence: { provider: 'proofpoint', confidence: 'low' } });
  });

  it("a gateway that accepts made-up addresses is not believed when it calls a mailbox disabled or full", () => {
    for (const local of ['gone', 'full']) {
      const r = get(`${local}@gateway-states.${suffix}`);
      expect(r, local).toMatchObject({ verdict: 'unknown', reason: 'security_gateway', evidence: { confidence: 'low' } });
      expect(r.evidence.detail, local).toMatch(/did not refuse a made-up address/);
    }
  });

  it('Microsoft 365 with edge blocking off: an unknown recipient is accept-all (risky), never invalid nor valid', () => {
    for (const email of [`alice@m365-dbeb-off.${suffix}`, `ghost@m365-dbeb-off.${suffix}`]) {
      expect(get(email), email).toMatchObject({ verdict: 'risky', reason: 'catch_all', catch_all: true, evidence: { provider: 'microsoft365', confidence: 'low' } });
    }
  });

  it('a gateway that hangs up at a made-up address instead of refusing it is not believed when it accepts, and says nothing of the one it hung up on', () => {
    expect(get(`alice@gateway-hangup.${suffix}`)).toMatchObject({ verdict: 'unknown', reason: 'security_gateway', evidence: { provider: 'proofpoint', confidence: 'low' } });
    expect(get(`ghost@gateway-hangup.${suffix}`)).toMatchObject({ verdict: 'unknown', reason: 'smtp_unreachable' });
  });

  it('Google Workspace: multi-line 550-5.1.1 is conclusive, a full inbox is risky', () => {
    expect(get(`alice@google-workspace.${suffix}`)).toMatchObject({ verdict: 'deliverable', reason: 'accepted', evidence: { confidence: 'high' } });
    expect(get(`ghost@google-workspace.${suffix}`)).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found', evidence: { confidence: 'high' } });
    expect(get(`quota@google-workspace.${suffix}`)).toMatchObject({ verdict: 'risky', reason: 'mailbox_full' });
  });
});
