// MX records of equal preference (RFC 5321 5.1: tried in any order, a sender picks at random) that
// disagree: one refuses us at the greeting (554 5.7.1) or refuses our MAIL FROM, the other lets us
// in. Mail to the domain goes through the one that lets us in (Postfix skips a server that greets
// with 5xx, smtp_skip_5xx_greeting), so its answers decide; the refusal stands only when no server
// of that preference lets us in, and is never handed to a less-preferred backup. Likewise one that
// accepts everyone (no recipient list) beside one that knows the recipients: the one that knows decides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type DomainSpec, type MailWorld, type MxSpec } from '../mailworld/index';
import { expectedOutcome, fastProbeOptions, falseUndeliverable, outcome, verifyWorld } from './mailworld-helpers';

const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];

function domain(n: number, name: string, mx: Omit<MxSpec, 'host' | 'ip'>[]): DomainSpec {
  const d = `${name}.eqpref.test`;
  return {
    domain: d,
    scenario: name,
    mx: mx.map((m, i) => ({ host: `mx${i + 1}.${d}`, ip: `127.94.${n}.${i + 1}`, ...m })),
    mailboxes: Object.fromEntries(users.map((u) => [u, 'ok' as const])),
    addresses: [...users, 'ghost1', 'ghost2', 'ghost3'],
  };
}

const domains: DomainSpec[] = [
  domain(1, 'one-refuses-at-greeting', [{ priority: 10, server: { mode: 'policy-banner' } }, { priority: 10 }]),
  domain(2, 'other-refuses-at-greeting', [{ priority: 10 }, { priority: 10, server: { mode: 'policy-banner' } }]),
  domain(3, 'one-refuses-our-sender', [{ priority: 10, server: { rejectMailFrom: true } }, { priority: 10 }]),
  domain(4, 'both-refuse', [{ priority: 10, server: { mode: 'policy-banner' } }, { priority: 10, server: { mode: 'policy-banner' } }, { priority: 20 }]),
  domain(5, 'refuses-peer-dead-backup-live', [{ priority: 10, server: { mode: 'policy-banner' } }, { priority: 10, server: { mode: 'refused' } }, { priority: 20 }]),
  domain(6, 'primary-refuses-backup-live', [{ priority: 10, server: { mode: 'policy-banner' } }, { priority: 20 }]),
  // One of the pair has no recipient list (accepts everyone, store and forward); the other knows them.
  domain(7, 'one-accepts-everyone', [{ priority: 10, server: { acceptAll: true } }, { priority: 10 }]),
  domain(8, 'other-accepts-everyone', [{ priority: 10 }, { priority: 10, server: { acceptAll: true } }]),
];

let world: MailWorld;
let results: Map<string, VerificationResult>;

beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 2 });
  // Two RCPTs a session: every domain's addresses are spread over several sessions, on both servers.
  // No server here is slow to greet: a head start a loaded machine cannot overrun, so a backup is
  // never asked in parallel because the refusing primary's greeting came late (that is another test's subject).
  results = await verifyWorld(world, { ...fastProbeOptions(world), maxRcptsPerSession: 2, mxHeadStartMs: 4000, bannerTimeoutMs: 5000 });
});
afterAll(async () => {
  await world?.stop();
});

describe('equal-preference MX servers that disagree', () => {
  it('the answer does not depend on which was asked: the one that lets us in decides', () => {
    expect(falseUndeliverable(world, results.values())).toEqual([]);
    expect(outcome(results.values())).toEqual(expectedOutcome(world, world.emails));
    for (const name of ['one-refuses-at-greeting', 'other-refuses-at-greeting', 'one-refuses-our-sender', 'one-accepts-everyone', 'other-accepts-everyone']) {
      expect(results.get(`alice@${name}.eqpref.test`)?.reason, name).toBe('accepted');
      expect(results.get(`ghost1@${name}.eqpref.test`)?.reason, name).toBe('mailbox_not_found');
    }
  });

  it('a refusal by every server of the best preference stands (policy_block), and is not handed to a backup', () => {
    for (const name of ['both-refuse', 'refuses-peer-dead-backup-live', 'primary-refuses-backup-live']) {
      for (const local of ['alice', 'ghost1']) {
        const r = results.get(`${local}@${name}.eqpref.test`);
        expect(`${r?.verdict}/${r?.reason}`, `${local}@${name}`).toBe('unknown/policy_block');
        expect(r?.evidence.replies.some((x) => x.code >= 500 && (x.stage === 'banner' || x.stage === 'mail')), `${local}@${name}`).toBe(true);
      }
    }
  });
});
