// The checkout's answer: the payment proof Razorpay's checkout hands the browser, verified and
// applied once (or, for a resumed plan, the card authorised for the period after), and the local
// test checkout's stand-in for Razorpay's payment step.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { planByType, type PlanType } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { addInterval, adoptSuccessor } from './subscription-lifecycle';
import { applyCharge } from './billing-charges';
import { refundSecondPayments } from './billing-refunds';
import { handleRazorpayWebhook } from './billing-webhook';
import { formatDay } from './billing-mail';
import { BILLING_MESSAGES } from './billing-messages';
import { gatewayFor } from './billing-gateway';
import { hexSignatureMatches, subscriptionPaymentSignature, testId, webhookSignature } from './razorpay';

/** The accounts this user owns (a subquery). */
const ownedAccounts = (db: Db, userId: string) => db.selectFrom('member').select('member.organizationId').where('member.userId', '=', userId).where('member.role', '=', 'owner');

export interface PaymentProof {
  razorpay_payment_id: string;
  razorpay_subscription_id: string;
  razorpay_signature: string;
}

/**
 * The local test checkout's "payment" (DEV_TOOLS, no keys): it plays Razorpay's part — the
 * subscription.activated and subscription.charged webhooks, signed with the test webhook secret,
 * go through the same webhook handler — and answers the proof Razorpay's checkout would give.
 */
export async function completeTestPayment(deps: AppDeps, o: { userId: string; subscriptionId: string }): Promise<PaymentProof> {
  const gateway = gatewayFor(deps);
  const secret = gateway?.mode === 'test' ? gateway.webhookSecret : null;
  if (!gateway || !secret) throw new AppError('PERMISSION_DENIED', BILLING_MESSAGES.testDisabled);
  // Like Razorpay's checkout, it pays the subscription it was opened for, on an account the caller
  // owns, whichever team the session works in by then (verifyPayment: the same).
  const sub = await deps.db.selectFrom('subscription').selectAll().where('id', '=', o.subscriptionId).where('account_id', 'in', ownedAccounts(deps.db, o.userId)).executeTakeFirst();
  if (!sub || sub.mode !== 'test') throw new AppError('NOT_FOUND', BILLING_MESSAGES.unknownSubscription);
  // Razorpay's checkout pays a subscription once: it is then active (or authorised) and cannot be
  // paid again. Two clicks at once (or a replayed request) are serialised on the subscription, and
  // the later one finds it paid; the lock is held until this one's webhooks have been applied.
  return deps.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`test_payment:${sub.id}`}, 0))`.execute(trx);
    const now = await trx.selectFrom('subscription').select('status').where('id', '=', sub.id).executeTakeFirst();
    if (now?.status !== 'created') throw new AppError('CONFLICT', BILLING_MESSAGES.testAlreadyPaid);
    return payTestSubscription(deps, gateway, secret, sub);
  });
}

/** Plays Razorpay's part for one payment of a test subscription: its webhooks, signed, through the real handler. */
async function payTestSubscription(deps: AppDeps, gateway: NonNullable<ReturnType<typeof gatewayFor>>, secret: string, sub: { id: string; billing_plan_id: string; account_id: string; interval: Parameters<typeof addInterval>[1]; start_at: Date | null; amount: number; currency: string }): Promise<PaymentProof> {
  const paymentId = testId('pay');
  const start = new Date();
  const end = addInterval(start, sub.interval);
  const unix = (d: Date) => Math.floor(d.getTime() / 1000);
  const subEntity = { id: sub.id, entity: 'subscription', plan_id: sub.billing_plan_id, status: 'active', current_start: unix(start), current_end: unix(end), notes: { account_id: sub.account_id } };
  // A subscription that starts at a period's end (a cancelled plan resumed): the checkout only
  // authorises the card, and Razorpay sends subscription.authenticated; the charge comes at start_at.
  const events =
    sub.start_at !== null && sub.start_at > start
      ? [{ event: 'subscription.authenticated', payload: { subscription: { entity: { ...subEntity, status: 'authenticated', current_start: null, current_end: null } } } }]
      : [
          { event: 'subscription.activated', payload: { subscription: { entity: subEntity } } },
          { event: 'subscription.charged', payload: { subscription: { entity: subEntity }, payment: { entity: { id: paymentId, entity: 'payment', amount: sub.amount, currency: sub.currency, status: 'captured' } } } },
        ];
  for (const e of events) {
    const raw = Buffer.from(JSON.stringify({ entity: 'event', account_id: 'acc_test_mailvet', contains: Object.keys(e.payload), created_at: unix(start), ...e }));
    const r = await handleRazorpayWebhook(deps, { rawBody: raw, signature: webhookSignature(raw, secret), eventId: testId('evt'), secret, gateway });
    if (r.status !== 200) throw new AppError('INTERNAL_ERROR', BILLING_MESSAGES.providerFailed);
  }
  return { razorpay_payment_id: paymentId, razorpay_subscription_id: sub.id, razorpay_signature: subscriptionPaymentSignature(paymentId, sub.id, gateway.signingSecret) };
}

export interface VerifyResult {
  /** The account the payment was for (the caller owns it): not always the one they work in now. */
  accountId: string;
  accountName: string;
  /** The payment's account is not the one the caller's session works in now (they switched teams in another tab). */
  otherAccount: boolean;
  plan: PlanType;
  planName: string;
  /** True when this payment had already been applied (a replay, or the webhook came first): nothing changed. */
  alreadyProcessed: boolean;
  applied: boolean;
  /** A cancelled plan resumed: nothing was charged; the subscription that goes on is charged at the period's end. */
  resumed: boolean;
  currentPeriodEnd: string | null;
  message: string | null;
}

/** The plan, period end and name of the account a payment was applied to (verifyPayment's answer). */
function paidAccount(db: Db, accountId: string) {
  return db
    .selectFrom('account')
    .innerJoin('organization', 'organization.id', 'account.id')
    .select(['account.plan', 'account.current_period_end', 'organization.name'])
    .where('account.id', '=', accountId)
    .executeTakeFirstOrThrow();
}

/**
 * The checkout handler's answer: signature checked in constant time, then the first charge applied
 * once. The proof comes from the tab that opened the checkout, whichever account the session works
 * in by then (an invitation accepted in another tab switches it): the subscription is looked up by
 * its id and must belong to an account the caller owns; the charge goes to that account.
 */
export async function verifyPayment(deps: AppDeps, o: { activeAccountId: string; userId: string } & PaymentProof): Promise<VerifyResult> {
  const sub = await deps.db
    .selectFrom('subscription')
    .selectAll('subscription')
    .where('subscription.id', '=', o.razorpay_subscription_id)
    .where('subscription.account_id', 'in', ownedAccounts(deps.db, o.userId))
    .executeTakeFirst();
  const fail = async (message: string, reason: string) => {
    await writeAudit(deps.db, { accountId: sub?.account_id ?? o.activeAccountId, actorUserId: o.userId, action: 'billing.payment_verification_failed', targetType: 'subscription', targetId: o.razorpay_subscription_id.slice(0, 100), data: { reason, payment_id: o.razorpay_payment_id.slice(0, 100) } });
    return new AppError('BAD_INPUT', message);
  };
  if (!sub) throw await fail(BILLING_MESSAGES.unknownSubscription, 'unknown_subscription');
  const accountId = sub.account_id;
  const gateway = gatewayFor(deps);
  if (!gateway || gateway.mode !== sub.mode) throw await fail(BILLING_MESSAGES.unavailable, 'mode_unavailable');
  if (!hexSignatureMatches(subscriptionPaymentSignature(o.razorpay_payment_id, sub.id, gateway.signingSecret), o.razorpay_signature)) {
    throw await fail(BILLING_MESSAGES.badSignature, 'bad_signature');
  }
  if (sub.start_at !== null) {
    // A subscription starting at a period's end (a cancelled plan resumed): the checkout's payment
    // only authorised the card. Nothing is charged or granted here — its first charge comes with the
    // subscription.charged of start_at — the account takes it as its subscription.
    const adopted = await deps.db.transaction().execute((trx) => adoptSuccessor(trx, sub.id, { actorUserId: o.userId }));
    for (const id of [adopted.replacedSubscriptionId, adopted.stopSubscriptionId]) {
      if (id) await gateway.cancelSubscription(id, false).catch((err: unknown) => console.error('[billing] cancel of a resumed subscription not taken failed:', err));
    }
    const account = await paidAccount(deps.db, accountId);
    const plan = planByType(account.plan);
    const when = account.current_period_end ? formatDay(account.current_period_end) : formatDay(sub.start_at);
    return {
      accountId,
      accountName: account.name,
      otherAccount: accountId !== o.activeAccountId,
      plan: plan.type,
      planName: plan.name,
      alreadyProcessed: false,
      applied: adopted.adopted,
      resumed: adopted.adopted,
      currentPeriodEnd: account.current_period_end?.toISOString() ?? null,
      message: !adopted.adopted ? BILLING_MESSAGES.resumeLate : sub.plan === account.plan ? BILLING_MESSAGES.resumed(plan.name, when) : BILLING_MESSAGES.resumedWithChange(planByType(sub.plan).name, when),
    };
  }
  const start = new Date();
  const outcome = await deps.db.transaction().execute((trx) =>
    applyCharge(trx, {
      subscriptionId: sub.id,
      paymentId: o.razorpay_payment_id,
      amount: sub.amount,
      currency: sub.currency,
      periodStart: start,
      periodEnd: addInterval(start, sub.interval),
      source: 'checkout',
      actorUserId: o.userId,
    }),
  );
  if (outcome.applied && outcome.cancelSubscriptionId) {
    await gateway.cancelSubscription(outcome.cancelSubscriptionId, false).catch((err: unknown) => console.error('[billing] cancel after an earlier refund failed:', err));
  }
  if (!outcome.applied && outcome.reason === 'second_payment') {
    if (outcome.cancelSubscriptionId) await gateway.cancelSubscription(outcome.cancelSubscriptionId, false).catch((err: unknown) => console.error('[billing] cancel of a subscription paid a second time failed:', err));
    await refundSecondPayments(deps.db, gateway, [outcome.refundPaymentId]);
  }
  if (outcome.applied && outcome.replacedSubscriptionId) {
    await gateway.cancelSubscription(outcome.replacedSubscriptionId, false).catch((err: unknown) => console.error('[billing] cancel of the replaced subscription failed:', err));
  }
  const account = await paidAccount(deps.db, accountId);
  const plan = planByType(account.plan);
  const which = { accountId, accountName: account.name, otherAccount: accountId !== o.activeAccountId };
  const second = await deps.db.selectFrom('payment').select('id').where('id', '=', o.razorpay_payment_id).where('account_id', '=', accountId).where('second_payment', '=', true).executeTakeFirst();
  if (second) {
    return { ...which, plan: plan.type, planName: plan.name, alreadyProcessed: true, applied: false, resumed: false, currentPeriodEnd: account.current_period_end?.toISOString() ?? null, message: BILLING_MESSAGES.secondPayment };
  }
  return {
    ...which,
    plan: plan.type,
    planName: plan.name,
    alreadyProcessed: !outcome.applied,
    applied: account.plan === sub.plan || outcome.applied,
    resumed: false,
    currentPeriodEnd: account.current_period_end?.toISOString() ?? null,
    message: null,
  };
}
