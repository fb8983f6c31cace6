// The billing period is the truth (issue #10): what Razorpay tells us — the checkout handler's
// verified payment and the signed webhooks — moves the account between active, past_due (a grace
// period) and suspended, extends its period and refills its credits. Every change is one
// transaction keyed by Razorpay's ids: a payment id is charged once (the `payment` row), an event
// id is applied once (the `billing_event` row, stored whatever its outcome), and an event older
// than the last status applied cannot roll the status back.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, PaidPlan, PaymentTable, RzpSubscriptionStatus, SubscriptionTable } from '../../../db/types';
import { PAST_DUE_GRACE_DAYS, PLAN_RANK, planByType, isUnlimited, type BillingInterval } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { grantPeriodMonth, revokeCredits } from '../credits/credits';
import { writeAudit } from '../audit/audit';
import { hexSignatureMatches, webhookSignature, type PaymentGateway } from './razorpay';
import { z } from 'zod';
import { addMonthsClamped } from '../../lib/dates';
import { sendBillingMails, type BillingMail } from './billing-mail';

type Trx = Transaction<Database>;
const DAY = 24 * 60 * 60 * 1000;

/**
 * The account columns of a plan fallen to Free (refund, end of a cancelled period): data kept, no
 * subscription, and Free's usage period starts (the paid one is over: This Month no longer counts its
 * use against Free's quota).
 */
function freePlanColumns(updatedAt: Date) {
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

export const BILLING_EVENTS = [
  'subscription.authenticated',
  'subscription.activated',
  'subscription.charged',
  'subscription.pending',
  'subscription.halted',
  'subscription.paused',
  'subscription.resumed',
  'subscription.cancelled',
  'subscription.completed',
  'payment.failed',
  'refund.processed',
  'refund.failed',
] as const;

/** The end of a period that starts at `start`: one calendar month or one year later (UTC, Jan 31 → Feb 28). */
export function addInterval(start: Date, interval: BillingInterval): Date {
  return addMonthsClamped(start, interval === 'annual' ? 12 : 1);
}

const fromUnix = (s: number | null | undefined): Date | null => (typeof s === 'number' && s > 0 ? new Date(s * 1000) : null);

/** Mails to send once the transaction has committed. */

export interface ChargeInput {
  subscriptionId: string;
  paymentId: string;
  amount: number;
  currency: string;
  periodStart: Date;
  periodEnd: Date;
  /** The Razorpay plan the charge was for (webhooks say; the checkout handler does not). */
  billingPlanId?: string | null;
  source: 'checkout' | 'webhook';
  actorUserId?: string | null;
  /** When Razorpay took the payment (the event's time), if known: the payment's date (receipt, refund window). */
  paidAt?: Date | null;
}

/** The payment's recorded date: Razorpay's time of it when known (never in the future), else now. */
const paymentDate = (c: ChargeInput): Date | undefined => (c.paidAt && c.paidAt.getTime() < Date.now() ? c.paidAt : undefined);

export type ChargeOutcome =
  | {
      applied: true;
      plan: PaidPlan;
      creditsGranted: number;
      /** a refund that came first took it back: stop this subscription at the gateway */
      cancelSubscriptionId?: string;
      /** the account's previous subscription, replaced by this one (an unpaid renewal paid again by a new checkout): stop it at the gateway */
      replacedSubscriptionId?: string;
    }
  /** stale: the charge of a period older than one already applied (delivered late): recorded, nothing else */
  | { applied: false; reason: 'duplicate' | 'unknown_subscription' | 'stale' }
  /**
   * A second payment for a period another subscription of the account has already paid (Razorpay's
   * own retry of an unpaid subscription charged while the owner paid again with a new one, in
   * either order): recorded as second_payment, nothing granted, the account untouched. After commit
   * it is refunded through the refund API (refundSecondPayments) and its subscription stopped.
   */
  | { applied: false; reason: 'second_payment'; refundPaymentId: string; cancelSubscriptionId: string };

/**
 * Every billing transaction of an account (a webhook's event, the checkout handler's charge, a
 * refund) first takes this account's billing lock, then its rows: subscription, account, payment.
 * Two of them never hold rows the other waits for — a charge of a new subscription also updates the
 * subscription it replaces, which a charge of that one (Razorpay's retry, at the same moment) holds
 * — so Postgres never has to abort one as a deadlock (a webhook answered 500, a checkout's answer an
 * error, a refund made at Razorpay whose plan change rolled back).
 */
export async function lockAccountBilling(trx: Trx, accountId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(727275, hashtext(${accountId}))`.execute(trx);
}

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

/** The subscription row, locked after its account's billing lock (undefined: not ours). */
async function lockSubscription(trx: Trx, subscriptionId: string): Promise<Selectable<SubscriptionTable> | undefined> {
  const seen = await trx.selectFrom('subscription').select('account_id').where('id', '=', subscriptionId).executeTakeFirst();
  if (!seen) return undefined;
  await lockAccountBilling(trx, seen.account_id);
  return trx.selectFrom('subscription').selectAll().where('id', '=', subscriptionId).forUpdate().executeTakeFirst();
}

/**
 * One charge: records the payment (once per payment id), starts the period, refills the credits and
 * makes the account active on the subscription's plan. A plan change waiting for the renewal takes
 * effect with the first charge of the new plan.
 */
export async function applyCharge(trx: Trx, c: ChargeInput): Promise<ChargeOutcome> {
  const sub = await lockSubscription(trx, c.subscriptionId);
  if (!sub) return { applied: false, reason: 'unknown_subscription' };
  const account = await trx
    .selectFrom('account')
    .select(['id', 'plan', 'subscription_id', 'current_period_end', 'subscription_status', 'cancel_at_period_end'])
    .where('id', '=', sub.account_id)
    .forUpdate()
    .executeTakeFirstOrThrow();

  // The account is paid up on another subscription that goes on (a new checkout is only possible
  // from Free, from an unpaid renewal or after a cancellation, so this is the second payment of
  // one period): this one is given back, not applied.
  if (account.subscription_id !== null && account.subscription_id !== sub.id && account.subscription_status === 'active' && !account.cancel_at_period_end) {
    // …unless the account's subscription is a resumed one that has not started (nothing paid on it
    // yet): this charge (a higher plan now) replaces it, like a cancelled one.
    const held = await trx.selectFrom('subscription').select(['follows_id', 'current_start']).where('id', '=', account.subscription_id).executeTakeFirst();
    if (!held || !isPendingSuccessor(held)) return recordSecondPayment(trx, sub, c, account.subscription_id);
  }

  // The charge of a period older than the one this subscription is in (Razorpay re-delivered it
  // after the newer period's charge): a payment to record, never a new period — the current
  // period's plan, usage, credits and end stay as they are.
  if (sub.current_start !== null && c.periodStart < sub.current_start) return recordLateCharge(trx, sub, c);

  let planType: PaidPlan = sub.plan;
  let interval: BillingInterval = sub.interval;
  if (c.billingPlanId && c.billingPlanId !== sub.billing_plan_id) {
    const bp = await trx.selectFrom('billing_plan').selectAll().where('id', '=', c.billingPlanId).executeTakeFirst();
    if (bp) {
      planType = bp.plan;
      interval = bp.interval;
      await trx
        .updateTable('subscription')
        .set({ plan: bp.plan, interval: bp.interval, amount: bp.amount, billing_plan_id: bp.id, next_plan: null, next_billing_plan_id: null, updated_at: new Date() })
        .where('id', '=', sub.id)
        .execute();
    }
  }
  const plan = planByType(planType);
  const inserted = await trx
    .insertInto('payment')
    .values({
      id: c.paymentId,
      account_id: sub.account_id,
      subscription_id: sub.id,
      plan: planType,
      interval,
      currency: sub.currency,
      amount: c.amount,
      status: 'captured',
      period_start: c.periodStart,
      period_end: c.periodEnd,
      credits_granted: plan.monthlyValidations,
      created_at: paymentDate(c),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    // Already charged (the checkout handler and the webhook both report the first payment): keep
    // Razorpay's own period, which the webhook carries, when it is the newest.
    if (c.source === 'webhook') await syncPeriod(trx, sub.id, sub.account_id, account.subscription_id, c.periodStart, c.periodEnd);
    return { applied: false, reason: 'duplicate' };
  }

  // Moving up onto this plan keeps what the account had; the same plan going on (a renewal, or an
  // unpaid renewal paid again by a new subscription) starts afresh unless the plan rolls over, and so
  // does a lower plan (support moved the subscription down at its renewal): Starter is 10,000 a month,
  // not Pro's leftover on top.
  const upgrade = PLAN_RANK[planType] > PLAN_RANK[account.plan];
  // Month 0 of the period, keyed like an annual plan's monthly refills (credit_grant): granted once.
  const grant = await grantPeriodMonth(trx, sub.account_id, {
    subscriptionId: sub.id,
    paymentId: c.paymentId,
    monthStart: c.periodStart,
    monthly: plan.monthlyValidations,
    rollover: plan.rollover,
    upgrade,
    unlimited: isUnlimited(plan.monthlyValidations),
  });
  const balance = grant.balance;
  const creditsGranted = grant.granted ? plan.monthlyValidations : 0;
  if (!grant.granted) await trx.updateTable('payment').set({ credits_granted: 0 }).where('id', '=', c.paymentId).execute();
  const periodEnd = account.current_period_end && account.subscription_id === sub.id && account.current_period_end > c.periodEnd ? account.current_period_end : c.periodEnd;
  // The owner cancelled this subscription (at its cycle end) — maybe just after Razorpay charged this
  // renewal, whose webhook came after the cancel (and after billing-tick let the period lapse):
  // Razorpay ends it with the period just paid, so the plan does too; the charge does not undo it.
  const ownerCancelled =
    sub.status !== 'cancelled' &&
    (await trx
      .selectFrom('audit_log')
      .select('id')
      .where('account_id', '=', sub.account_id)
      .where('action', '=', 'billing.cancelled')
      .where('target_id', '=', sub.id)
      .executeTakeFirst()) !== undefined;
  await trx
    .updateTable('account')
    .set({
      plan: planType,
      team_member_limit: plan.teamMemberLimit,
      subscription_status: 'active',
      subscription_id: sub.id,
      billing_interval: interval,
      current_period_end: periodEnd,
      grace_ends_at: null,
      cancel_at_period_end: sub.status === 'cancelled' || ownerCancelled,
      updated_at: new Date(),
    })
    .where('id', '=', sub.account_id)
    .execute();
  await trx
    .updateTable('subscription')
    .set({
      status: sub.status === 'cancelled' || sub.status === 'completed' ? sub.status : 'active',
      current_start: sql`greatest(current_start, ${c.periodStart})`,
      current_end: sql`greatest(current_end, ${c.periodEnd})`,
      updated_at: new Date(),
    })
    .where('id', '=', sub.id)
    .execute();
  // A new subscription replaces the account's older one (an unpaid renewal paid again by a new
  // checkout): the older one is recorded cancelled here and stopped at the gateway after commit,
  // so it can no longer collect its dues for the same service.
  const replaced =
    account.subscription_id && account.subscription_id !== sub.id
      ? await trx
          .updateTable('subscription')
          .set({ status: 'cancelled', updated_at: new Date() })
          .where('id', '=', account.subscription_id)
          .where('account_id', '=', sub.account_id)
          .where('status', 'in', LIVE_STATUSES)
          .returning(['id', 'follows_id'])
          .executeTakeFirst()
      : undefined;
  // A resumed subscription not started yet, replaced: the cancelled one it was to follow ends with
  // its period at Razorpay and takes nothing more; recorded ended now, so it holds no later checkout.
  if (replaced?.follows_id && replaced.follows_id !== sub.id) {
    await trx.updateTable('subscription').set({ status: 'cancelled', updated_at: new Date() }).where('id', '=', replaced.follows_id).where('account_id', '=', sub.account_id).where('status', 'in', LIVE_STATUSES).execute();
  }
  await writeAudit(trx, {
    accountId: sub.account_id,
    actorUserId: c.actorUserId ?? null,
    actor: c.actorUserId ? 'user' : 'system',
    action: 'billing.charged',
    targetType: 'payment',
    targetId: c.paymentId,
    data: {
      subscription_id: sub.id,
      from_plan: account.plan,
      plan: planType,
      interval,
      amount: c.amount,
      currency: sub.currency,
      period_start: c.periodStart.toISOString(),
      period_end: c.periodEnd.toISOString(),
      credits_granted: creditsGranted,
      credits_after: balance,
      via: c.source,
      ...(replaced ? { replaced_subscription_id: replaced.id } : {}),
    },
  });
  const cancel = await applyEarlyRefund(trx, c.paymentId, new Date());
  return { applied: true, plan: planType, creditsGranted, ...(cancel ? { cancelSubscriptionId: cancel } : {}), ...(replaced ? { replacedSubscriptionId: replaced.id } : {}) };
}

async function recordLateCharge(trx: Trx, sub: Selectable<SubscriptionTable>, c: ChargeInput): Promise<ChargeOutcome> {
  const bp = c.billingPlanId ? await trx.selectFrom('billing_plan').select(['plan', 'interval']).where('id', '=', c.billingPlanId).executeTakeFirst() : undefined;
  const inserted = await trx
    .insertInto('payment')
    .values({
      id: c.paymentId,
      account_id: sub.account_id,
      subscription_id: sub.id,
      plan: bp?.plan ?? sub.plan,
      interval: bp?.interval ?? sub.interval,
      currency: sub.currency,
      amount: c.amount,
      status: 'captured',
      period_start: c.periodStart,
      period_end: c.periodEnd,
      credits_granted: 0,
      created_at: paymentDate(c),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return { applied: false, reason: 'duplicate' };
  await writeAudit(trx, {
    accountId: sub.account_id,
    actorUserId: c.actorUserId ?? null,
    actor: c.actorUserId ? 'user' : 'system',
    action: 'billing.charge_recorded_late',
    targetType: 'payment',
    targetId: c.paymentId,
    data: { subscription_id: sub.id, plan: bp?.plan ?? sub.plan, amount: c.amount, currency: sub.currency, period_start: c.periodStart.toISOString(), period_end: c.periodEnd.toISOString(), current_start: sub.current_start?.toISOString() ?? null, via: c.source },
  });
  // A refund.processed for it that came first: applied now (an older period's: recorded, the plan stays).
  await applyEarlyRefund(trx, c.paymentId, new Date());
  return { applied: false, reason: 'stale' };
}

async function recordSecondPayment(trx: Trx, sub: Selectable<SubscriptionTable>, c: ChargeInput, keptSubscriptionId: string): Promise<ChargeOutcome> {
  const inserted = await trx
    .insertInto('payment')
    .values({
      id: c.paymentId,
      account_id: sub.account_id,
      subscription_id: sub.id,
      plan: sub.plan,
      interval: sub.interval,
      currency: sub.currency,
      amount: c.amount,
      status: 'captured',
      period_start: c.periodStart,
      period_end: c.periodEnd,
      credits_granted: 0,
      second_payment: true,
      created_at: paymentDate(c),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return { applied: false, reason: 'duplicate' };
  await trx.updateTable('subscription').set({ status: 'cancelled', updated_at: new Date() }).where('id', '=', sub.id).where('status', 'in', LIVE_STATUSES).execute();
  await writeAudit(trx, {
    accountId: sub.account_id,
    actorUserId: c.actorUserId ?? null,
    actor: c.actorUserId ? 'user' : 'system',
    action: 'billing.second_payment',
    targetType: 'payment',
    targetId: c.paymentId,
    data: { subscription_id: sub.id, kept_subscription_id: keptSubscriptionId, amount: c.amount, currency: sub.currency, period_start: c.periodStart.toISOString(), via: c.source, refund: 'due' },
  });
  // Already refunded (a refund.processed that came before this charge): recorded, nothing to give back twice.
  await applyEarlyRefund(trx, c.paymentId, new Date());
  return { applied: false, reason: 'second_payment', refundPaymentId: c.paymentId, cancelSubscriptionId: sub.id };
}

/**
 * Gives back the second payments of a period (second_payment, still captured) through Razorpay's refund
 * API, after the transaction that recorded them. One that cannot be refunded now stays due and the
 * billing reconciliation tries again; its refund.processed webhook finds it refunded (or records it:
 * it is never the account's current period, so the plan stays).
 */
export async function refundSecondPayments(db: Kysely<Database>, gateway: Pick<PaymentGateway, 'refundPayment' | 'mode'> | null, paymentIds: string[]): Promise<string[]> {
  const done: string[] = [];
  if (!gateway || paymentIds.length === 0) return done;
  for (const id of paymentIds) {
    const pay = await db.selectFrom('payment').innerJoin('subscription', 'subscription.id', 'payment.subscription_id').select(['payment.id', 'payment.amount', 'payment.refunded_amount', 'payment.account_id', 'subscription.mode']).where('payment.id', '=', id).where('payment.second_payment', '=', true).where('payment.status', '=', 'captured').executeTakeFirst();
    if (!pay || pay.mode !== gateway.mode) continue;
    try {
      const refund = await gateway.refundPayment(pay.id, pay.amount - pay.refunded_amount, { account_id: pay.account_id, reason: 'second_payment_for_period' });
      await recordRestRefunded(db, pay, refund.id, 'second_payment');
      done.push(pay.id);
    } catch (err) {
      console.error('[billing] refund of a second payment failed (retried by the reconciliation):', (err as { error?: unknown })?.error ?? err);
    }
  }
  return done;
}

/**
 * Razorpay took refund `refundId` for what was left of `pay`: the payment is recorded refunded in full
 * (unless another refund was recorded meanwhile: refund.processed then records that one by its id),
 * with its audit entry, in one transaction.
 */
async function recordRestRefunded(
  db: Kysely<Database>,
  pay: { id: string; amount: number; refunded_amount: number; account_id: string },
  refundId: string,
  via: 'second_payment' | 'refund_failed_retry',
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('payment')
      .set({ status: 'refunded', refunded_amount: pay.amount, refund_ids: sql<string[]>`array_append(refund_ids, ${refundId})`, refund_id: refundId, refunded_at: new Date() })
      .where('id', '=', pay.id)
      .where('status', '=', 'captured')
      .where('refunded_amount', '=', pay.refunded_amount)
      .returning('id')
      .executeTakeFirst();
    if (row) await writeAudit(trx, { accountId: pay.account_id, actor: 'system', actorUserId: null, action: 'billing.refund_recorded', targetType: 'payment', targetId: pay.id, data: { refund_id: refundId, amount: pay.amount - pay.refunded_amount, payment_amount: pay.amount, partial: false, current_period: false, via } });
  });
}

async function syncPeriod(trx: Trx, subId: string, accountId: string, accountSubId: string | null, start: Date, end: Date): Promise<void> {
  await trx
    .updateTable('subscription')
    .set({ current_start: sql`greatest(current_start, ${start})`, current_end: sql`greatest(current_end, ${end})`, updated_at: new Date() })
    .where('id', '=', subId)
    .execute();
  if (accountSubId === subId) {
    // The checkout path estimated the period; Razorpay's own end for that same charge replaces it.
    await trx
      .updateTable('account')
      .set({ current_period_end: end })
      .where('id', '=', accountId)
      .where((eb) => eb.or([eb('current_period_end', 'is', null), eb('current_period_end', '<=', addDays(end, 3))]))
      .execute();
  }
}

const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY);

/** A renewal failed: past_due with a grace period (once; a second failure does not extend it). */
async function markPastDue(trx: Trx, accountId: string, subId: string, now: Date, reason: string): Promise<BillingMail | null> {
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

// ── Refunds ─────────────────────────────────────────────────────────────────────────────────

/**
 * The refund rule, whichever door the refund came through (the owner's refund button or Razorpay's
 * dashboard, reported by `refund.processed`): refunding the payment of the account's current
 * subscription period ends that subscription at once, lowers the account to Free and takes back
 * the credits that payment granted; audit-logged as `billing.refunded`. Call with the payment row
 * locked, inside the transaction that marks it refunded.
 */
export async function lowerPlanForRefund(
  trx: Trx,
  o: { pay: Selectable<PaymentTable>; refundId: string; now: Date; actorUserId: string | null; via: 'refund_button' | 'razorpay_dashboard' },
): Promise<{ stopped: string[] }> {
  const { pay, now } = o;
  const account = await trx.selectFrom('account').select(['plan', 'subscription_id']).where('id', '=', pay.account_id).forUpdate().executeTakeFirstOrThrow();
  if (pay.subscription_id) await trx.updateTable('subscription').set({ status: 'cancelled', updated_at: now }).where('id', '=', pay.subscription_id).execute();
  // A resumed plan's subscription waiting to go on after this period: it goes too (stopped at the
  // gateway by the caller), or it would charge the customer whose payment was just given back.
  const stopped =
    pay.subscription_id && account.subscription_id && account.subscription_id !== pay.subscription_id
      ? (
          await trx
            .updateTable('subscription')
            .set({ status: 'cancelled', updated_at: now })
            .where('id', '=', account.subscription_id)
            .where('follows_id', '=', pay.subscription_id)
            .where('current_start', 'is', null)
            .where('status', 'in', LIVE_STATUSES)
            .returning('id')
            .execute()
        ).map((r) => r.id)
      : [];
  const balance = await revokeCredits(trx, pay.account_id, pay.credits_granted);
  await trx
    .updateTable('account')
    .set(freePlanColumns(now))
    .where('id', '=', pay.account_id)
    .execute();
  await writeAudit(trx, {
    accountId: pay.account_id,
    actorUserId: o.actorUserId,
    actor: o.actorUserId ? 'user' : 'system',
    action: 'billing.refunded',
    targetType: 'payment',
    targetId: pay.id,
    data: { refund_id: o.refundId, amount: pay.amount, currency: pay.currency, from_plan: account.plan, plan: 'free', credits_revoked: pay.credits_granted, credits_after: balance, via: o.via, ...(stopped.length ? { stopped_subscriptions: stopped } : {}) },
  });
  return { stopped };
}

/**
 * The rows a refund changes, locked in the one order every billing transaction takes them — the
 * account's billing lock, subscription, account, payment (applyCharge: the same) — so a refund and a charge of the same subscription wait for each other instead of
 * deadlocking (Postgres would abort one: a webhook answered 500, or a refund made at Razorpay whose
 * plan change rolled back).
 */
export async function lockForRefund(trx: Trx, o: { paymentId: string; accountId: string; subscriptionId: string | null }) {
  await lockAccountBilling(trx, o.accountId);
  if (o.subscriptionId) await trx.selectFrom('subscription').select('id').where('id', '=', o.subscriptionId).forUpdate().execute();
  const account = await trx.selectFrom('account').select(['plan', 'subscription_id', 'monthly_validations_used']).where('id', '=', o.accountId).forUpdate().executeTakeFirstOrThrow();
  const pay = await trx.selectFrom('payment').selectAll().where('id', '=', o.paymentId).forUpdate().executeTakeFirstOrThrow();
  return { pay, account };
}

export type RefundOutcome = { outcome: 'refunded' | 'refund_recorded' | 'already_refunded' | 'unknown_payment'; accountId: string | null; cancelSubscriptionId?: string; alsoCancel?: string[] };

/**
 * A refund Razorpay reports (`refund.processed`). Once per payment: a payment already refunded (our
 * own button got there first, or a replay) changes nothing. A full refund of the payment that paid
 * the account's current period follows the refund rule (lowerPlanForRefund); a refund of an older
 * period's payment, or a partial one, is recorded and audit-logged and the plan stays. A refund for a
 * payment not charged here yet (events out of order) is kept as `unknown_payment` and applied by the
 * charge when it arrives (applyCharge).
 */
export async function applyRefund(trx: Trx, o: { paymentId: string; refundId: string; amount: number | null; now: Date; via: 'webhook' | 'late_charge' }): Promise<RefundOutcome> {
  const seen = await trx.selectFrom('payment').select(['account_id', 'subscription_id']).where('id', '=', o.paymentId).executeTakeFirst();
  if (!seen) return { outcome: 'unknown_payment', accountId: null };
  const { pay, account } = await lockForRefund(trx, { paymentId: o.paymentId, accountId: seen.account_id, subscriptionId: seen.subscription_id });
  if (pay.status === 'refunded') return { outcome: 'already_refunded', accountId: pay.account_id };
  if (pay.status !== 'captured') return { outcome: 'refund_recorded', accountId: pay.account_id };
  const newer = pay.subscription_id
    ? await trx
        .selectFrom('payment')
        .select('id')
        .where('subscription_id', '=', pay.subscription_id)
        .where('status', '=', 'captured')
        .where('id', '<>', pay.id)
        .where((eb) => eb.or([eb('period_start', '>', pay.period_start ?? new Date(0)), eb.and([eb('period_start', 'is', null), eb('created_at', '>', pay.created_at)])]))
        .executeTakeFirst()
    : undefined;
  // The same refund again under another event id (a webhook re-sent, the reconciliation): once.
  if (pay.refund_ids.includes(o.refundId)) return { outcome: 'already_refunded', accountId: pay.account_id };
  // Refunds add up: parts given back one by one end in a full refund like one whole refund.
  const refundedAmount = Math.min(pay.amount, pay.refunded_amount + (o.amount ?? pay.amount - pay.refunded_amount));
  const full = refundedAmount >= pay.amount;
  // The account's period is this payment's also while a resumed plan's subscription waits to follow it.
  const follower =
    pay.subscription_id !== null && account.subscription_id !== null && account.subscription_id !== pay.subscription_id
      ? await trx.selectFrom('subscription').select(['follows_id', 'current_start']).where('id', '=', account.subscription_id).executeTakeFirst()
      : undefined;
  const followsThis = follower !== undefined && follower.follows_id === pay.subscription_id && isPendingSuccessor(follower);
  const current = pay.subscription_id !== null && (account.subscription_id === pay.subscription_id || followsThis) && !newer;
  await trx
    .updateTable('payment')
    // refund_id and refunded_at: the refund that completed it (the table's check: set exactly when refunded).
    .set({ status: full ? 'refunded' : 'captured', refunded_amount: refundedAmount, refund_ids: sql<string[]>`array_append(refund_ids, ${o.refundId})`, refund_id: full ? o.refundId : null, refunded_at: full ? o.now : null })
    .where('id', '=', pay.id)
    .execute();
  if (full && current) {
    const lowered = await lowerPlanForRefund(trx, { pay, refundId: o.refundId, now: o.now, actorUserId: null, via: 'razorpay_dashboard' });
    return { outcome: 'refunded', accountId: pay.account_id, cancelSubscriptionId: pay.subscription_id ?? undefined, alsoCancel: lowered.stopped };
  }
  await writeAudit(trx, {
    accountId: pay.account_id,
    actor: 'system',
    actorUserId: null,
    action: 'billing.refund_recorded',
    targetType: 'payment',
    targetId: pay.id,
    data: { refund_id: o.refundId, amount: o.amount, payment_amount: pay.amount, refunded_amount: refundedAmount, partial: !full, current_period: current, via: o.via },
  });
  return { outcome: 'refund_recorded', accountId: pay.account_id };
}

/**
 * Razorpay could not complete a refund (refund.failed: the customer's bank refused it, say): the
 * money is still with us. The payment no longer counts it (refunded_amount, refund_ids; captured
 * again), audit-logged `billing.refund_failed`. A refund that had taken the plan away (the payment
 * was refunded in full: the plan, its credits and the subscription are gone already) is owed: it is
 * made again through the refund API after the commit (refundAgain). Once per refund id.
 */
async function applyRefundFailed(trx: Trx, o: { paymentId: string; refundId: string; amount: number | null }): Promise<{ outcome: string; accountId: string | null; retry: boolean }> {
  const seen = await trx.selectFrom('payment').select(['account_id', 'subscription_id']).where('id', '=', o.paymentId).executeTakeFirst();
  if (!seen) return { outcome: 'unknown_payment', accountId: null, retry: false };
  const { pay } = await lockForRefund(trx, { paymentId: o.paymentId, accountId: seen.account_id, subscriptionId: seen.subscription_id });
  // Never recorded (it failed before its refund.processed could come), or already undone: nothing to take back.
  if (!pay.refund_ids.includes(o.refundId)) return { outcome: 'refund_failed_seen', accountId: pay.account_id, retry: false };
  const amount = Math.min(o.amount ?? pay.refunded_amount, pay.refunded_amount);
  const owed = pay.status === 'refunded';
  await trx
    .updateTable('payment')
    .set({ status: 'captured', refunded_amount: pay.refunded_amount - amount, refund_ids: sql<string[]>`array_remove(refund_ids, ${o.refundId})`, refund_id: null, refunded_at: null })
    .where('id', '=', pay.id)
    .execute();
  await writeAudit(trx, {
    accountId: pay.account_id,
    actor: 'system',
    actorUserId: null,
    action: 'billing.refund_failed',
    targetType: 'payment',
    targetId: pay.id,
    data: { refund_id: o.refundId, amount, payment_amount: pay.amount, refunded_amount: pay.refunded_amount - amount, retry: owed },
  });
  return { outcome: 'refund_failed', accountId: pay.account_id, retry: owed };
}

/**
 * Makes again, through the refund API, the refunds of payments whose full refund failed at Razorpay
 * (applyRefundFailed): what is left of the payment, recorded refunded when Razorpay takes it. One
 * that cannot be made now stays owed (captured) and the billing reconciliation tries again.
 */
export async function refundAgain(db: Kysely<Database>, gateway: Pick<PaymentGateway, 'refundPayment' | 'mode'> | null, paymentIds: string[]): Promise<string[]> {
  const done: string[] = [];
  for (const id of paymentIds) {
    const pay = await db.selectFrom('payment').select(['id', 'amount', 'refunded_amount', 'account_id', 'status']).where('id', '=', id).where('status', '=', 'captured').executeTakeFirst();
    if (!pay || !gateway || pay.amount - pay.refunded_amount <= 0) continue;
    try {
      const refund = await gateway.refundPayment(pay.id, pay.amount - pay.refunded_amount, { account_id: pay.account_id, reason: 'refund_failed_retry' });
      await recordRestRefunded(db, pay, refund.id, 'refund_failed_retry');
      done.push(pay.id);
    } catch (err) {
      console.error('[billing] a failed refund could not be made again (retried by the reconciliation; see audit billing.refund_failed):', (err as { error?: unknown })?.error ?? err);
    }
  }
  return done;
}

/** A refund that arrived before its charge (stored as unknown_payment) is applied once the charge is in. */
async function applyEarlyRefund(trx: Trx, paymentId: string, now: Date): Promise<string | null> {
  const early = await trx
    .selectFrom('billing_event')
    .select(['id', 'payload'])
    .where('event', '=', 'refund.processed')
    .where('payment_id', '=', paymentId)
    .where('outcome', '=', 'unknown_payment')
    .orderBy('received_at')
    .forUpdate()
    .executeTakeFirst();
  if (!early) return null;
  const parsed = webhookBody.safeParse(typeof early.payload === 'string' ? JSON.parse(early.payload) : early.payload);
  const refund = parsed.success ? parsed.data.payload.refund?.entity : undefined;
  if (!refund) return null;
  const r = await applyRefund(trx, { paymentId, refundId: refund.id, amount: refund.amount ?? null, now, via: 'late_charge' });
  await trx.updateTable('billing_event').set({ outcome: r.outcome, account_id: r.accountId }).where('id', '=', early.id).execute();
  return r.cancelSubscriptionId ?? null;
}

async function cancelAtGateway(gateway: Pick<PaymentGateway, 'cancelSubscription'> | null, ids: string[]): Promise<void> {
  for (const id of ids) {
    try {
      await gateway?.cancelSubscription(id, false);
    } catch (err) {
      console.error('[billing] cancel at the gateway failed (a subscription refunded or replaced; the account is changed anyway):', (err as { error?: unknown })?.error ?? err);
    }
  }
}

// ── Webhooks ─────────────────────────────────────────────────────────────────────────────────

const entity = <T extends z.ZodTypeAny>(inner: T) => z.object({ entity: inner }).optional();
const subscriptionEntity = z.looseObject({
  id: z.string().min(1).max(100),
  plan_id: z.string().max(100).optional(),
  status: z.string().max(40).optional(),
  current_start: z.number().nullable().optional(),
  current_end: z.number().nullable().optional(),
});
const paymentEntity = z.looseObject({
  id: z.string().min(1).max(100),
  amount: z.number().int().nonnegative().optional(),
  currency: z.string().max(10).optional(),
  status: z.string().max(40).optional(),
  error_description: z.string().max(500).nullable().optional(),
  subscription_id: z.string().max(100).nullable().optional(),
});
const refundEntity = z.looseObject({ id: z.string().min(1).max(100), payment_id: z.string().min(1).max(100), amount: z.number().int().nonnegative().optional() });

export const webhookBody = z.looseObject({
  event: z.string().min(1).max(100),
  created_at: z.number().int().nonnegative().optional(),
  payload: z.looseObject({
    subscription: entity(subscriptionEntity),
    payment: entity(paymentEntity),
    refund: entity(refundEntity),
  }),
});
export type WebhookBody = z.infer<typeof webhookBody>;

export interface WebhookResult {
  status: 200 | 400 | 401 | 503;
  outcome: string;
  message?: string;
}

/** Webhook bodies are small JSON documents; anything larger is refused before parsing. */
export const MAX_WEBHOOK_BYTES = 256 * 1024;

/**
 * POST /api/billing/razorpay/webhook: verifies X-Razorpay-Signature over the raw body (constant
 * time), deduplicates on X-Razorpay-Event-Id and applies the event in one transaction.
 */
export async function handleRazorpayWebhook(
  deps: AppDeps,
  o: {
    rawBody: Buffer;
    signature: string | undefined;
    eventId: string | undefined;
    secret: string | null;
    now?: Date;
    /** Stops at Razorpay a subscription whose current payment a dashboard refund took back (after commit). */
    gateway?: Pick<PaymentGateway, 'cancelSubscription' | 'refundPayment' | 'mode'> | null;
  },
): Promise<WebhookResult> {
  if (!o.secret) return { status: 503, outcome: 'no_secret', message: 'Webhooks are not configured on this server.' };
  if (!hexSignatureMatches(webhookSignature(o.rawBody, o.secret), o.signature)) {
    return { status: 401, outcome: 'bad_signature', message: 'Invalid webhook signature.' };
  }
  let parsed: WebhookBody;
  try {
    const r = webhookBody.safeParse(JSON.parse(o.rawBody.toString('utf8')));
    if (!r.success) return { status: 400, outcome: 'bad_body', message: 'The webhook body is not a Razorpay event.' };
    parsed = r.data;
  } catch {
    return { status: 400, outcome: 'bad_json', message: 'The webhook body is not JSON.' };
  }
  const eventId = typeof o.eventId === 'string' && /^[A-Za-z0-9_.:-]{1,100}$/.test(o.eventId) ? o.eventId : null;
  if (!eventId) return { status: 400, outcome: 'no_event_id', message: 'X-Razorpay-Event-Id is missing.' };
  const outcome = await applyBillingEvent(deps, { eventId, event: parsed, now: o.now ?? new Date(), gateway: o.gateway ?? null });
  return { status: 200, outcome };
}

/**
 * One Razorpay event, verified (a webhook) or rebuilt from Razorpay's API (the reconciliation):
 * stored in billing_event under its id and applied in the same transaction (an id already stored
 * changes nothing: 'duplicate'); mails, cancels and refunds at the gateway after the commit.
 */
export async function applyBillingEvent(
  deps: AppDeps,
  o: { eventId: string; event: WebhookBody; now: Date; gateway: Pick<PaymentGateway, 'cancelSubscription' | 'refundPayment' | 'mode'> | null },
): Promise<string> {
  const { eventId, event: parsed, now } = o;
  const mails: BillingMail[] = [];
  const cancels: string[] = [];
  const refunds: string[] = [];
  const retries: string[] = [];
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('billing_event')
      .values({
        id: eventId,
        event: parsed.event,
        subscription_id: parsed.payload.subscription?.entity.id ?? parsed.payload.payment?.entity.subscription_id ?? null,
        payment_id: parsed.payload.payment?.entity.id ?? parsed.payload.refund?.entity.payment_id ?? null,
        event_created_at: parsed.created_at ?? null,
        outcome: 'pending',
        payload: JSON.stringify(parsed),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!fresh) return 'duplicate';
    const r = await applyEvent(trx, parsed, now, mails, cancels, refunds, retries);
    await trx.updateTable('billing_event').set({ outcome: r.outcome, account_id: r.accountId }).where('id', '=', eventId).execute();
    return r.outcome;
  });
  await sendBillingMails(deps, mails);
  await cancelAtGateway(o.gateway, cancels);
  await refundSecondPayments(deps.db, o.gateway, refunds);
  await refundAgain(deps.db, o.gateway, retries);
  return outcome;
}

async function applyEvent(trx: Trx, e: WebhookBody, now: Date, mails: BillingMail[], cancels: string[], refunds: string[], retries: string[]): Promise<{ outcome: string; accountId: string | null }> {
  const subEntity = e.payload.subscription?.entity;
  const payEntity = e.payload.payment?.entity;
  const subId = subEntity?.id ?? payEntity?.subscription_id ?? null;
  const eventAt = e.created_at ?? Math.floor(now.getTime() / 1000);

  if (e.event === 'refund.processed') {
    const refund = e.payload.refund?.entity;
    if (!refund) return { outcome: 'ignored', accountId: null };
    // Our own refund button or a refund made in Razorpay's dashboard: the same rule, applied once.
    const r = await applyRefund(trx, { paymentId: refund.payment_id, refundId: refund.id, amount: refund.amount ?? null, now, via: 'webhook' });
    if (r.cancelSubscriptionId) cancels.push(r.cancelSubscriptionId);
    cancels.push(...(r.alsoCancel ?? []));
    return { outcome: r.outcome, accountId: r.accountId };
  }

  if (e.event === 'refund.failed') {
    const refund = e.payload.refund?.entity;
    if (!refund) return { outcome: 'ignored', accountId: null };
    const r = await applyRefundFailed(trx, { paymentId: refund.payment_id, refundId: refund.id, amount: refund.amount ?? null });
    if (r.retry) retries.push(refund.payment_id);
    return { outcome: r.outcome, accountId: r.accountId };
  }

  if (!subId) return { outcome: 'ignored', accountId: null };
  const sub = await lockSubscription(trx, subId);
  if (!sub) return { outcome: 'unknown_subscription', accountId: null };
  const accountId = sub.account_id;

  // Status follows the newest event only (out-of-order deliveries cannot roll it back).
  const newer = eventAt >= Number(sub.status_event_at);
  const remoteStatus = subEntity?.status as RzpSubscriptionStatus | undefined;
  // Ended (we cancelled it at Razorpay, or Razorpay ended it) is for good: an event from before
  // that, delivered late, does not bring it back (a closed checkout 'authenticated' again would
  // block every later checkout as a payment in progress).
  const ended = sub.status === 'cancelled' || sub.status === 'completed';
  const setStatus = async (status: RzpSubscriptionStatus) => {
    if (!newer) return;
    if (ended && status !== 'cancelled' && status !== 'completed') return;
    await trx.updateTable('subscription').set({ status, status_event_at: eventAt, updated_at: new Date() }).where('id', '=', sub.id).execute();
  };

  switch (e.event) {
    case 'subscription.authenticated':
    case 'subscription.activated': {
      await setStatus(remoteStatus === 'authenticated' ? 'authenticated' : 'active');
      // A subscription going on after a cancelled one (the owner changed their mind), authorised
      // without the checkout handler's answer reaching us: the account takes it all the same.
      if (e.event === 'subscription.authenticated' && sub.follows_id) {
        const r = await adoptSuccessor(trx, sub.id, { actorUserId: null });
        if (r.replacedSubscriptionId) cancels.push(r.replacedSubscriptionId);
        if (r.stopSubscriptionId) cancels.push(r.stopSubscriptionId);
        if (r.adopted) return { outcome: 'resumed_at_period_end', accountId };
        if (r.stopSubscriptionId) return { outcome: 'resume_dropped', accountId };
      }
      return { outcome: newer ? 'status_applied' : 'stale', accountId };
    }
    case 'subscription.charged': {
      if (!payEntity || !subEntity) return { outcome: 'ignored', accountId };
      const start = fromUnix(subEntity.current_start) ?? now;
      const end = fromUnix(subEntity.current_end) ?? addInterval(start, sub.interval);
      const r = await applyCharge(trx, {
        subscriptionId: sub.id,
        paymentId: payEntity.id,
        amount: payEntity.amount ?? sub.amount,
        currency: payEntity.currency ?? sub.currency,
        periodStart: start,
        periodEnd: end,
        billingPlanId: subEntity.plan_id ?? null,
        source: 'webhook',
        paidAt: fromUnix(e.created_at),
      });
      if (!r.applied && r.reason === 'second_payment') {
        cancels.push(r.cancelSubscriptionId);
        refunds.push(r.refundPaymentId);
        return { outcome: 'second_payment', accountId };
      }
      if (r.applied && r.replacedSubscriptionId) cancels.push(r.replacedSubscriptionId);
      // Razorpay charged a subscription we had ended (refunded, replaced) because stopping it there
      // failed: the period paid is served (to its end, then Free) and the stop is tried again now,
      // so it does not charge the customer every month.
      if (r.applied && sub.status === 'cancelled' && r.cancelSubscriptionId !== sub.id) cancels.push(sub.id);
      if (r.applied && r.cancelSubscriptionId) {
        cancels.push(r.cancelSubscriptionId);
        return { outcome: 'charged_then_refunded', accountId };
      }
      if (newer) await setStatus(sub.status === 'cancelled' ? 'cancelled' : 'active');
      return { outcome: r.applied ? 'charged' : r.reason, accountId };
    }
    case 'subscription.pending':
    case 'subscription.halted': {
      await setStatus(e.event === 'subscription.pending' ? 'pending' : 'halted');
      if (!newer) return { outcome: 'stale', accountId };
      const mail = await markPastDue(trx, accountId, sub.id, now, e.event);
      if (mail) mails.push(mail);
      return { outcome: mail ? 'past_due' : 'status_applied', accountId };
    }
    case 'payment.failed': {
      if (!payEntity) return { outcome: 'ignored', accountId };
      const recorded = await trx
        .insertInto('payment')
        .values({
          id: payEntity.id,
          account_id: accountId,
          subscription_id: sub.id,
          plan: sub.plan,
          interval: sub.interval,
          currency: sub.currency,
          amount: payEntity.amount ?? sub.amount,
          status: 'failed',
          failure_reason: payEntity.error_description?.slice(0, 300) ?? null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      // A failure older than the subscription's newest event (the charge of a later attempt that
      // Razorpay delivered first) or one already recorded (the same payment under another event id)
      // changes nothing: a paying customer is never put back into dunning.
      if (!recorded) return { outcome: 'payment_failed_seen', accountId };
      if (!newer) return { outcome: 'stale', accountId };
      // A failure older than a payment this subscription has been charged since (a card declined
      // in the checkout before the one that paid, whose charge the checkout handler applied before
      // any webhook moved status_event_at) is an attempt that was followed by a payment: not dunning.
      const paidSince = await trx
        .selectFrom('payment')
        .select('id')
        .where('subscription_id', '=', sub.id)
        .where('status', 'in', ['captured', 'refunded'])
        .where('second_payment', '=', false)
        .where('created_at', '>', new Date(eventAt * 1000))
        .executeTakeFirst();
      if (paidSince) return { outcome: 'stale', accountId };
      // Only a failed renewal of a running subscription is past due; a failed first checkout is not.
      const mail = await markPastDue(trx, accountId, sub.id, now, 'payment.failed');
      if (mail) mails.push(mail);
      return { outcome: mail ? 'past_due' : 'payment_failed_recorded', accountId };
    }
    case 'subscription.paused': {
      // Razorpay charges nothing while paused: the plan runs to the end of the period already paid,
      // then the service pauses (billingTick suspends it) until the subscription is charged again.
      await setStatus('paused');
      if (!newer) return { outcome: 'stale', accountId };
      await writeAudit(trx, { accountId, actor: 'system', actorUserId: null, action: 'billing.paused', targetType: 'subscription', targetId: sub.id, data: { event: e.event } });
      await suspendIfPausedAndDue(trx, accountId, now);
      return { outcome: 'paused', accountId };
    }
    case 'subscription.resumed': {
      if (sub.status !== 'paused') {
        // Delivered before the pause it followed: remembered as the newest status event, so that
        // older pause is stale when it comes (in order or not, the subscription ends running).
        if (newer && sub.status === 'active') await trx.updateTable('subscription').set({ status_event_at: eventAt, updated_at: new Date() }).where('id', '=', sub.id).execute();
        return { outcome: 'ignored', accountId };
      }
      await setStatus('active');
      if (!newer) return { outcome: 'stale', accountId };
      await writeAudit(trx, { accountId, actor: 'system', actorUserId: null, action: 'billing.resumed', targetType: 'subscription', targetId: sub.id, data: { event: e.event } });
      // Service paused at the period's end comes back with the next charge (Razorpay charges on resuming).
      return { outcome: 'resumed', accountId };
    }
    case 'subscription.cancelled':
    case 'subscription.completed': {
      await setStatus(e.event === 'subscription.cancelled' ? 'cancelled' : 'completed');
      // The plan runs to the end of the paid period, then the account falls to Free (billingTick).
      const row = await trx
        .updateTable('account')
        .set({ cancel_at_period_end: true, updated_at: new Date() })
        .where('id', '=', accountId)
        .where('subscription_id', '=', sub.id)
        .returning('id')
        .executeTakeFirst();
      if (row) await writeAudit(trx, { accountId, actor: 'system', actorUserId: null, action: 'billing.subscription_ended', targetType: 'subscription', targetId: sub.id, data: { event: e.event } });
      await endIfDue(trx, accountId, now);
      return { outcome: 'cancel_recorded', accountId };
    }
    default:
      return { outcome: 'ignored', accountId };
  }
}

// ── Time: grace periods and ends of cancelled periods ──────────────────────────────────────────

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

/** Falls to Free (data kept) when a cancelled plan's paid period is over. */
export async function endIfDue(trx: Trx, accountId: string, now: Date): Promise<boolean> {
  const row = await trx
    .updateTable('account')
    .set(freePlanColumns(new Date()))
    .where('id', '=', accountId)
    .where('cancel_at_period_end', '=', true)
    .where((eb) => eb.or([eb('current_period_end', 'is', null), eb('current_period_end', '<=', now)]))
    .returning('id')
    .executeTakeFirst();
  if (row) await writeAudit(trx, { accountId, actor: 'system', actorUserId: null, action: 'billing.fell_to_free', targetType: 'account', targetId: accountId, data: { at: now.toISOString() } });
  return row !== undefined;
}
