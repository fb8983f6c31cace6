// Credits are money, and this folder is their one door: take (here, and for syntax-decided single
// checks with their result in decided-checks.ts), return, grant, refill for a paid
// period, the monthly reset (monthly-reset.ts), rollover and the balance cap. Taken atomically,
// never below zero (the check constraint is the last line of defence; the conditional update is the
// first). Each taken credit also counts toward this month's usage. Always call inside the
// transaction that writes what the credits pay for.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { PLANS, UNLIMITED } from '../../contracts/plans';

/** The one statement that takes n credits (counted in this month's usage) when the balance covers them. */
function debit(db: Kysely<Database>, accountId: string, n: number) {
  return db
    .updateTable('account')
    .set({
      credits_balance: sql`credits_balance - ${n}`,
      monthly_validations_used: sql`monthly_validations_used + ${n}`,
      updated_at: new Date(),
    })
    .where('id', '=', accountId)
    .where('credits_balance', '>=', n);
}

/** Takes n credits if the balance covers them; returns false (and changes nothing) otherwise. */
export async function takeCredits(trx: Kysely<Database>, accountId: string, n: number): Promise<boolean> {
  if (n <= 0) return true;
  const row = await debit(trx, accountId, n).returning('credits_balance').executeTakeFirst();
  return row !== undefined;
}

/** A real-time check's reservation: taken, and in which usage period (returnCredits needs it), or why not. */
export type Reservation = { kind: 'reserved'; period: string } | { kind: 'suspended' } | { kind: 'insufficient' };

/**
 * A real-time check's reservation in one statement (no transaction around it, no second read): takes
 * n credits unless the account is suspended or the balance is short. Only a refusal reads the
 * account again, to say which.
 */
export async function reserveCredits(db: Kysely<Database>, accountId: string, n: number): Promise<Reservation> {
  const row = await debit(db, accountId, n)
    .where((eb) => eb.or([eb('subscription_status', 'is', null), eb('subscription_status', '!=', 'suspended')]))
    .returning('usage_period_start')
    .executeTakeFirst();
  if (row) return { kind: 'reserved', period: row.usage_period_start };
  const account = await db.selectFrom('account').select('subscription_status').where('id', '=', accountId).executeTakeFirst();
  return { kind: account?.subscription_status === 'suspended' ? 'suspended' : 'insufficient' };
}

/** Plans whose new month adds to the unused balance (unlimited ones are held at their quota instead). */
const CARRIED_OVER = PLANS.filter((p) => p.rollover && p.monthlyValidations < UNLIMITED).map((p) => p.type);

/**
 * Gives back n credits taken for work that is not charged (and their count in this month's usage).
 * `takenIn`, the usage period the credits were taken in (a reservation's): when a new period began
 * meanwhile (the monthly reset, a paid period's refill), the balance they came from is gone unless
 * the plan carried it over (rollover), so they go back only then, and the new period's usage (which
 * never counted them) stays as it is. Without it they always go back.
 */
export async function returnCredits(trx: Kysely<Database>, accountId: string, n: number, takenIn?: string): Promise<void> {
  if (n <= 0) return;
  const samePeriod = takenIn === undefined ? sql<boolean>`true` : sql<boolean>`(usage_period_start = ${takenIn}::date)`;
  const carried = CARRIED_OVER.length > 0 ? sql<boolean>`(plan in (${sql.join(CARRIED_OVER)}))` : sql<boolean>`false`;
  await trx
    .updateTable('account')
    .set({
      credits_balance: sql`credits_balance + case when ${samePeriod} or ${carried} then ${n}::int else 0 end`,
      monthly_validations_used: sql`case when ${samePeriod} then greatest(monthly_validations_used - ${n}, 0) else monthly_validations_used end`,
      updated_at: new Date(),
    })
    .where('id', '=', accountId)
    .execute();
}

export async function creditsBalance(db: Kysely<Database>, accountId: string): Promise<number> {
  const row = await db.selectFrom('account').select('credits_balance').where('id', '=', accountId).executeTakeFirstOrThrow();
  return row.credits_balance;
}

/** The credits_balance column is a 32-bit integer. */
export const MAX_CREDITS_BALANCE = 2_000_000_000;

/**
 * A paid billing period starts (a charge): usage restarts and the plan's monthly credits are
 * granted. Plans with rollover add them to the unused balance; others replace it, except when the
 * account is just moving onto this plan (`upgrade`), where what it had is kept. Unlimited plans hold
 * at least their (unlimited) quota. Returns the new balance. Call inside the charge's transaction.
 */
/** Adds n credits (an operator's grant), capped at MAX_CREDITS_BALANCE. Returns the balance before and after. */
export async function grantCredits(trx: Kysely<Database>, accountId: string, n: number): Promise<{ before: number; after: number }> {
  const before = await trx.selectFrom('account').select('credits_balance').where('id', '=', accountId).forUpdate().executeTakeFirstOrThrow();
  const row = await trx
    .updateTable('account')
    .set({ credits_balance: sql`least(credits_balance::bigint + ${n}, ${MAX_CREDITS_BALANCE})::int`, updated_at: new Date() })
    .where('id', '=', accountId)
    .returning('credits_balance')
    .executeTakeFirstOrThrow();
  return { before: before.credits_balance, after: row.credits_balance };
}

/**
 * An operator's grant under an idempotency key (credit_grant, keyed `operator:<account>:<key>`): the
 * first call adds n credits (grantCredits); any later one with the key, even one running at the same
 * time (it waits on the key's row), adds nothing. 'granted' with the balance before and after,
 * 'already' with the amount the key granted and the balance now.
 */
export async function grantCreditsOnce(
  trx: Kysely<Database>,
  accountId: string,
  n: number,
  key: string,
): Promise<{ kind: 'granted'; before: number; after: number } | { kind: 'already'; credits: number; balance: number }> {
  const stored = `operator:${accountId}:${key}`;
  const inserted = await trx
    .insertInto('credit_grant')
    .values({ key: stored, account_id: accountId, subscription_id: null, payment_id: null, credits: n, period_start: new Date().toISOString().slice(0, 10) })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return { kind: 'granted', ...(await grantCredits(trx, accountId, n)) };
  const earlier = await trx.selectFrom('credit_grant').select('credits').where('key', '=', stored).executeTakeFirstOrThrow();
  return { kind: 'already', credits: earlier.credits, balance: await creditsBalance(trx, accountId) };
}

/**
 * The balance after moving onto a plan by hand (operator): an upgrade may grant the plan's monthly
 * credits (added, capped; an unlimited plan holds at least its unlimited quota); otherwise unchanged.
 * Leaving an unlimited plan (Enterprise) for one with a volume: its balance was only the stand-in
 * for "unlimited" (UNLIMITED less what was used), so the new plan starts with its own monthly credits.
 */
export function balanceAfterPlanGrant(balance: number, grant: number, unlimited: number, leaving?: { fromUnlimited: boolean; monthly: number }): number {
  if (leaving?.fromUnlimited && leaving.monthly < unlimited) return leaving.monthly;
  if (grant <= 0) return balance;
  return grant >= unlimited ? Math.max(balance, unlimited) : Math.min(balance + grant, MAX_CREDITS_BALANCE);
}

export async function refillForPeriod(
  trx: Kysely<Database>,
  accountId: string,
  o: { monthly: number; rollover: boolean; upgrade: boolean; periodStart: Date; unlimited: boolean },
): Promise<number> {
  const balance = o.unlimited
    ? sql<number>`greatest(credits_balance, ${o.monthly})`
    : o.rollover || o.upgrade
      ? sql<number>`least(credits_balance::bigint + ${o.monthly}, ${MAX_CREDITS_BALANCE})::int`
      : sql<number>`${o.monthly}::int`;
  const row = await trx
    .updateTable('account')
    .set({
      credits_balance: balance,
      monthly_validations_used: 0,
      monthly_validations_quota: o.monthly,
      usage_period_start: o.periodStart.toISOString().slice(0, 10),
      updated_at: new Date(),
    })
    .where('id', '=', accountId)
    .returning('credits_balance')
    .executeTakeFirstOrThrow();
  return row.credits_balance;
}

/** The key of one month of a subscription's credits: the month's first day (UTC), whichever door grants it. */
export function periodMonthKey(subscriptionId: string, monthStart: Date): string {
  return `period:${subscriptionId}:${monthStart.toISOString().slice(0, 10)}`;
}

/**
 * One month of a paid subscription's credits, granted once per key (credit_grant): the charge that
 * starts a period and an annual plan's monthly refill of the same month share the key, so the second
 * one changes nothing. Returns whether it granted and the balance after.
 */
export async function grantPeriodMonth(
  trx: Kysely<Database>,
  accountId: string,
  o: { subscriptionId: string; paymentId: string | null; monthStart: Date; monthly: number; rollover: boolean; upgrade: boolean; unlimited: boolean },
): Promise<{ granted: boolean; balance: number }> {
  const inserted = await trx
    .insertInto('credit_grant')
    .values({
      key: periodMonthKey(o.subscriptionId, o.monthStart),
      account_id: accountId,
      subscription_id: o.subscriptionId,
      payment_id: o.paymentId,
      credits: o.unlimited ? 0 : o.monthly,
      period_start: o.monthStart.toISOString().slice(0, 10),
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!inserted) return { granted: false, balance: await creditsBalance(trx, accountId) };
  const balance = await refillForPeriod(trx, accountId, { monthly: o.monthly, rollover: o.rollover, upgrade: o.upgrade, periodStart: o.monthStart, unlimited: o.unlimited });
  return { granted: true, balance };
}

/** Takes back up to n credits a refunded period granted (never below zero). Returns the new balance. */
export async function revokeCredits(trx: Kysely<Database>, accountId: string, n: number): Promise<number> {
  const row = await trx
    .updateTable('account')
    .set({ credits_balance: sql`greatest(credits_balance - ${n}, 0)`, updated_at: new Date() })
    .where('id', '=', accountId)
    .returning('credits_balance')
    .executeTakeFirstOrThrow();
  return row.credits_balance;
}
