// A security gateway (Proofpoint, Mimecast, Barracuda) that has not shown it tells real mailboxes from
// made-up ones — it accepts everyone at RCPT, or refuses unknown recipients only by policy — may still
// answer "mailbox disabled" (5.2.1) or "full" (5.2.2) for some: its answers about mailboxes are not
// trusted (unknown/security_gateway, as the mail world's truth says), never undeliverable. One that
// refuses the random mailbox as unknown validates recipients, and its answers stand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type DomainSpec, type MailWorld, type ServerSpec } from '../mailworld/index';
import { expectedOutcome, falseUndeliverable, outcome, verifyWorld } from './mailworld-helpers';

const gateway = (n: number, name: string, persona: ServerSpec['persona'], extra: Partial<DomainSpec>): DomainSpec => ({
  domain: `${name}.gwstates.test`,
  scenario: name,
  mx: [{ host: `mx.${name}.gwstates.test`, priority: 10, ip: `127.68.${n}.1`, server: { persona } }],
  mailboxes: { alice: 'ok', gone: 'disabled', full: 'full', fulltemp: 'full-temp' },
  addresses: ['alice', 'gone', 'full', 'fulltemp', 'ghost'],
  ...extra,
});

const domains: DomainSpec[] = [
  gateway(1, 'accepts-everyone', 'proofpoint', { catchAll: true }),
  gateway(2, 'policy-for-unknown', 'mimecast', { rejectUnknown: 'policy' }),
  gateway(3, 'validating', 'barracuda', {}),
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

describe('a security gateway answering about disabled and full mailboxes', () => {
  it('is trusted only once it has refused the random mailbox as unknown; otherwise unknown/security_gateway, never undeliverable', () => {
    expect(falseUndeliverable(world, results.values())).toEqual([]);
    expect(outcome(results.values())).toEqual(expectedOutcome(world, world.emails));
    expect(results.get('gone@accepts-everyone.gwstates.test')?.reason).toBe('security_gateway');
    expect(results.get('gone@policy-for-unknown.gwstates.test')?.reason).toBe('security_gateway');
    expect(results.get('gone@validating.gwstates.test')?.reason).toBe('mailbox_disabled');
    expect(results.get('full@validating.gwstates.test')?.reason).toBe('mailbox_full');
    expect(results.get('gone@policy-for-unknown.gwstates.test')?.evidence.detail).toMatch(/security gateway/);
  });
});
