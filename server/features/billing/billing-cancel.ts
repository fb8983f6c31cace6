// Ending a plan: the owner cancels (the plan runs to its period's end, then Free) or has the latest
// charge refunded (the plan ends at once, its credits taken back).
import { sql } from 'kysely';
import { type Currency } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { lockAccountBilling } from './billing-locks';
import { LIVE_STATUSES, endIfDue, isPendingSuccessor } from './subscription-lifecycle';
import { lockForRefund, lowerPlanForRefund } from './billing-refunds';
import { BILLING_MESSAGES } from './billing-messages';
import { gatewayFor, providerError, stopAtGateway } from './billing-gateway';
import type { PaymentGateway } from './razorpay';
import { refundEligibility } from './billing.queries';

/** Owner only: the subscription stops renewing; the plan runs to the period's end, then Free. */
export async function cancelSubscription(deps: AppDeps, o: { accountId: string; userId: string }): Promise<{ endsAt: string | null; endedNow: boolean }> {
  const account = await deps.db.selectFrom('account').select(['subscription_id', 'subscription_status', 'cancel_at_period_end', 'current_period_end']).where('id', '=', o.accountId).executeTakeFirstOrThrow();
  if (!account.subscription_id) throw new AppError('CONFLICT', BILLING_MESSAGES.noSubscription);
  if (account.cancel_at_period_end) throw new AppError('CONFLICT', BILLING_MESSAGES.alreadyCancelled);
  const sub = await deps.db.selectFrom('subscription').select(['id', 'mode', 'follows_id', 'current_start']).where('id', '=', account.subscription_id).where('account_id', '=', o.accountId).executeTakeFirstOrThrow();
  const gateway = gatewayFor(deps);
  if (!gateway || gateway.mode !== sub.mode) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.unavailable);
  // A subscription stopped at once is stopped under the account's billing lock, and recorded with
  // the account's change in the same transaction: Razorpay's subscription.cancelled for it, which
  // may come before its answer, waits for the lock and finds it ended here (a confirmation, not a
  // second cancellation).
  if (isPendingSuccessor(sub) && sub.follows_id) {
    // A resumed plan cancelled again before its new subscription was charged: that subscription is
    // stopped at once (nothing was paid on it) and the plan ends with the period already paid, as before.
    const follows = sub.follows_id;
    return deps.db.transaction().execute(async (trx) => {
      await lockAccountBilling(trx, o.accountId);
      await stopAt(gateway, sub.id);
      const now = new Date();
      await trx.updateTable('subscription').set({ status: 'cancelled', updated_at: now }).where('id', '=', sub.id).where('status', 'in', LIVE_STATUSES).execute();
      await trx.updateTable('account').set({ subscription_id: follows, cancel_at_period_end: true, updated_at: now }).where('id', '=', o.accountId).where('subscription_id', '=', sub.id).execute();
      await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.cancelled', targetType: 'subscription', targetId: sub.id, data: { ends_at: account.current_period_end?.toISOString() ?? null, resumed_not_started: true, follows } });
      // The period it followed is over already (its first charge not made yet): Free now, and the answer says so.
      const endedNow = await endIfDue(trx, o.accountId, now);
      return { endsAt: (endedNow ? now : account.current_period_end)?.toISOString() ?? null, endedNow };
    });
  }
  // A renewal left unpaid (past due, suspended) has no paid period to run to: stopped at once, or
  // Razorpay would go on retrying it until the cycle end and charge the customer who cancelled.
  const unpaid = account.subscription_status === 'past_due' || account.subscription_status === 'suspended';
  if (!unpaid) {
    try {
      await gateway.cancelSubscription(sub.id, true);
    } catch (err) {
      throw providerError(err, 'cancellation');
    }
  }
  return deps.db.transaction().execute(async (trx) => {
    await lockAccountBilling(trx, o.accountId);
    if (unpaid) {
      await stopAt(gateway, sub.id);
      await trx.updateTable('subscription').set({ status: 'cancelled', updated_at: new Date() }).where('id', '=', sub.id).where('status', 'in', LIVE_STATUSES).execute();
    }
    const now = new Date();
    // Unpaid past the period's end: the plan ends now (a period still running runs to its end).
    const endedNow = unpaid && (!account.current_period_end || account.current_period_end <= now);
    const endsAt = endedNow ? now : account.current_period_end;
    await trx.updateTable('account').set({ cancel_at_period_end: true, updated_at: now }).where('id', '=', o.accountId).where('subscription_id', '=', sub.id).execute();
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.cancelled', targetType: 'subscription', targetId: sub.id, data: { ends_at: endsAt?.toISOString() ?? null, ...(unpaid ? { unpaid: true } : {}) } });
    if (endedNow) await endIfDue(trx, o.accountId, now);
    return { endsAt: endsAt?.toISOString() ?? null, endedNow };
  });
}

/** Stops `subscriptionId` at Razorpay at once (the owner's cancellation: its failure is theirs to see). */
async function stopAt(gateway: PaymentGateway, subscriptionId: string): Promise<void> {
  try {
    await stopAtGateway(gateway, subscriptionId);
  } catch (err) {
    throw providerError(err, 'cancellation');
  }
}

/**
 * Owner only: refunds the latest charge through the gateway's refund API, ends the subscription at
 * once and lowers the account to Free, taking back the credits that charge granted. The payment row
 * is locked for the whole exchange, so two clicks cannot refund twice.
 */
export async function refundLatestPayment(deps: AppDeps, o: { accountId: string; userId: string }): Promise<{ refundId: string; amount: number; currency: Currency }> {
  const gateway = gatewayFor(deps);
  if (!gateway) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.unavailable);
  return deps.db.transaction().execute(async (trx) => {
    const elig = await refundEligibility(trx, o.accountId);
    if (!elig.eligible) throw new AppError('CONFLICT', elig.reason);
    const seen = await trx.selectFrom('payment').select('subscription_id').where('id', '=', elig.paymentId).executeTakeFirstOrThrow();
    // Locked in billing's one order (subscription, account, payment), like a charge of the same subscription.
    const { pay, account } = await lockForRefund(trx, { paymentId: elig.paymentId, accountId: o.accountId, subscriptionId: seen.subscription_id });
    if (pay.status !== 'captured') throw new AppError('CONFLICT', BILLING_MESSAGES.noRefundable);
    if (account.monthly_validations_used > 0) throw new AppError('CONFLICT', BILLING_MESSAGES.refundUsed);
    let refund;
    try {
      refund = await gateway.refundPayment(pay.id, pay.amount - pay.refunded_amount, { account_id: o.accountId, reason: 'unused_period' });
    } catch (err) {
      console.error('[billing] refund failed:', (err as { error?: unknown })?.error ?? err);
      throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.refundFailed);
    }
    const now = new Date();
    await trx
      .updateTable('payment')
      .set({ status: 'refunded', refunded_amount: pay.amount, refund_ids: sql<string[]>`array_append(refund_ids, ${refund.id})`, refund_id: refund.id, refunded_at: now })
      .where('id', '=', pay.id)
      .execute();
    if (pay.subscription_id) {
      try {
        await gateway.cancelSubscription(pay.subscription_id, false);
      } catch (err) {
        console.error('[billing] immediate cancel after refund failed (the plan is lowered anyway):', (err as { error?: unknown })?.error ?? err);
      }
    }
    // The same rule a refund made in Razorpay's dashboard follows (billing-refunds.ts).
    const lowered = await lowerPlanForRefund(trx, { pay, refundId: refund.id, now, actorUserId: o.userId, via: 'refund_button' });
    for (const id of lowered.stopped) {
      await gateway.cancelSubscription(id, false).catch((err: unknown) => console.error('[billing] cancel of a resumed subscription after a refund failed:', (err as { error?: unknown })?.error ?? err));
    }
    return { refundId: refund.id, amount: pay.amount - pay.refunded_amount, currency: pay.currency };
  });
}
