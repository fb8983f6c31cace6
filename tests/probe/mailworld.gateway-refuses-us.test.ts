// A security gateway that refuses us — our address on a blocklist at the greeting or at RCPT, our
// sender at MAIL FROM — has said something about us, not hidden anything about the mailbox: the
// result is unknown/policy_block, as from any other server. Only a gateway's refusal of the
// recipient by policy (or its accepting everyone) is security_gateway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { expectedOutcome, outcome, verifyWorld } from './mailworld-helpers';

const gateway = (n: number, domain: string, server: Record<string, unknown>, extra: Partial<DomainSpec> = {}): DomainSpec => ({
  domain,
  scenario: domain.split('.')[0] ?? domain,
  mx: [{ host: `mx.${domain}`, priority: 10, ip: `127.67.${n}.1`, server: { persona: 'proofpoint', ...server } }],
  mailboxes: { alice: 'ok' },
  addresses: ['alice', 'ghost'],
  ...extra,
});

const domains: DomainSpec[] = [
  gateway(1, 'gw-blocklisted.mailworld.test', {}, { policyBlock: true }),
  gateway(2, 'gw-sender-refused.mailworld.test', { rejectMailFrom: true, persona: 'mimecast' }),
  gateway(3, 'gw-policy-banner.mailworld.test', { mode: 'policy-banner', persona: 'barracuda' }),
  gateway(4, 'gw-recipient-policy.mailworld.test', {}, { rejectUnknown: 'policy' }),
];

let world: MailWorld;
let results: Map<string, VerificationResult>;

beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 2 });
  results = await verifyWorld(world);
});
afterAll(async () => {
  await world?.stop();
});

describe('a security gateway that refuses us', () => {
  it('is policy_block (about us), while its policy refusal of a recipient stays security_gateway', () => {
    expect(outcome(results.values())).toEqual(expectedOutcome(world, world.emails));
    expect(results.get('alice@gw-blocklisted.mailworld.test')?.reason).toBe('policy_block');
    expect(results.get('ghost@gw-recipient-policy.mailworld.test')?.reason).toBe('security_gateway');
  });
});
