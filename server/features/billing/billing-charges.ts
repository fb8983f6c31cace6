// Charges: a payment Razorpay took for a subscription's period (the checkout handler's verified
// payment, or subscription.charged) is recorded once per payment id and starts that period — the
// plan, its credits, the period's end — unless it is a late one of an older period or a second
// payment of a period another subscription has paid.
import { sql, type Selectable } from 'kysely';
import type { PaidPlan, SubscriptionTable } from '../../../db/types';
import { PLAN_RANK, planByType, isUnlimited, type BillingInterval } from '../../contracts/plans';
import { grantPeriodMonth } from '../credits/credits';
import { writeAudit } from '../audit/audit';
import { lockSubscription, type Trx } from './billing-locks';
import { LIVE_STATUSES, addDays, isPendingSuccessor } from './subscription-lifecycle';
import { applyEarlyRefund } from './billing-refunds';

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
  | { applied: false; reason: 'second_payment'; refundPaymentId: string; cancelSubscriptionId: string | null };

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
    // yet): this charge (a higher plan paid now, minutes before the period's end) replaces it, like
    // a cancelled one. A renewal of the very subscription it follows is not such a charge: Razorpay
    // charged the cancelled one's next period all the same (the charge raced the cancellation at
    // its cycle end), and the resumed one, which the owner chose, pays that period from its start.
    const held = await trx.selectFrom('subscription').select(['follows_id', 'current_start']).where('id', '=', account.subscription_id).executeTakeFirst();
    const renewalOfFollowed = held?.follows_id === sub.id && sub.current_start !== null && c.periodStart > sub.current_start;
    if (!held || !isPendingSuccessor(held) || renewalOfFollowed) return recordSecondPayment(trx, sub, c, { kept: account.subscription_id });
  }

  // The charge of a period older than the one this subscription is in (Razorpay re-delivered it
  // after the newer period's charge): a payment to record, never a new period — the current
  // period's plan, usage, credits and end stay as they are.
  if (sub.current_start !== null && c.periodStart < sub.current_start) return recordLateCharge(trx, sub, c);

  // The owner cancelled this subscription while its renewal was unpaid: it was stopped at Razorpay
  // at once and the account put on Free, as the cancel dialog said ("the unpaid renewal is not
  // charged again"). A retry Razorpay charged just before that stop, heard of after it, is given
  // back like a second payment — not applied, which would put the account back on the plan.
  if (sub.status === 'cancelled' && account.subscription_id !== sub.id && (await cancelledUnpaid(trx, sub))) {
    return recordSecondPayment(trx, sub, c, { kept: account.subscription_id, action: 'billing.charge_after_cancel', stopped: true });
  }

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
  const inserted = await insertCapturedPayment(trx, sub, c, { plan: planType, interval, creditsGranted: plan.monthlyValidations });
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
  await auditCharge(trx, sub, c, 'billing.charged', {
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
  });
  const cancel = await applyEarlyRefund(trx, c.paymentId, new Date());
  return { applied: true, plan: planType, creditsGranted, ...(cancel ? { cancelSubscriptionId: cancel } : {}), ...(replaced ? { replacedSubscriptionId: replaced.id } : {}) };
}

async function recordLateCharge(trx: Trx, sub: Selectable<SubscriptionTable>, c: ChargeInput): Promise<ChargeOutcome> {
  const bp = c.billingPlanId ? await trx.selectFrom('billing_plan').select(['plan', 'interval']).where('id', '=', c.billingPlanId).executeTakeFirst() : undefined;
  const inserted = await insertCapturedPayment(trx, sub, c, { plan: bp?.plan ?? sub.plan, interval: bp?.interval ?? sub.interval, creditsGranted: 0 });
  if (!inserted) return { applied: false, reason: 'duplicate' };
  await auditCharge(trx, sub, c, 'billing.charge_recorded_late', { subscription_id: sub.id, plan: bp?.plan ?? sub.plan, amount: c.amount, currency: sub.currency, period_start: c.periodStart.toISOString(), period_end: c.periodEnd.toISOString(), current_start: sub.current_start?.toISOString() ?? null, via: c.source });
  // A refund.processed for it that came first: applied now (an older period's: recorded, the plan stays).
  await applyEarlyRefund(trx, c.paymentId, new Date());
  return { applied: false, reason: 'stale' };
}

/**
 * A payment given back, not applied (second_payment: refunded after the commit, retried by the
 * reconciliation): a second payment of a period another subscription pays (`kept`), or a charge
 * after the owner's cancellation of an unpaid renewal (`action`; its subscription `stopped` already).
 */
async function recordSecondPayment(
  trx: Trx,
  sub: Selectable<SubscriptionTable>,
  c: ChargeInput,
  o: { kept: string | null; action?: 'billing.second_payment' | 'billing.charge_after_cancel'; stopped?: boolean },
): Promise<ChargeOutcome> {
  const inserted = await insertCapturedPayment(trx, sub, c, { plan: sub.plan, interval: sub.interval, creditsGranted: 0, secondPayment: true });
  if (!inserted) return { applied: false, reason: 'duplicate' };
  await trx.updateTable('subscription').set({ status: 'cancelled', updated_at: new Date() }).where('id', '=', sub.id).where('status', 'in', LIVE_STATUSES).execute();
  await auditCharge(trx, sub, c, o.action ?? 'billing.second_payment', { subscription_id: sub.id, kept_subscription_id: o.kept, amount: c.amount, currency: sub.currency, period_start: c.periodStart.toISOString(), via: c.source, refund: 'due' });
  // Already refunded (a refund.processed that came before this charge): recorded, nothing to give back twice.
  await applyEarlyRefund(trx, c.paymentId, new Date());
  return { applied: false, reason: 'second_payment', refundPaymentId: c.paymentId, cancelSubscriptionId: o.stopped ? null : sub.id };
}

/** Whether the owner cancelled `sub` while its renewal was unpaid (stopped at once, the account on Free then). */
async function cancelledUnpaid(trx: Trx, sub: Selectable<SubscriptionTable>): Promise<boolean> {
  const row = await trx
    .selectFrom('audit_log')
    .select('id')
    .where('account_id', '=', sub.account_id)
    .where('action', '=', 'billing.cancelled')
    .where('target_id', '=', sub.id)
    .where(sql<boolean>`(data->>'unpaid')::boolean is true`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records the captured payment `c` of `sub` once per payment id (false: it was recorded already). */
async function insertCapturedPayment(
  trx: Trx,
  sub: Selectable<SubscriptionTable>,
  c: ChargeInput,
  o: { plan: PaidPlan; interval: BillingInterval; creditsGranted: number; secondPayment?: boolean },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('payment')
    .values({
      id: c.paymentId,
      account_id: sub.account_id,
      subscription_id: sub.id,
      plan: o.plan,
      interval: o.interval,
      currency: sub.currency,
      amount: c.amount,
      status: 'captured',
      period_start: c.periodStart,
      period_end: c.periodEnd,
      credits_granted: o.creditsGranted,
      ...(o.secondPayment ? { second_payment: true } : {}),
      created_at: paymentDate(c),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The audit entry of what became of charge `c` (by the owner in the checkout, else the system). */
function auditCharge(trx: Trx, sub: Selectable<SubscriptionTable>, c: ChargeInput, action: string, data: Record<string, unknown>): Promise<void> {
  return writeAudit(trx, { accountId: sub.account_id, actorUserId: c.actorUserId ?? null, actor: c.actorUserId ? 'user' : 'system', action, targetType: 'payment', targetId: c.paymentId, data });
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
