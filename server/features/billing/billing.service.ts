// Billing: plans are Razorpay subscriptions (or the labelled local test checkout's stand-in when no
// keys are configured). Upgrading from Free opens a new subscription; changing plan on a running
// subscription takes effect at renewal (no proration). Cancelling keeps the plan to the period's end.
// An owner may have the latest charge refunded within 14 days while the period's credits are unused.
// What changes the account's plan and credits is a verified charge (billing-charges.ts).
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import type { PaidPlan, Plan } from '../../../db/types';
import {
  PLAN_RANK,
  REFUND_WINDOW_DAYS,
  SALES_EMAIL,
  SUPPORT_EMAIL,
  isPaidPlanType,
  periodPriceMinor,
  planByType,
  type BillingInterval,
  type Currency,
  type PlanType,
} from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { lockAccountBilling } from './billing-locks';
import { LIVE_STATUSES, addInterval, adoptSuccessor, endIfDue, isPendingSuccessor } from './subscription-lifecycle';
import { applyCharge } from './billing-charges';
import { lockForRefund, lowerPlanForRefund, refundSecondPayments } from './billing-refunds';
import { handleRazorpayWebhook } from './billing-webhook';
import { formatDay } from './billing-mail';
import { decideCurrency } from './currency';
import { hexSignatureMatches, paymentGateway, subscriptionPaymentSignature, testId, webhookSignature, type PaymentGateway } from './razorpay';

export const BILLING_MESSAGES = {
  alreadySubscribed: (plan: string) => `You are already on the ${plan} plan.`,
  downgrade: 'Please contact support to downgrade your plan.',
  enterprise: `Enterprise plans are arranged with our sales team: write to ${SALES_EMAIL}.`,
  unavailable: 'Payments are not available right now. Please contact support.',
  providerFailed: 'Failed to process payment. Please try again.',
  unknownSubscription: 'We could not find this subscription for your account.',
  badSignature: 'The payment signature is invalid.',
  testDisabled: 'Test payments are disabled: real payments are configured.',
  noSubscription: 'This account has no running subscription.',
  alreadyCancelled: 'Your subscription is already cancelled; the plan ends with the current period.',
  changeScheduled: (plan: string, date: string) => `Your plan changes to ${plan} at your next renewal on ${date}.`,
  noPlanChange: 'No plan change is waiting for your renewal.',
  changeWithdrawn: (plan: string) => `Your subscription stays on the ${plan} plan; nothing changes at the renewal.`,
  noRefundable: 'There is no payment to refund on this account.',
  refundWindow: `Refunds are available within ${REFUND_WINDOW_DAYS} days of a payment.`,
  refundUsed: 'Refunds are available only while the period’s credits are unused, and this period’s credits have been used.',
  refundFailed: `The refund could not be made right now. Please try again or write to ${SUPPORT_EMAIL}.`,
  paymentInProgress: 'A payment for this account is being processed. Please wait a minute, then reload this page.',
  resumeCheckout: (plan: string, date: string) => `Nothing is charged now: your ${plan} plan goes on after ${date}, when the next period is charged to the card you confirm.`,
  resumeTooLate: (plan: string, date: string) => `Your ${plan} plan ends in a few minutes (${date}), too soon to keep it going. Once the account is on the Free plan, choose ${plan} again to subscribe.`,
  resumeLate: `Your subscription could not be resumed: the plan changed meanwhile. Nothing was charged; reload this page to see your plan, or write to ${SUPPORT_EMAIL}.`,
  resumed: (plan: string, date: string) => `Your ${plan} plan is no longer cancelled. It renews on ${date}, when the next period is charged.`,
  secondPayment: 'Your subscription had already been paid for this period, so this payment is being refunded to you.',
  stopFailed: `Your subscription could not be stopped at Razorpay, so nothing was deleted. Please try again or write to ${SUPPORT_EMAIL}.`,
} as const;

/** The gateway for this server (Razorpay with keys, the local test checkout without). */
export function gatewayFor(deps: AppDeps): PaymentGateway | null {
  const secret = (deps.auth.options as { secret?: string }).secret ?? deps.env.BETTER_AUTH_SECRET ?? '';
  return paymentGateway(deps.env, secret);
}

/** Spec section 4: same plan → Already Subscribed; lower → Downgrade Not Available; Enterprise → sales. */
export function assertUpgrade(current: Plan, target: PlanType): asserts target is PaidPlan {
  if (target === 'enterprise' || target === 'free') throw new AppError('BAD_INPUT', BILLING_MESSAGES.enterprise);
  if (PLAN_RANK[target] === PLAN_RANK[current]) throw new AppError('CONFLICT', BILLING_MESSAGES.alreadySubscribed(planByType(current).name));
  if (PLAN_RANK[target] < PLAN_RANK[current]) throw new AppError('CONFLICT', BILLING_MESSAGES.downgrade);
}

function amountFor(plan: PaidPlan, currency: Currency, interval: BillingInterval): number {
  const amount = periodPriceMinor(planByType(plan), currency, interval);
  if (amount === null || amount <= 0) throw new AppError('BAD_INPUT', BILLING_MESSAGES.enterprise);
  return amount;
}

const providerError = (err: unknown, what: string): AppError => {
  console.error(`[billing] ${what} failed:`, (err as { error?: unknown })?.error ?? err);
  return new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.providerFailed);
};

/** The Razorpay plan for tier × interval × currency (× mode, amount): created once, then looked up. */
export async function ensureBillingPlan(deps: AppDeps, gateway: PaymentGateway, plan: PaidPlan, interval: BillingInterval, currency: Currency): Promise<{ id: string; amount: number }> {
  const amount = amountFor(plan, currency, interval);
  const find = (db: Db) =>
    db
      .selectFrom('billing_plan')
      .select(['id', 'amount'])
      .where('plan', '=', plan)
      .where('interval', '=', interval)
      .where('currency', '=', currency)
      .where('mode', '=', gateway.mode)
      .where('amount', '=', amount)
      .executeTakeFirst();
  const existing = await find(deps.db);
  if (existing) return existing;
  // One creator at a time per key, so two first buyers never create two Razorpay plans.
  return deps.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`billing_plan:${plan}:${interval}:${currency}:${gateway.mode}:${amount}`}))`.execute(trx);
    const again = await find(trx);
    if (again) return again;
    const name = `Mailvet ${planByType(plan).name} (${interval})`;
    let created;
    try {
      created = await gateway.createPlan({ name, interval, currency, amount, notes: { mailvet_plan: plan, interval } });
    } catch (err) {
      throw providerError(err, 'plan creation');
    }
    await trx.insertInto('billing_plan').values({ id: created.id, plan, interval, currency, amount, mode: gateway.mode }).execute();
    return { id: created.id, amount };
  });
}

export interface CheckoutResponse {
  /** 'subscribe': open checkout with subscriptionId; 'scheduled': a plan change waits for the renewal. */
  kind: 'subscribe' | 'scheduled';
  keyId: string;
  mode: 'razorpay' | 'test';
  subscriptionId: string | null;
  amount: number;
  currency: Currency;
  interval: BillingInterval;
  planType: PaidPlan;
  planName: string;
  description: string;
  message: string | null;
}

/**
 * Upgrade: from Free a new subscription (checkout opens with its id); on a running subscription the
 * change is scheduled for the renewal (Razorpay's schedule_change_at=cycle_end).
 */
export async function startCheckout(
  deps: AppDeps,
  o: { accountId: string; userId: string; planType: PlanType; interval: BillingInterval; ip: string | null },
): Promise<CheckoutResponse> {
  const account = await deps.db
    .selectFrom('account')
    .select(['plan', 'subscription_id', 'subscription_status', 'billing_interval', 'current_period_end', 'cancel_at_period_end'])
    .where('id', '=', o.accountId)
    .executeTakeFirstOrThrow();
  // A renewal left unpaid (past_due, then suspended): the owner pays now from the Billing page with a
  // new subscription (the same plan or a higher one), which replaces the unpaid one once it is
  // charged (applyCharge stops the old one then, so an abandoned checkout leaves Razorpay retrying).
  const unpaid = account.subscription_id !== null && (account.subscription_status === 'past_due' || account.subscription_status === 'suspended');
  const current = account.subscription_id
    ? await deps.db.selectFrom('subscription').select(['id', 'currency', 'interval', 'follows_id', 'current_start']).where('id', '=', account.subscription_id).where('account_id', '=', o.accountId).executeTakeFirst()
    : undefined;
  // A resumed plan whose new subscription starts at the period's end and has not been charged yet.
  const resumedNotStarted = current !== undefined && isPendingSuccessor(current);
  const running = account.subscription_id !== null && account.subscription_status !== 'none' && !account.cancel_at_period_end && !unpaid && !resumedNotStarted;
  // Cancelled (to the period's end) and the owner changes their mind: the same plan, on either
  // interval, goes on after the paid period with a new subscription starting then (Razorpay cannot
  // take a cancellation back); nothing is charged before. A resumed one switches interval the same way.
  const resume =
    account.subscription_id !== null &&
    account.subscription_status === 'active' &&
    (account.cancel_at_period_end || resumedNotStarted) &&
    account.current_period_end !== null &&
    account.current_period_end.getTime() > Date.now() + RESUME_MIN_LEAD_MS &&
    o.planType === account.plan &&
    !(resumedNotStarted && o.interval === current?.interval);
  // Cancelled, with only minutes of the period left: too late to go on without a gap (Razorpay wants
  // the new subscription's start ahead of now); once the account is on Free it subscribes afresh.
  if (!resume && account.cancel_at_period_end && account.subscription_status === 'active' && o.planType === account.plan && account.current_period_end && account.current_period_end.getTime() > Date.now()) {
    throw new AppError('CONFLICT', BILLING_MESSAGES.resumeTooLate(planByType(account.plan).name, formatDay(account.current_period_end)));
  }
  // Same plan on another interval is a change too (monthly → annual), not "already subscribed".
  const payAgain = unpaid && o.planType === account.plan;
  if (!payAgain && !resume && !(running && o.planType === account.plan && o.interval !== account.billing_interval)) assertUpgrade(account.plan, o.planType);
  const planType = o.planType as PaidPlan;
  if (!isPaidPlanType(planType)) throw new AppError('BAD_INPUT', BILLING_MESSAGES.enterprise);
  const gateway = gatewayFor(deps);
  if (!gateway) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.unavailable);
  const def = planByType(planType);

  if (resume && current && account.current_period_end) {
    const follows = resumedNotStarted && current.follows_id ? current.follows_id : current.id;
    await closeOpenCheckouts(deps, gateway, { accountId: o.accountId, current: [current.id, follows] });
    const bp = await ensureBillingPlan(deps, gateway, planType, o.interval, current.currency);
    const startAt = account.current_period_end;
    let created;
    try {
      created = await gateway.createSubscription({ planId: bp.id, interval: o.interval, startAt: Math.floor(startAt.getTime() / 1000), notes: { account_id: o.accountId, plan: planType, interval: o.interval, user_id: o.userId, follows: follows } });
    } catch (err) {
      throw providerError(err, 'subscription creation');
    }
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('subscription')
        .values({ id: created.id, account_id: o.accountId, created_by: o.userId, plan: planType, interval: o.interval, currency: current.currency, amount: bp.amount, billing_plan_id: bp.id, mode: gateway.mode, start_at: startAt, follows_id: follows })
        .execute();
      await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.subscription_created', targetType: 'subscription', targetId: created.id, data: { plan: planType, interval: o.interval, currency: current.currency, amount: bp.amount, mode: gateway.mode, start_at: startAt.toISOString(), follows } });
    });
    return {
      kind: 'subscribe',
      keyId: gateway.keyId,
      mode: gateway.mode,
      subscriptionId: created.id,
      amount: bp.amount,
      currency: current.currency,
      interval: o.interval,
      planType,
      planName: def.name,
      description: `${def.name} plan (${o.interval === 'annual' ? 'annual' : 'monthly'}) from ${formatDay(startAt)}`,
      message: BILLING_MESSAGES.resumeCheckout(def.name, formatDay(startAt)),
    };
  }

  if (running && account.subscription_id) {
    const sub = await deps.db.selectFrom('subscription').selectAll().where('id', '=', account.subscription_id).where('account_id', '=', o.accountId).executeTakeFirstOrThrow();
    const bp = await ensureBillingPlan(deps, gateway, planType, o.interval, sub.currency);
    try {
      await gateway.changePlanAtRenewal(sub.id, bp.id);
    } catch (err) {
      throw providerError(err, 'plan change');
    }
    await deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('subscription').set({ next_plan: planType, next_billing_plan_id: bp.id, updated_at: new Date() }).where('id', '=', sub.id).execute();
      await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.plan_change_scheduled', targetType: 'subscription', targetId: sub.id, data: { from_plan: account.plan, plan: planType, interval: o.interval, at: account.current_period_end?.toISOString() ?? null } });
    });
    const when = account.current_period_end ? formatDay(account.current_period_end) : 'your next renewal';
    return {
      kind: 'scheduled',
      keyId: gateway.keyId,
      mode: gateway.mode,
      subscriptionId: sub.id,
      amount: bp.amount,
      currency: sub.currency,
      interval: o.interval,
      planType,
      planName: def.name,
      description: `${def.name} plan (${o.interval})`,
      message: BILLING_MESSAGES.changeScheduled(def.name, when),
    };
  }

  await closeOpenCheckouts(deps, gateway, { accountId: o.accountId, current: [account.subscription_id, current?.follows_id ?? null] });
  const { currency, country } = await decideCurrency(deps, { accountId: o.accountId, ip: o.ip });
  const bp = await ensureBillingPlan(deps, gateway, planType, o.interval, currency);
  let created;
  try {
    created = await gateway.createSubscription({ planId: bp.id, interval: o.interval, notes: { account_id: o.accountId, plan: planType, interval: o.interval, user_id: o.userId } });
  } catch (err) {
    throw providerError(err, 'subscription creation');
  }
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('subscription')
      .values({ id: created.id, account_id: o.accountId, created_by: o.userId, plan: planType, interval: o.interval, currency, amount: bp.amount, billing_plan_id: bp.id, mode: gateway.mode })
      .execute();
    if (country) await trx.updateTable('account').set({ billing_country: country }).where('id', '=', o.accountId).where('billing_country', 'is', null).execute();
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.subscription_created', targetType: 'subscription', targetId: created.id, data: { plan: planType, interval: o.interval, currency, amount: bp.amount, mode: gateway.mode } });
  });
  return {
    kind: 'subscribe',
    keyId: gateway.keyId,
    mode: gateway.mode,
    subscriptionId: created.id,
    amount: bp.amount,
    currency,
    interval: o.interval,
    planType,
    planName: def.name,
    description: `${def.name} plan (${o.interval === 'annual' ? 'annual' : 'monthly'})`,
    message: null,
  };
}

/** Razorpay wants a start_at in the future: a period ending sooner than this is not resumed (its end is a renewal away). */
const RESUME_MIN_LEAD_MS = 10 * 60 * 1000;

/** Razorpay's statuses of a subscription that can take no more payments. */
const ENDED_AT_GATEWAY = new Set(['cancelled', 'completed', 'expired']);

/**
 * Stops a subscription at Razorpay at once and records it cancelled. One Razorpay has already ended
 * (our row had not heard yet: a late or lost webhook) answers the cancel with an error; it counts as
 * stopped.
 */
async function stopSubscription(deps: AppDeps, gateway: PaymentGateway, subscriptionId: string): Promise<void> {
  try {
    await gateway.cancelSubscription(subscriptionId, false);
  } catch (err) {
    const status = await gateway.subscriptionStatus(subscriptionId).catch(() => null);
    if (status === null || !ENDED_AT_GATEWAY.has(status)) throw err;
  }
  await deps.db.updateTable('subscription').set({ status: 'cancelled', updated_at: new Date() }).where('id', '=', subscriptionId).where('status', 'in', LIVE_STATUSES).execute();
}

/**
 * One live subscription per account. A checkout opened earlier and never paid (another tab, an
 * abandoned Starter checkout before a Pro one) is cancelled at Razorpay before a new subscription is
 * made, so it can no longer be paid and bill the customer twice; one being paid right now (paid or
 * authenticated at Razorpay, its webhook not applied yet) makes this checkout wait. `current`: the
 * account's own subscription, ending at its period's end (a new checkout after a cancellation).
 */
async function closeOpenCheckouts(deps: AppDeps, gateway: PaymentGateway, o: { accountId: string; current: Array<string | null> }): Promise<void> {
  let open = deps.db.selectFrom('subscription').select(['id', 'status', 'mode']).where('account_id', '=', o.accountId).where('status', 'in', LIVE_STATUSES);
  const current = o.current.filter((id): id is string => id !== null);
  if (current.length) open = open.where('id', 'not in', current);
  const subs = await open.execute();
  if (subs.some((s) => s.status !== 'created')) throw new AppError('CONFLICT', BILLING_MESSAGES.paymentInProgress);
  for (const s of subs.filter((x) => x.mode === gateway.mode)) {
    try {
      await stopSubscription(deps, gateway, s.id);
    } catch (err) {
      throw providerError(err, 'cancellation');
    }
  }
}

/**
 * Stops at Razorpay, at once, every subscription of these accounts that could still take a payment:
 * the accounts are about to be deleted, and nothing may bill the customer for an account that is
 * gone. Throws (so that nothing is deleted) when one cannot be stopped. Returns the ids stopped.
 */
export async function stopSubscriptionsOf(deps: AppDeps, accountIds: string[]): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const subs = await deps.db.selectFrom('subscription').select(['id', 'mode']).where('account_id', 'in', accountIds).where('status', 'in', LIVE_STATUSES).execute();
  if (subs.length === 0) return [];
  const gateway = gatewayFor(deps);
  for (const s of subs) {
    if (!gateway || gateway.mode !== s.mode) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.stopFailed);
    try {
      await stopSubscription(deps, gateway, s.id);
    } catch (err) {
      console.error('[billing] could not stop a subscription before deleting its account:', (err as { error?: unknown })?.error ?? err);
      throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.stopFailed);
    }
  }
  return subs.map((s) => s.id);
}

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
  if (!gateway || gateway.mode !== 'test' || !gateway.webhookSecret) throw new AppError('PERMISSION_DENIED', BILLING_MESSAGES.testDisabled);
  // Like Razorpay's checkout, it pays the subscription it was opened for, on an account the caller
  // owns, whichever team the session works in by then (verifyPayment: the same).
  const sub = await deps.db.selectFrom('subscription').selectAll().where('id', '=', o.subscriptionId).where('account_id', 'in', ownedAccounts(deps.db, o.userId)).executeTakeFirst();
  if (!sub || sub.mode !== 'test') throw new AppError('NOT_FOUND', BILLING_MESSAGES.unknownSubscription);
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
    const r = await handleRazorpayWebhook(deps, { rawBody: raw, signature: webhookSignature(raw, gateway.webhookSecret), eventId: testId('evt'), secret: gateway.webhookSecret, gateway });
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
      message: adopted.adopted ? BILLING_MESSAGES.resumed(plan.name, when) : BILLING_MESSAGES.resumeLate,
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
    await gateway.cancelSubscription(outcome.cancelSubscriptionId, false).catch((err: unknown) => console.error('[billing] cancel of a subscription paid a second time failed:', err));
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

/**
 * Owner only: takes back a plan change scheduled for the renewal (Razorpay's cancel_scheduled_changes),
 * so the renewal charges the plan the subscription is on now.
 */
export async function keepCurrentPlan(deps: AppDeps, o: { accountId: string; userId: string }): Promise<{ plan: PlanType; message: string }> {
  const account = await deps.db.selectFrom('account').select(['plan', 'subscription_id']).where('id', '=', o.accountId).executeTakeFirstOrThrow();
  const sub = account.subscription_id
    ? await deps.db.selectFrom('subscription').select(['id', 'mode', 'next_plan', 'plan', 'interval']).where('id', '=', account.subscription_id).where('account_id', '=', o.accountId).executeTakeFirst()
    : undefined;
  if (!sub?.next_plan) throw new AppError('CONFLICT', BILLING_MESSAGES.noPlanChange);
  const gateway = gatewayFor(deps);
  if (!gateway || gateway.mode !== sub.mode) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.unavailable);
  try {
    await gateway.cancelScheduledChange(sub.id);
  } catch (err) {
    throw providerError(err, 'withdrawing the plan change');
  }
  await deps.db.transaction().execute(async (trx) => {
    await lockAccountBilling(trx, o.accountId);
    await trx.updateTable('subscription').set({ next_plan: null, next_billing_plan_id: null, updated_at: new Date() }).where('id', '=', sub.id).execute();
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.plan_change_withdrawn', targetType: 'subscription', targetId: sub.id, data: { plan: sub.plan, interval: sub.interval, withdrawn_plan: sub.next_plan } });
  });
  return { plan: account.plan, message: BILLING_MESSAGES.changeWithdrawn(planByType(account.plan).name) };
}

// ── Cancel, refund ──────────────────────────────────────────────────────────────────────────

/** Owner only: the subscription stops renewing; the plan runs to the period's end, then Free. */
export async function cancelSubscription(deps: AppDeps, o: { accountId: string; userId: string }): Promise<{ endsAt: string | null; endedNow: boolean }> {
  const account = await deps.db.selectFrom('account').select(['subscription_id', 'subscription_status', 'cancel_at_period_end', 'current_period_end']).where('id', '=', o.accountId).executeTakeFirstOrThrow();
  if (!account.subscription_id) throw new AppError('CONFLICT', BILLING_MESSAGES.noSubscription);
  if (account.cancel_at_period_end) throw new AppError('CONFLICT', BILLING_MESSAGES.alreadyCancelled);
  const sub = await deps.db.selectFrom('subscription').select(['id', 'mode', 'follows_id', 'current_start']).where('id', '=', account.subscription_id).where('account_id', '=', o.accountId).executeTakeFirstOrThrow();
  const gateway = gatewayFor(deps);
  if (!gateway || gateway.mode !== sub.mode) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.unavailable);
  if (isPendingSuccessor(sub) && sub.follows_id) {
    // A resumed plan cancelled again before its new subscription was charged: that subscription is
    // stopped at once (nothing was paid on it) and the plan ends with the period already paid, as before.
    const follows = sub.follows_id;
    try {
      await stopSubscription(deps, gateway, sub.id);
    } catch (err) {
      throw providerError(err, 'cancellation');
    }
    await deps.db.transaction().execute(async (trx) => {
      await lockAccountBilling(trx, o.accountId);
      await trx.updateTable('account').set({ subscription_id: follows, cancel_at_period_end: true, updated_at: new Date() }).where('id', '=', o.accountId).where('subscription_id', '=', sub.id).execute();
      await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.cancelled', targetType: 'subscription', targetId: sub.id, data: { ends_at: account.current_period_end?.toISOString() ?? null, resumed_not_started: true, follows } });
      await endIfDue(trx, o.accountId, new Date());
    });
    return { endsAt: account.current_period_end?.toISOString() ?? null, endedNow: false };
  }
  // A renewal left unpaid (past due, suspended) has no paid period to run to: stopped at once, or
  // Razorpay would go on retrying it until the cycle end and charge the customer who cancelled.
  const unpaid = account.subscription_status === 'past_due' || account.subscription_status === 'suspended';
  try {
    if (unpaid) await stopSubscription(deps, gateway, sub.id);
    else await gateway.cancelSubscription(sub.id, true);
  } catch (err) {
    throw providerError(err, 'cancellation');
  }
  const now = new Date();
  // Unpaid past the period's end: the plan ends now (a period still running runs to its end).
  const endedNow = unpaid && (!account.current_period_end || account.current_period_end <= now);
  const endsAt = endedNow ? now : account.current_period_end;
  await deps.db.transaction().execute(async (trx) => {
    await lockAccountBilling(trx, o.accountId);
    await trx.updateTable('account').set({ cancel_at_period_end: true, updated_at: now }).where('id', '=', o.accountId).where('subscription_id', '=', sub.id).execute();
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.cancelled', targetType: 'subscription', targetId: sub.id, data: { ends_at: endsAt?.toISOString() ?? null, ...(unpaid ? { unpaid: true } : {}) } });
    if (endedNow) await endIfDue(trx, o.accountId, now);
  });
  return { endsAt: endsAt?.toISOString() ?? null, endedNow };
}

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

// ── What the Billing page shows ──────────────────────────────────────────────────────────────

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
