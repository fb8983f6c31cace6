import { describe, expect, it } from 'vitest';
import { assess, decideVerdict, SCORE_RANGE, type Facts } from './score';

const base: Facts = {
  depth: 'smtp',
  syntaxOk: true,
  dns: 'ok',
  blockedAddress: false,
  smtp: 'accepted',
  catchAll: false,
  disposable: false,
  role: false,
  freeProvider: false,
  quotedLocal: false,
  smtputf8: false,
  domainAgeDays: null,
  dnsblListings: 0,
};
const f = (o: Partial<Facts>): Facts => ({ ...base, ...o });

// DESIGN.md's verdict table, row by row, in order.
const verdicts: [string, Partial<Facts>, string, string][] = [
  ['bad syntax', { syntaxOk: false, dns: null, smtp: null }, 'undeliverable', 'syntax'],
  ['address literal (1b)', { addressLiteral: true, dns: null, smtp: null, catchAll: null }, 'unknown', 'address_literal'],
  ['address literal with bad syntax elsewhere', { syntaxOk: false, addressLiteral: true, dns: null, smtp: null }, 'undeliverable', 'syntax'],
  ['NXDOMAIN', { dns: 'no_domain', smtp: null }, 'undeliverable', 'no_domain'],
  ['null MX', { dns: 'null_mx', smtp: null }, 'undeliverable', 'null_mx'],
  ['SERVFAIL / DNS timeout', { dns: 'dns_error', smtp: null }, 'unknown', 'dns_error'],
  ['no MX and no A', { dns: 'no_mx', smtp: null }, 'undeliverable', 'no_mx'],
  ['MX in a private range', { blockedAddress: true, smtp: null }, 'unknown', 'blocked_address'],
  ['every MX unreachable', { smtp: 'smtp_unreachable', catchAll: null }, 'unknown', 'smtp_unreachable'],
  ['5.7.x policy block', { smtp: 'policy_block', catchAll: null }, 'unknown', 'policy_block'],
  ['greylisted past the deadline', { smtp: 'greylisted', catchAll: null }, 'unknown', 'greylisted'],
  ['5.1.1 user unknown', { smtp: 'mailbox_not_found' }, 'undeliverable', 'mailbox_not_found'],
  ['5.2.1 disabled', { smtp: 'mailbox_disabled' }, 'undeliverable', 'mailbox_disabled'],
  ['5.2.2 full', { smtp: 'mailbox_full' }, 'risky', 'mailbox_full'],
  ['catch-all', { smtp: 'accepted', catchAll: true }, 'risky', 'catch_all'],
  ['disposable, accepted', { smtp: 'accepted', disposable: true }, 'risky', 'disposable'],
  ['accepted, random refused', { smtp: 'accepted', catchAll: false }, 'deliverable', 'accepted'],
  ['accepted, random undetermined', { smtp: 'accepted', catchAll: null }, 'deliverable', 'accepted'],
  ['security gateway accepting everyone', { smtp: 'accepted', catchAll: true, gateway: true }, 'unknown', 'security_gateway'],
  ['security gateway, random answered by policy', { smtp: 'accepted', catchAll: null, gateway: true }, 'unknown', 'security_gateway'],
  ['security gateway answering by policy', { smtp: 'policy_block', catchAll: null, gateway: true }, 'unknown', 'security_gateway'],
  ['security gateway that refused the random mailbox: conclusive', { smtp: 'accepted', catchAll: false, gateway: true }, 'deliverable', 'accepted'],
  ['security gateway refusing an unknown user: conclusive', { smtp: 'mailbox_not_found', catchAll: false, gateway: true }, 'undeliverable', 'mailbox_not_found'],
  ['security gateway that accepts everyone, saying a mailbox is disabled', { smtp: 'mailbox_disabled', catchAll: true, gateway: true }, 'unknown', 'security_gateway'],
  ['security gateway answering unknown users by policy, saying a mailbox is full', { smtp: 'mailbox_full', catchAll: null, gateway: true }, 'unknown', 'security_gateway'],
  ['security gateway that refused the random mailbox, saying a mailbox is disabled: conclusive', { smtp: 'mailbox_disabled', catchAll: false, gateway: true }, 'undeliverable', 'mailbox_disabled'],
  ['depth mx with mail servers', { depth: 'mx', smtp: null, catchAll: null }, 'unknown', 'smtp_not_checked'],
  ['depth syntax', { depth: 'syntax', dns: null, smtp: null, catchAll: null }, 'unknown', 'smtp_not_checked'],
  ['depth mx, disposable', { depth: 'mx', smtp: null, disposable: true }, 'risky', 'disposable'],
  ['disposable but mailbox unknown', { smtp: 'mailbox_not_found', disposable: true }, 'undeliverable', 'mailbox_not_found'],
  ['role account, accepted', { role: true }, 'deliverable', 'accepted'],
];

describe('verdict (DESIGN.md table, in order)', () => {
  it.each(verdicts)('%s → %s/%s', (_, facts, verdict, reason) => {
    expect(decideVerdict(f(facts))).toEqual({ verdict, reason });
  });

  it('never says undeliverable for a policy block, DNS failure, timeout or unreachable server', () => {
    for (const facts of [{ smtp: 'policy_block' as const }, { dns: 'dns_error' as const }, { smtp: 'smtp_unreachable' as const }, { smtp: 'greylisted' as const }, { blockedAddress: true }]) {
      expect(decideVerdict(f(facts)).verdict).not.toBe('undeliverable');
    }
  });
});

// SCORING.md: base per reason, then adjustments, clamped to the verdict's range.
const scores: [string, Partial<Facts>, number][] = [
  ['deliverable, random refused', {}, 100],
  ['deliverable, catch-all undetermined', { catchAll: null }, 90],
  ['deliverable role account', { role: true }, 85],
  ['deliverable on a listed MX', { dnsblListings: 1 }, 90],
  ['deliverable on a 10-day-old domain', { domainAgeDays: 10 }, 80],
  ['deliverable on a 100-day-old domain', { domainAgeDays: 100 }, 90],
  ['deliverable, old domain', { domainAgeDays: 4000 }, 100],
  ['deliverable, everything wrong', { role: true, dnsblListings: 3, domainAgeDays: 1, quotedLocal: true, smtputf8: true }, 70],
  ['catch-all', { catchAll: true }, 55],
  ['catch-all role', { catchAll: true, role: true }, 40],
  ['catch-all disposable', { catchAll: true, disposable: true }, 25],
  ['disposable accepted', { disposable: true }, 25],
  ['mailbox full', { smtp: 'mailbox_full' }, 35],
  ['greylisted', { smtp: 'greylisted', catchAll: null }, 50],
  ['policy block', { smtp: 'policy_block', catchAll: null }, 40],
  ['unreachable', { smtp: 'smtp_unreachable', catchAll: null }, 30],
  ['dns error', { dns: 'dns_error', smtp: null }, 25],
  ['blocked address', { blockedAddress: true, smtp: null }, 20],
  ['not checked', { depth: 'mx', smtp: null, catchAll: null }, 50],
  ['unknown never below 5', { smtp: 'smtp_unreachable', role: true, disposable: true, dnsblListings: 2 }, 5],
  ['mailbox not found', { smtp: 'mailbox_not_found' }, 0],
  ['syntax', { syntaxOk: false }, 0],
  ['address literal', { addressLiteral: true, dns: null, smtp: null, catchAll: null }, 10],
];

describe('score (SCORING.md)', () => {
  it.each(scores)('%s → %i', (_, facts, score) => {
    expect(assess(f(facts)).score).toBe(score);
  });

  it('keeps every score inside its verdict range', () => {
    for (const [, facts] of scores) {
      const a = assess(f(facts));
      const [lo, hi] = SCORE_RANGE[a.verdict];
      expect(a.score).toBeGreaterThanOrEqual(lo);
      expect(a.score).toBeLessThanOrEqual(hi);
    }
  });
});

// SCORING.md table 4: how sure each verdict is. Never "high" where the mailbox could not be verified.
describe('confidence (SCORING.md table 4)', () => {
  const cases: [string, Partial<Facts>, string][] = [
    ['deliverable, random refused', {}, 'high'],
    ['deliverable, random undetermined', { catchAll: null }, 'medium'],
    ['user unknown', { smtp: 'mailbox_not_found' }, 'high'],
    ['NXDOMAIN', { dns: 'no_domain', smtp: null }, 'high'],
    ['mailbox full', { smtp: 'mailbox_full' }, 'medium'],
    ['catch-all', { catchAll: true }, 'low'],
    ['security gateway', { catchAll: true, gateway: true }, 'low'],
    ['policy block', { smtp: 'policy_block', catchAll: null }, 'low'],
    ['greylisted', { smtp: 'greylisted', catchAll: null }, 'low'],
  ];
  it.each(cases)('%s → %s', (_, facts, confidence) => {
    expect(assess(f(facts)).confidence).toBe(confidence);
  });
});
