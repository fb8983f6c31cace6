// Where an account stands on its subscription, and the changes the passing of time or Razorpay's
// subscription events make to it: a cancelled plan resumed (a successor adopted), a renewal unpaid
// (past_due, a grace period), a paused plan's period over (suspended), a cancelled plan's period
// over (Free).
import { PAST_DUE_GRACE_DAYS, planByType, type BillingInterval } from '../../contracts/plans';
import { writeAudit } from '../audit/audit';
import { addMonthsClamped } from '../../lib/dates';
import type { BillingMail } from './billing-mail';
import { lockSubscription, type Trx } from './billing-locks';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The account columns of a plan fallen to Free (refund, end of a cancelled period): data kept, no
 * subscription, and Free's usage period starts (the paid one is over: This Month no longer counts its
 * use against Free's quota).
 */
export function freePlanColumns(updatedAt: Date) {
  const free = planByType('free');
  return {
    plan: 'free' as const,
    monthly_validations_quota: free.monthlyValidations,
    monthly_validations_used: 0,
    usage_period_start: updatedAt.toISOString().slice(0, 10),
    team_member_limit: free.teamMemberLimit,
    subscription_status: 'none' as const,
    subscription_id: null,
    billing_interval: null,
    current_period_end: null,
    grace_ends_at: null,
    cancel_at_period_end: false,
    updated_at: updatedAt,
  };
}

/** Our statuses of a subscription that could still take a payment (a paused one, once resumed). */
export const LIVE_STATUSES = ['created', 'authenticated', 'active', 'pending', 'halted', 'paused'] as const;

/** The end of a period that starts at `start`: one calendar month or one year later (UTC, Jan 31 → Feb 28). */
export function addInterval(start: Date, interval: BillingInterval): Date {
  return addMonthsClamped(start, interval === 'annual' ? 12 : 1);
}

export const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY);

/**
 * A subscription made to go on after a cancelled one's paid period (follows_id; first charge at
 * start_at) that has not been charged yet: the account's plan is still the one paid by the
 * subscription it follows.
 */
export function isPendingSuccessor(sub: { follows_id: string | null; current_start: Date | null }): boolean {
  return sub.follows_id !== null && sub.current_start === null;
}

/**
 * The owner who cancelled changed their mind: the subscription that goes on after the cancelled
 * one's period has been authorised (the checkout handler's answer or subscription.authenticated,
 * whichever comes first). The account takes it as its subscription — no longer cancelled, the same
 * paid period, nothing charged or granted until its first charge at the period's end. A resumed one
 * not started yet that it replaces (another interval chosen) is returned, to stop at the gateway.
 * Changes nothing when the account has moved on meanwhile (fallen to Free, refunded, paid again).
 */
export async function adoptSuccessor(
  trx: Trx,
  subscriptionId: string,
  o: { actorUserId: string | null },
): Promise<{ adopted: boolean; replacedSubscriptionId?: string; stopSubscriptionId?: string }> {
  const sub = await lockSubscription(trx, subscriptionId);
  if (!sub?.follows_id || sub.current_start !== null || sub.status === 'cancelled' || sub.status === 'completed') return { adopted: sub !== undefined && sub.current_start !== null };
  const account = await trx
    .selectFrom('account')
    .select(['subscription_id', 'subscription_status', 'cancel_at_period_end', 'current_period_end'])
    .where('id', '=', sub.account_id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (account.subscription_id === sub.id) return { adopted: true };
  // The account moved on before the card was authorised (its period ended, a refund, another plan
  // paid for): this subscription is not taken, and is stopped before its first charge.
  const drop = async (reason: string) => {
    await trx.updateTable('subscription').set({ status: 'cancelled', updated_at: new Date() }).where('id', '=', sub.id).execute();
    await writeAudit(trx, { accountId: sub.account_id, actorUserId: o.actorUserId, actor: o.actorUserId ? 'user' : 'system', action: 'billing.resume_dropped', targetType: 'subscription', targetId: sub.id, data: { follows: sub.follows_id, reason } });
    return { adopted: false, stopSubscriptionId: sub.id };
  };
  if (account.subscription_status !== 'active' || account.subscription_id === null) return drop('not_on_the_plan');
  let replaced: string | undefined;
  if (account.subscription_id === sub.follows_id) {
    if (!account.cancel_at_period_end) return drop('not_cancelled');
  } else {
    const other = await trx.selectFrom('subscription').select(['id', 'follows_id', 'current_start']).where('id', '=', account.subscription_id).executeTakeFirst();
    if (!other || other.follows_id !== sub.follows_id || !isPendingSuccessor(other)) return drop('another_subscription');
    await trx.updateTable('subscription').set({ status: 'cancelled', updated_at: new Date() }).where('id', '=', other.id).where('status', 'in', LIVE_STATUSES).execute();
    replaced = other.id;
  }
  await trx.updateTable('account').set({ subscription_id: sub.id, cancel_at_period_end: false, updated_at: new Date() }).where('id', '=', sub.account_id).execute();
  if (sub.status === 'created') await trx.updateTable('subscription').set({ status: 'authenticated', updated_at: new Date() }).where('id', '=', sub.id).execute();
  await writeAudit(trx, {
    accountId: sub.account_id,
    actorUserId: o.actorUserId,
    actor: o.actorUserId ? 'user' : 'system',
    action: 'billing.resumed_at_period_end',
    targetType: 'subscription',
    targetId: sub.id,
    data: { follows: sub.follows_id, plan: sub.plan, interval: sub.interval, starts_at: sub.start_at?.toISOString() ?? null, ...(replaced ? { replaced_subscription_id: replaced } : {}) },
  });
  return { adopted: true, ...(replaced ? { replacedSubscriptionId: replaced } : {}) };
}

/** A renewal failed: past_due with a grace period (once; a second failure does not extend it). */
export async function markPastDue(trx: Trx, accountId: string, subId: string, now: Date, reason: string): Promise<BillingMail | null> {
  const graceEndsAt = addDays(now, PAST_DUE_GRACE_DAYS);
  const row = await trx
    .updateTable('account')
    .set({ subscription_status: 'past_due', grace_ends_at: graceEndsAt, updated_at: new Date() })
    .where('id', '=', accountId)
    .where('subscription_id', '=', subId)
    .where('subscription_status', '=', 'active')
    .returning('id')
    .executeTakeFirst();
  if (!row) return null;
  await writeAudit(trx, { accountId, actor: 'system', actorUserId: null, action: 'billing.past_due', targetType: 'subscription', targetId: subId, data: { reason, grace_ends_at: graceEndsAt.toISOString() } });
  return { accountId, kind: 'past_due', graceEndsAt };
}

/**
 * A paused subscription's paid period is over: the account is suspended (402 for new work, data
 * readable and exportable) until a charge — after Razorpay resumes it, or a new checkout — restores it.
 */
export async function suspendIfPausedAndDue(trx: Trx, accountId: string, now: Date): Promise<boolean> {
  const row = await trx
    .updateTable('account')
    .set({ subscription_status: 'suspended', updated_at: new Date() })
    .where('id', '=', accountId)
    .where('subscription_status', '=', 'active')
    .where('cancel_at_period_end', '=', false)
    .where('current_period_end', '<=', now)
    .where('subscription_id', 'in', (eb) => eb.selectFrom('subscription').select('subscription.id').where('subscription.status', '=', 'paused'))
    .returning('id')
    .executeTakeFirst();
  if (row) await writeAudit(trx, { accountId, actor: 'system', actorUserId: null, action: 'billing.suspended', targetType: 'account', targetId: accountId, data: { at: now.toISOString(), reason: 'paused' } });
  return row !== undefined;
}

/**
 * Falls to Free (data kept) when a cancelled plan's paid period is over. Its subscription, cancelled at
 * Razorpay for this cycle's end, is recorded ended with it: Razorpay's subscription.cancelled may come
 * later (or be lost), and until then the row would pass for a payment in progress and hold every new
 * checkout ("A payment for this account is being processed").
 */
export async function endIfDue(trx: Trx, accountId: string, now: Date): Promise<boolean> {
  const was = await trx.selectFrom('account').select('subscription_id').where('id', '=', accountId).executeTakeFirst();
  const row = await trx
    .updateTable('account')
    .set(freePlanColumns(new Date()))
    .where('id', '=', accountId)
    .where('cancel_at_period_end', '=', true)
    .where((eb) => eb.or([eb('current_period_end', 'is', null), eb('current_period_end', '<=', now)]))
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  const subId = was?.subscription_id;
  // Not waited for when a charge of it holds it (billing-tick holds the account, which that charge
  // waits for: they would deadlock); the charge, applied next, decides what becomes of it.
  if (subId) {
    await trx
      .updateTable('subscription')
      .set({ status: 'cancelled', updated_at: new Date() })
      .where('id', 'in', (eb) => eb.selectFrom('subscription').select('id').where('id', '=', subId).where('status', 'in', LIVE_STATUSES).forUpdate().skipLocked())
      .execute();
  }
  await writeAudit(trx, { accountId, actor: 'system', actorUserId: null, action: 'billing.fell_to_free', targetType: 'account', targetId: accountId, data: { at: now.toISOString() } });
  return true;
}
