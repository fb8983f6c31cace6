// Razorpay's payment events of a subscription: subscription.charged starts a period (billing-charges.ts);
// payment.failed is recorded, and a renewal's puts the account past due.
import { applyCharge } from './billing-charges';
import { addInterval, markPastDue } from './subscription-lifecycle';
import type { EventResult, SubscriptionEvent } from './razorpay-event';

const fromUnix = (s: number | null | undefined): Date | null => (typeof s === 'number' && s > 0 ? new Date(s * 1000) : null);

/** subscription.charged: the payment applied as the subscription's charge (or given back, or recorded late). */
export async function applyChargedEvent(ev: SubscriptionEvent): Promise<EventResult> {
  const { trx, e, now, sub, accountId, newer, setStatus } = ev;
  const { cancels, refunds } = ev.after;
  const subEntity = e.payload.subscription?.entity;
  const payEntity = e.payload.payment?.entity;
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
    if (r.cancelSubscriptionId) cancels.push(r.cancelSubscriptionId);
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

/** payment.failed: recorded once; a failed renewal of a running subscription makes the account past due. */
export async function applyPaymentFailedEvent(ev: SubscriptionEvent): Promise<EventResult> {
  const { trx, e, now, sub, accountId, newer, eventAt } = ev;
  const { mails } = ev.after;
  const payEntity = e.payload.payment?.entity;
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
