// POST /v1/estimate: a free look at a sample before paying for a list. Up to MAX_ESTIMATE_EMAILS
// addresses are checked for syntax and DNS/MX only (the probe at depth 'mx': it never opens an SMTP
// connection), nothing is stored, no credit is taken.
//
// The predicted bounce rate (ESTIMATE_MODEL, also in the OpenAPI document): an address whose domain
// cannot receive mail (bad syntax, no such domain, null MX, no mail server) bounces for sure; an
// address with working mail servers bounces at the mailbox level at MAILBOX_BOUNCE_PRIOR, a fixed
// prior (mailbox-level failures need the SMTP check this estimate does not make); addresses whose
// DNS failed are left out. rate = (domain failures + prior × deliverable domains) / decided addresses.
import type { Reason, VerificationResult } from '../../../probe/contract';
import type { Db } from '../../../db/client';
import { AppError } from '../../lib/app-error';
import { assertServiceActive } from '../billing/service-state';
import { parseSingleEmail, probeMany, type ProbeAccess } from './validation.service';

export const MAX_ESTIMATE_EMAILS = 100;
/** Share of addresses on domains with working mail servers that bounce at the mailbox (a prior). */
export const MAILBOX_BOUNCE_PRIOR = 0.03;
const DOMAIN_FAILURES: readonly Reason[] = ['syntax', 'no_domain', 'null_mx', 'no_mx'];
const UNDECIDED: readonly Reason[] = ['dns_error', 'blocked_address', 'address_literal'];

export const ESTIMATE_MODEL = `Each address is checked for syntax and DNS/MX only (never SMTP, never charged). An address whose domain cannot receive mail (syntax, no_domain, null_mx, no_mx) is counted as a bounce; an address on a domain with working mail servers is counted as a bounce with probability ${MAILBOX_BOUNCE_PRIOR} (a fixed prior for mailbox-level failures, which need the SMTP check); addresses whose DNS could not be decided (dns_error, blocked_address, address_literal) are left out. predicted_bounce_rate = (domain failures + ${MAILBOX_BOUNCE_PRIOR} × deliverable-domain addresses) / decided addresses, rounded to 4 places; null when nothing was decided.`;

export type EstimateOutcome = 'deliverable_domain' | 'undeliverable' | 'undecided';

export interface EstimateItem {
  email: string;
  outcome: EstimateOutcome;
  reason: Reason;
  syntax_valid: boolean;
  mx_valid: boolean;
  disposable_provider: boolean;
  role_detected: boolean;
}

export interface Estimate {
  results: EstimateItem[];
  checked: number;
  deliverable_domains: number;
  undeliverable: number;
  undecided: number;
  predicted_bounce_rate: number | null;
}

export function outcomeOf(reason: Reason): EstimateOutcome {
  if (DOMAIN_FAILURES.includes(reason)) return 'undeliverable';
  if (UNDECIDED.includes(reason)) return 'undecided';
  return 'deliverable_domain';
}

/** The summary and the model over checked results (pure: tested on its own). */
export function summarise(results: VerificationResult[]): Estimate {
  const items = results.map((r) => ({
    email: r.email,
    outcome: outcomeOf(r.reason),
    reason: r.reason,
    syntax_valid: r.is_syntax_valid,
    mx_valid: r.is_mx_valid,
    disposable_provider: r.disposable_provider,
    role_detected: r.role_detected,
  }));
  const count = (o: EstimateOutcome) => items.filter((i) => i.outcome === o).length;
  const bad = count('undeliverable');
  const good = count('deliverable_domain');
  const decided = bad + good;
  const rate = decided === 0 ? null : Math.round(((bad + MAILBOX_BOUNCE_PRIOR * good) / decided) * 10_000) / 10_000;
  return { results: items, checked: items.length, deliverable_domains: good, undeliverable: bad, undecided: count('undecided'), predicted_bounce_rate: rate };
}

/** Checks a sample (≤ MAX_ESTIMATE_EMAILS unique addresses, in request order) at syntax + DNS/MX depth. */
/**
 * An account's estimate: the probe's answers (a suspended account does no new work: 402, like a
 * single check), or a test key's sandbox answers (`answer`, no probe), which stay open.
 */
export async function estimateForAccount(deps: { db: Db; probe: ProbeAccess }, o: { accountId: string; emails: string[]; answer?: (email: string) => VerificationResult }): Promise<Estimate> {
  if (!o.answer) await assertServiceActive(deps.db, o.accountId);
  return estimateSample(deps.probe, o.emails, o.answer);
}

export async function estimateSample(probe: ProbeAccess, emails: string[], answer?: (email: string) => VerificationResult): Promise<Estimate> {
  const unique = [...new Set(emails.map((e) => parseSingleEmail(e)))];
  if (unique.length > MAX_ESTIMATE_EMAILS) throw new AppError('BAD_INPUT', `emails can contain at most ${MAX_ESTIMATE_EMAILS} addresses per estimate.`);
  let results: VerificationResult[];
  if (answer) results = unique.map(answer);
  else {
    try {
      results = await probeMany(probe, unique, 'mx');
    } catch (err) {
      console.error('[estimate] probe failed:', err instanceof Error ? err.message : err);
      throw new AppError('UPSTREAM_UNAVAILABLE', 'The verification service is unavailable right now. Please try again in a moment.');
    }
  }
  const byEmail = new Map(results.map((r) => [r.email, r]));
  return summarise(unique.map((e) => byEmail.get(e)).filter((r): r is VerificationResult => r !== undefined));
}
