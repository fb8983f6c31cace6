// What the Billing page shows: the plan, its period and renewal, whether a refund is possible, and
// the payments.
import type { Db } from '../../../db/client';
import { REFUND_WINDOW_DAYS, planByType, type Currency } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { isPendingSuccessor } from './subscription-lifecycle';
import { decideCurrency } from './currency';
import { BILLING_MESSAGES } from './billing-messages';

export type RefundEligibility = { eligible: true; paymentId: string; amount: number; currency: Currency } | { eligible: false; reason: string };

/** The latest captured charge, refundable within REFUND_WINDOW_DAYS while the period's credits are unused. */
export async function refundEligibility(db: Db, accountId: string, now = new Date()): Promise<RefundEligibility> {
  const pay = await db
    .selectFrom('payment')
    .select(['id', 'amount', 'refunded_amount', 'currency', 'created_at', 'status', 'period_start'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'captured')
    .where('second_payment', '=', false)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!pay) return { eligible: false, reason: BILLING_MESSAGES.noRefundable };
  if (now.getTime() - pay.created_at.getTime() > REFUND_WINDOW_DAYS * 24 * 60 * 60 * 1000) return { eligible: false, reason: BILLING_MESSAGES.refundWindow };
  const account = await db.selectFrom('account').select(['monthly_validations_used', 'subscription_id']).where('id', '=', accountId).executeTakeFirstOrThrow();
  // No subscription: the plan that payment paid for is over already (refunded, or ended); nothing to give back for.
  if (account.subscription_id === null) return { eligible: false, reason: BILLING_MESSAGES.noRefundable };
  if (account.monthly_validations_used > 0) return { eligible: false, reason: BILLING_MESSAGES.refundUsed };
  // What is left of it (a part may have been refunded from Razorpay's dashboard already).
  return { eligible: true, paymentId: pay.id, amount: pay.amount - pay.refunded_amount, currency: pay.currency };
}

export async function billingOverview(deps: AppDeps, o: { accountId: string; ip: string | null }) {
  const a = await deps.db
    .selectFrom('account')
    .select(['plan', 'subscription_status', 'billing_interval', 'current_period_end', 'grace_ends_at', 'cancel_at_period_end', 'subscription_id'])
    .where('id', '=', o.accountId)
    .executeTakeFirstOrThrow();
  const sub = a.subscription_id
    ? await deps.db
        .selectFrom('subscription')
        .leftJoin('billing_plan as next_bp', 'next_bp.id', 'subscription.next_billing_plan_id')
        .select(['subscription.next_plan', 'subscription.currency', 'subscription.status', 'subscription.plan', 'subscription.interval', 'subscription.follows_id', 'subscription.current_start', 'next_bp.interval as next_interval'])
        .where('subscription.id', '=', a.subscription_id)
        .executeTakeFirst()
    : undefined;
  // A resumed plan whose subscription starts at the renewal: what it renews as, when that differs.
  const pending = sub !== undefined && isPendingSuccessor(sub);
  // What the renewal bills: a change scheduled for it (Razorpay's plan at cycle end), else a resumed
  // plan's new subscription.
  const renewsAs = sub?.next_plan ? { plan: sub.next_plan, interval: sub.next_interval ?? sub.interval } : pending ? { plan: sub.plan, interval: sub.interval } : null;
  // Razorpay collects nothing more by itself: halted (its retries are over), or made active again
  // from pending/halted by a card updated at Razorpay without that charge going through (Razorpay
  // then charges only the next cycles; the missed one stays unpaid here).
  const unpaid = a.subscription_status === 'past_due' || a.subscription_status === 'suspended';
  const lastStatus =
    unpaid && sub?.status === 'active' && a.subscription_id
      ? await deps.db
          .selectFrom('billing_event')
          .select('event')
          .where('subscription_id', '=', a.subscription_id)
          .where('event', 'in', ['subscription.activated', 'subscription.pending', 'subscription.halted', 'subscription.charged'])
          .orderBy('event_created_at', (ob) => ob.desc().nullsLast())
          .orderBy('received_at', 'desc')
          .limit(1)
          .executeTakeFirst()
      : undefined;
  const notRetried = sub?.status === 'halted' || lastStatus?.event === 'subscription.activated';
  const refund = await refundEligibility(deps.db, o.accountId);
  const { currency } = sub ? { currency: sub.currency } : await decideCurrency(deps, { accountId: o.accountId, ip: o.ip });
  return {
    plan: a.plan,
    status: a.subscription_status,
    interval: a.billing_interval,
    currentPeriodEnd: a.current_period_end?.toISOString() ?? null,
    graceEndsAt: a.grace_ends_at?.toISOString() ?? null,
    cancelAtPeriodEnd: a.cancel_at_period_end,
    /** The plan the renewal changes to, when it is another plan (a change scheduled, or a resumed plan's new subscription). */
    nextPlan: renewsAs && renewsAs.plan !== a.plan ? renewsAs.plan : null,
    /** The interval the renewal is billed on when it changes then (monthly → annual scheduled, or a resumed plan switched). */
    nextInterval: renewsAs && renewsAs.interval !== a.billing_interval ? renewsAs.interval : null,
    /** A cancelled plan resumed whose new subscription starts at the renewal (not charged yet). */
    resumePending: pending,
    /** Paused at Razorpay (nothing is charged): a suspension then is the pause's, not a failed payment's. */
    paused: sub?.status === 'paused',
    /** Razorpay stopped retrying the unpaid renewal (halted, or active again without it): nothing collects it but paying from this page. */
    halted: notRetried,
    currency,
    refund: refund.eligible ? { eligible: true as const, amount: refund.amount, currency: refund.currency } : { eligible: false as const, reason: refund.reason },
  };
}

export async function listPayments(db: Db, accountId: string) {
  const rows = await db
    .selectFrom('payment')
    .select(['id', 'plan', 'interval', 'currency', 'amount', 'refunded_amount', 'status', 'period_start', 'period_end', 'created_at', 'refunded_at', 'failure_reason'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(100)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    plan: r.plan,
    planName: planByType(r.plan).name,
    interval: r.interval,
    currency: r.currency,
    amount: r.amount,
    status: r.status,
    periodStart: r.period_start?.toISOString() ?? null,
    periodEnd: r.period_end?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    refundedAt: r.refunded_at?.toISOString() ?? null,
    refundedAmount: r.refunded_amount,
    failureReason: r.failure_reason,
  }));
}
