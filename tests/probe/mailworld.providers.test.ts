// Verdicts know what a provider can reveal (issue #11 item 7): a Microsoft 365 tenant that refuses
// unknown recipients (550 5.4.1) is conclusive, one in Internal Relay is accept-all, and a security
// gateway that accepts everyone or answers by policy cannot verify a mailbox: the result says so
// (reason security_gateway, low confidence), never a confident valid and never an invalid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import type { VerificationResult } from '../../probe/contract';
import { buildScenarios, startMailWorld, type MailWorld } from '../mailworld/index';
import { expectedOutcome, falseUndeliverable, fastProbeOptions, outcome, resultFor, verifyEach } from './mailworld-helpers';

const PROVIDER_SCENARIOS = ['m365-tenant', 'm365-relay', 'gateway-accept', 'gateway-policy', 'gateway-validating'];
const domains = buildScenarios().filter((d) => PROVIDER_SCENARIOS.some((name) => d.domain.startsWith(`${name}.`)));

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

describe('provider behaviours on the mail world', () => {
  it('every address gets its ground truth: no false invalid, no confident valid where the mailbox cannot be verified', () => {
    expect(domains).toHaveLength(PROVIDER_SCENARIOS.length);
    expect(outcome(results.values())).toEqual(expectedOutcome(world, world.emails));
    expect(falseUndeliverable(world, results.values())).toEqual([]);
    for (const r of results.values()) {
      const truth = world.truth.get(r.email);
      if (truth?.verdict !== 'deliverable') expect(r.evidence.confidence === 'high' && r.verdict === 'deliverable', r.email).toBe(false);
    }
  });

  it('a Microsoft 365 tenant refusing unknown recipients (550 5.4.1) is conclusive both ways', () => {
    const ghost = get('ghost@m365-tenant.mailworld.test');
    expect(ghost).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found', catch_all: false });
    expect(ghost.evidence).toMatchObject({ provider: 'microsoft365', confidence: 'high' });
    expect(ghost.evidence.replies.some((x) => x.code === 550 && x.enhanced === '5.4.1')).toBe(true);
    expect(ghost.evidence.detail).toMatch(/Microsoft 365 tenant that refuses recipients it does not know/);
    expect(get('alice@m365-tenant.mailworld.test')).toMatchObject({ verdict: 'deliverable', reason: 'accepted', evidence: { provider: 'microsoft365', confidence: 'high' } });
  });

  it('a Microsoft 365 tenant in Internal Relay is accept-all', () => {
    const r = get('alice@m365-relay.mailworld.test');
    expect(r).toMatchObject({ verdict: 'risky', reason: 'catch_all', catch_all: true, evidence: { provider: 'microsoft365', confidence: 'low' } });
    expect(r.evidence.detail).toMatch(/Internal Relay/);
  });

  it('a security gateway accepting everyone or answering by policy: unknown/security_gateway, low confidence, uncharged reason', () => {
    for (const email of ['alice@gateway-accept.mailworld.test', 'whoever@gateway-accept.mailworld.test', 'alice@gateway-policy.mailworld.test', 'ghost@gateway-policy.mailworld.test']) {
      expect(get(email), email).toMatchObject({ verdict: 'unknown', result: 'risky', reason: 'security_gateway', evidence: { confidence: 'low' } });
    }
    expect(get('alice@gateway-accept.mailworld.test').evidence).toMatchObject({ provider: 'proofpoint' });
    expect(get('alice@gateway-accept.mailworld.test').evidence.detail).toMatch(/Proofpoint security gateway: it accepts every address/);
    expect(get('ghost@gateway-policy.mailworld.test').evidence).toMatchObject({ provider: 'mimecast' });
    expect(get('ghost@gateway-policy.mailworld.test').evidence.detail).toMatch(/answers by policy/);
  });

  it('a gateway that validates recipients (refuses the made-up address as unknown) is conclusive', () => {
    expect(get('alice@gateway-validating.mailworld.test')).toMatchObject({ verdict: 'deliverable', reason: 'accepted', evidence: { provider: 'barracuda', confidence: 'high' } });
    expect(get('ghost@gateway-validating.mailworld.test')).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
  });

  it('classifies a domain once: a later check reuses it without a new random-mailbox probe', async () => {
    const ip = domains.find((d) => d.domain.startsWith('m365-tenant.'))?.mx?.[0]?.ip ?? '';
    const before = world.counters.perIp.get(ip)?.rcpts ?? 0;
    const again = await verifier.verify('bob@m365-tenant.mailworld.test', { depth: 'smtp' });
    expect(again).toMatchObject({ verdict: 'deliverable', reason: 'accepted', catch_all: false, evidence: { provider: 'microsoft365' } });
    expect((world.counters.perIp.get(ip)?.rcpts ?? 0) - before).toBe(1);
  });
});
