// Refunds: the refund rule (a full refund of the current period's payment ends the plan and takes
// its credits back), refunds Razorpay reports or fails (refund.processed, refund.failed), and the
// refunds we make ourselves after a commit (a second payment of a period, a failed refund owed).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, PaymentTable } from '../../../db/types';
import { revokeCredits } from '../credits/credits';
import { writeAudit } from '../audit/audit';
import type { PaymentGateway } from './razorpay';
import { lockAccountBilling, type Trx } from './billing-locks';
import { LIVE_STATUSES, freePlanColumns, isPendingSuccessor } from './subscription-lifecycle';
import { webhookBody, type AfterCommit, type EventResult, type WebhookBody } from './razorpay-event';

/** refund.processed and refund.failed: applied to the payment they are for, whichever subscription it paid. */
export async function applyRefundEvent(trx: Trx, e: WebhookBody, now: Date, after: AfterCommit): Promise<EventResult> {
  const { cancels, retries } = after;
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
  return { outcome: 'ignored', accountId: null };
}

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

export type RefundOutcome = { outcome: 'refunded' | 'refund_recorded' | 'already_refunded' | 'refund_failed_before' | 'unknown_payment'; accountId: string | null; cancelSubscriptionId?: string; alsoCancel?: string[] };

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
  // Razorpay does not order its webhooks: a refund.processed reaching us after the same refund's
  // refund.failed gave nothing back.
  if (await refundFailedBefore(trx, pay, o.refundId)) return { outcome: 'refund_failed_before', accountId: pay.account_id };
  // Refunds add up: parts given back one by one end in a full refund like one whole refund.
  const refundedAmount = Math.min(pay.amount, pay.refunded_amount + (o.amount ?? pay.amount - pay.refunded_amount));
  const full = refundedAmount >= pay.amount;
  // The account's period is this payment's also while a resumed plan's subscription waits to follow it.
  const follower =
    pay.subscription_id !== null && account.subscription_id !== null && account.subscription_id !== pay.subscription_id
      ? await trx.selectFrom('subscription').select(['follows_id', 'current_start']).where('id', '=', account.subscription_id).executeTakeFirst()
      : undefined;
  const followsThis = follower !== undefined && follower.follows_id === pay.subscription_id && isPendingSuccessor(follower);
  // A payment given back as a second payment (a period another subscription pays, a charge after an
  // unpaid cancel) never was the account's period: its refund, however it reaches us first (our own
  // refund call's answer, or Razorpay's refund.processed overtaking it), takes nothing away.
  const current = pay.subscription_id !== null && !pay.second_payment && (account.subscription_id === pay.subscription_id || followsThis) && !newer;
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

/** Whether Razorpay has reported this refund of the payment failed (refund.failed, audit-logged). */
async function refundFailedBefore(trx: Trx, pay: Selectable<PaymentTable>, refundId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('audit_log')
    .select('id')
    .where('account_id', '=', pay.account_id)
    .where('target_id', '=', pay.id)
    .where('action', '=', 'billing.refund_failed')
    .where(sql<boolean>`audit_log.data->>'refund_id' = ${refundId}`)
    .executeTakeFirst();
  return row !== undefined;
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
  const failed = (data: Record<string, unknown>) =>
    writeAudit(trx, { accountId: pay.account_id, actor: 'system', actorUserId: null, action: 'billing.refund_failed', targetType: 'payment', targetId: pay.id, data: { refund_id: o.refundId, payment_amount: pay.amount, ...data } });
  // Never recorded (it failed before its refund.processed could come), or already undone: nothing to
  // take back, but the failure is kept so that refund.processed, if it comes later, is not believed.
  if (!pay.refund_ids.includes(o.refundId)) {
    if (!(await refundFailedBefore(trx, pay, o.refundId))) await failed({ amount: o.amount, refunded_amount: pay.refunded_amount, retry: false, recorded: false });
    return { outcome: 'refund_failed_seen', accountId: pay.account_id, retry: false };
  }
  const amount = Math.min(o.amount ?? pay.refunded_amount, pay.refunded_amount);
  const owed = pay.status === 'refunded';
  await trx
    .updateTable('payment')
    .set({ status: 'captured', refunded_amount: pay.refunded_amount - amount, refund_ids: sql<string[]>`array_remove(refund_ids, ${o.refundId})`, refund_id: null, refunded_at: null })
    .where('id', '=', pay.id)
    .execute();
  await failed({ amount, refunded_amount: pay.refunded_amount - amount, retry: owed });
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
    if (await refundRest(db, gateway, pay, { reason: 'refund_failed_retry', via: 'refund_failed_retry', failed: 'a failed refund could not be made again (retried by the reconciliation; see audit billing.refund_failed)' })) done.push(pay.id);
  }
  return done;
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
    if (await refundRest(db, gateway, pay, { reason: 'second_payment_for_period', via: 'second_payment', failed: 'refund of a second payment failed (retried by the reconciliation)' })) done.push(pay.id);
  }
  return done;
}

/**
 * Refunds what is left of `pay` through the refund API; false (logged) when Razorpay would not take
 * it now (the billing reconciliation tries again). Once Razorpay has taken it, the payment is
 * recorded refunded in full (unless another refund was recorded meanwhile: refund.processed then
 * records that one by its id), with its audit entry, in one transaction.
 */
async function refundRest(
  db: Kysely<Database>,
  gateway: Pick<PaymentGateway, 'refundPayment'>,
  pay: { id: string; amount: number; refunded_amount: number; account_id: string },
  o: { reason: string; via: 'second_payment' | 'refund_failed_retry'; failed: string },
): Promise<boolean> {
  try {
    const refund = await gateway.refundPayment(pay.id, pay.amount - pay.refunded_amount, { account_id: pay.account_id, reason: o.reason });
    await db.transaction().execute(async (trx) => {
      // The account's billing lock first, as refund.processed for this very refund (which Razorpay may
      // send before this runs) takes it before the account and payment rows: else the two deadlock.
      await lockAccountBilling(trx, pay.account_id);
      const row = await trx
        .updateTable('payment')
        .set({ status: 'refunded', refunded_amount: pay.amount, refund_ids: sql<string[]>`array_append(refund_ids, ${refund.id})`, refund_id: refund.id, refunded_at: new Date() })
        .where('id', '=', pay.id)
        .where('status', '=', 'captured')
        .where('refunded_amount', '=', pay.refunded_amount)
        .returning('id')
        .executeTakeFirst();
      if (row) await writeAudit(trx, { accountId: pay.account_id, actor: 'system', actorUserId: null, action: 'billing.refund_recorded', targetType: 'payment', targetId: pay.id, data: { refund_id: refund.id, amount: pay.amount - pay.refunded_amount, payment_amount: pay.amount, partial: false, current_period: false, via: o.via } });
    });
    return true;
  } catch (err) {
    console.error(`[billing] ${o.failed}:`, (err as { error?: unknown })?.error ?? err);
    return false;
  }
}

/** A refund that arrived before its charge (stored as unknown_payment) is applied once the charge is in. */
export async function applyEarlyRefund(trx: Trx, paymentId: string, now: Date): Promise<string | null> {
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
