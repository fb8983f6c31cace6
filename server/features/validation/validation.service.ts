// Single real-time checks (spec "Validate Email", function validate-email). Transport-free: the
// tRPC router and the REST /v1 procedure call the same function.
//
// Money rule: one credit per answered check, never negative, never charged for a check that did
// not happen. The credit is RESERVED first (an atomic conditional debit, committed at once), so an
// account with no credits never reaches the probe and N concurrent checks can never spend more
// than the balance; the probe then runs without any lock held; the result row is stored; if the
// probe fails (or the store does), the reservation is refunded. Holding a row lock across the
// probe instead would serialise every check of an account behind the slowest SMTP server.
import type { Db } from '../../../db/client';
import { ProbeClient } from '../../../probe/client/probe-client';
import { verificationResultSchema, type Depth, type Evidence, type Reason, type VerificationResult, type Verdict } from '../../../probe/contract';
import { FREE_SIGNUP_CREDITS, planAllows, type PlanType } from '../../contracts/plans';
import { describeCharacter, trimAddress } from '../../../probe/contract';
import { AppError } from '../../lib/app-error';
import { timed } from '../../lib/server-timing';
import { SUSPENDED_MESSAGE } from '../billing/service-state';
import { reserveCredits, returnCredits } from '../credits/credits';
import { resultRow } from './results.queries';
import { insertSingleResult } from './validation.queries';
import { storeDecidedCheck } from './store-batch';
import { decideBySyntax } from '../../../probe/syntax/decide';
import { isCharged } from '../../contracts/charging';

/** Longest input we accept at all (RFC 5321 allows 254; longer strings are rejected before any work). */
export const SINGLE_CHECK_MAX_LENGTH = 1024;
/** A realtime check gives up after this long (greylisting deadline + slow servers, with margin). */
export const SINGLE_CHECK_TIMEOUT_MS = 60_000;

export const EMPTY_EMAIL_MESSAGE = 'Please enter an email address';
export const INSUFFICIENT_CREDITS_MESSAGE = 'You have no validation credits left. Upgrade your plan or wait for your monthly credits to validate more addresses.';
/** Free's credits are granted once (FREE_SIGNUP_CREDITS), never monthly: waiting brings none. */
export const FREE_CREDITS_USED_MESSAGE = `You have no validation credits left. The Free plan's ${FREE_SIGNUP_CREDITS} validations are granted once, not monthly: upgrade your plan to validate more addresses.`;

/** What a refusal for want of credits tells the caller, by plan. */
export function insufficientCreditsMessage(plan: PlanType): string {
  return plan === 'free' ? FREE_CREDITS_USED_MESSAGE : INSUFFICIENT_CREDITS_MESSAGE;
}
export const PROBE_UNAVAILABLE_MESSAGE = 'The verification service is unavailable right now. No credit was used; please try again in a moment.';

const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Trims SP/HTAB only and refuses what can never be an address (empty, over-long, line breaks, control characters). */
export function parseSingleEmail(raw: string): string {
  const email = trimAddress(raw);
  if (email === '') throw new AppError('BAD_INPUT', EMPTY_EMAIL_MESSAGE);
  if (email.length > SINGLE_CHECK_MAX_LENGTH) throw new AppError('BAD_INPUT', `That is too long to be an email address (at most ${SINGLE_CHECK_MAX_LENGTH.toLocaleString('en-US')} characters).`);
  const control = CONTROL_CHARS.exec(email);
  if (control) throw new AppError('BAD_INPUT', `An email address cannot contain line breaks or control characters (it contains ${describeCharacter(control[0].codePointAt(0)!)}).`);
  return email;
}

/** Free plans check syntax and MX only: they never open an SMTP connection (spec section 9). */
export function depthForPlan(plan: PlanType): Depth {
  return planAllows(plan, 'smtpCheck') ? 'smtp' : 'mx';
}

/** The validate-email response (spec section 7) plus the engine's explanation fields. */
export interface SingleCheckResult {
  id: number;
  email: string;
  result: 'valid' | 'invalid' | 'risky';
  is_syntax_valid: boolean;
  is_dns_valid: boolean;
  is_mx_valid: boolean;
  is_smtp_valid: boolean;
  deliverability_score: number;
  mx_hosts: string[];
  role_detected: boolean;
  disposable_provider: boolean;
  domain_age_days: number | null;
  verdict: Verdict;
  reason: Reason;
  suggestion: string | null;
  catch_all: boolean | null;
  free_provider: boolean;
  depth: Depth;
  evidence: Evidence;
  checked_at: string;
  credits_balance: number;
  /** False when fair charging gave the credit back (an undecided result costs nothing). */
  charged: boolean;
}

export interface ProbeAccess {
  urls: string[];
  token: string;
}

// One client per probe configuration, so a daemon found down is skipped by later checks too.
const clients = new Map<string, ProbeClient>();
function probeClient(probe: ProbeAccess): ProbeClient {
  const key = `${probe.token}\n${probe.urls.join(',')}`;
  let client = clients.get(key);
  if (!client) {
    client = new ProbeClient({ urls: probe.urls, token: probe.token });
    clients.set(key, client);
  }
  return client;
}

/** Asks a probe daemon about one address; any failure (network, bad answer, timeout) throws. */
export async function probeOne(probe: ProbeAccess, email: string, depth: Depth): Promise<VerificationResult> {
  if (probe.urls.length === 0) throw new Error('no probe configured');
  const signal = AbortSignal.timeout(SINGLE_CHECK_TIMEOUT_MS);
  for await (const r of probeClient(probe).verify([email], { depth, mode: 'realtime', signal })) {
    return verificationResultSchema.parse(r);
  }
  throw new Error('probe answered without a result');
}

/** Asks the probe about a few addresses at one depth (e.g. 'mx' for /v1/estimate: no SMTP); any failure throws. */
export async function probeMany(probe: ProbeAccess, emails: string[], depth: Depth): Promise<VerificationResult[]> {
  if (probe.urls.length === 0) throw new Error('no probe configured');
  const signal = AbortSignal.timeout(SINGLE_CHECK_TIMEOUT_MS);
  const out: VerificationResult[] = [];
  for await (const r of probeClient(probe).verify(emails, { depth, mode: 'realtime', signal })) out.push(verificationResultSchema.parse(r));
  return out;
}

export interface CheckDeps {
  db: Db;
  probe: ProbeAccess;
}

/** One real-time check: reserve a credit, ask the probe at the plan's depth, store the result. */
export async function checkSingleEmail(
  deps: CheckDeps,
  o: { accountId: string; userId: string | null; plan: PlanType; email: string },
): Promise<SingleCheckResult> {
  const email = parseSingleEmail(o.email);
  const depth = depthForPlan(o.plan);

  // A verdict the syntax check alone decides (bad syntax, an address literal) is the probe
  // library's own answer, computed here: no round trip to a daemon, and the credit, the result and
  // the balance are written in one statement, batched with the account's other such checks.
  const bySyntax = decideBySyntax(email, depth);
  if (bySyntax.decided) return storeDecided(deps, o, email, depth, bySyntax.result);

  // One statement: the service state and the balance are both conditions of the debit.
  const reserved = await timed('credit', () => reserveCredits(deps.db, o.accountId, 1));
  if (reserved.kind === 'suspended') throw new AppError('PAYMENT_REQUIRED', SUSPENDED_MESSAGE);
  if (reserved.kind === 'insufficient') throw new AppError('INSUFFICIENT_CREDITS', insufficientCreditsMessage(o.plan));

  let verification: VerificationResult;
  try {
    verification = await timed('probe', () => probeOne(deps.probe, email, depth));
  } catch (err) {
    await returnCredits(deps.db, o.accountId, 1, reserved.period);
    console.error('[validation] probe failed:', err instanceof Error ? err.message : err);
    throw new AppError('UPSTREAM_UNAVAILABLE', PROBE_UNAVAILABLE_MESSAGE);
  }

  try {
    const { stored, balance } = await timed('store', () => deps.db.transaction().execute(async (trx) => {
      const row = await insertSingleResult(trx, resultRow({ accountId: o.accountId, jobId: null, userId: o.userId, email, result: verification }));
      // Fair charging: an undecided result gives its credit back in the transaction that stores it.
      if (!row.charged) await returnCredits(trx, o.accountId, 1, reserved.period);
      const acct = await trx.selectFrom('account').select('credits_balance').where('id', '=', o.accountId).executeTakeFirstOrThrow();
      return { stored: row, balance: acct.credits_balance };
    }));
    return singleCheckResult(email, depth, verification, { id: stored.id, checkedAt: stored.checked_at, charged: stored.charged, balance });
  } catch (err) {
    await returnCredits(deps.db, o.accountId, 1, reserved.period);
    throw err;
  }
}

/** A check the syntax check decided: charged (unless fair charging says not) and stored in one statement. */
async function storeDecided(deps: CheckDeps, o: { accountId: string; userId: string | null; plan: PlanType }, email: string, depth: Depth, verification: VerificationResult): Promise<SingleCheckResult> {
  const row = resultRow({ accountId: o.accountId, jobId: null, userId: o.userId, email, result: verification });
  const outcome = await timed('credit', () => storeDecidedCheck(deps.db, o.accountId, { row, charged: isCharged(verification) }));
  if (outcome.kind === 'suspended') throw new AppError('PAYMENT_REQUIRED', SUSPENDED_MESSAGE);
  if (outcome.kind === 'insufficient') throw new AppError('INSUFFICIENT_CREDITS', insufficientCreditsMessage(o.plan));
  return singleCheckResult(email, depth, verification, outcome);
}

function singleCheckResult(email: string, depth: Depth, verification: VerificationResult, stored: { id: number; checkedAt: Date; charged: boolean; balance: number }): SingleCheckResult {
  return {
    id: stored.id,
    email,
    result: verification.result,
    is_syntax_valid: verification.is_syntax_valid,
    is_dns_valid: verification.is_dns_valid,
    is_mx_valid: verification.is_mx_valid,
    is_smtp_valid: verification.is_smtp_valid,
    deliverability_score: verification.deliverability_score,
    mx_hosts: verification.mx_hosts,
    role_detected: verification.role_detected,
    disposable_provider: verification.disposable_provider,
    domain_age_days: verification.domain_age_days,
    verdict: verification.verdict,
    reason: verification.reason,
    suggestion: verification.suggestion,
    catch_all: verification.catch_all,
    free_provider: verification.free_provider,
    depth,
    evidence: verification.evidence,
    checked_at: stored.checkedAt.toISOString(),
    credits_balance: stored.balance,
    charged: stored.charged,
  };
}
