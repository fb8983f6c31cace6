// Billing: plans are Razorpay subscriptions (or the labelled local test checkout's stand-in when no
// keys are configured). Upgrading from Free opens a new subscription; changing plan on a running
// subscription takes effect at renewal (no proration). Cancelling keeps the plan to the period's end.
// A cancelled plan chosen again goes on after its paid period. A plan change waiting for the
// renewal, or chosen after cancelling, can be taken back. What changes the account's plan and
// credits is a verified charge (billing-charges.ts).
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import type { PaidPlan, Plan } from '../../../db/types';
import { PLAN_RANK, isPaidPlanType, periodPriceMinor, planByType, type BillingInterval, type Currency, type PlanType } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { lockAccountBilling } from './billing-locks';
import { LIVE_STATUSES, endIfDue, isPendingSuccessor } from './subscription-lifecycle';
import { formatUtcDateTime } from '../../lib/dates';
import { formatDay } from './billing-mail';
import { decideCurrency } from './currency';
import { BILLING_MESSAGES } from './billing-messages';
import { gatewayFor, providerError, stopAtGateway, stopSubscription } from './billing-gateway';
import type { PaymentGateway } from './razorpay';

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
 * change is scheduled for the renewal (Razorpay's schedule_change_at=cycle_end); on a cancelled one
 * whose period still runs, a new subscription starting at the period's end.
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
    ? await deps.db.selectFrom('subscription').select(['id', 'plan', 'currency', 'interval', 'follows_id', 'current_start']).where('id', '=', account.subscription_id).where('account_id', '=', o.accountId).executeTakeFirst()
    : undefined;
  // A resumed plan whose new subscription starts at the period's end and has not been charged yet.
  const resumedNotStarted = current !== undefined && isPendingSuccessor(current);
  const running = account.subscription_id !== null && account.subscription_status !== 'none' && !account.cancel_at_period_end && !unpaid && !resumedNotStarted;
  // Cancelled (to the period's end) and the owner changes their mind: the same plan on either
  // interval, or a higher plan, goes on after the paid period with a new subscription starting then
  // (Razorpay cannot take a cancellation back); nothing is charged before, and no day already paid
  // is lost — a higher plan starts at the period's end, as a plan change on a running subscription
  // does. A resumed one not started yet is replaced the same way (another interval or plan).
  const sameOrHigher = o.planType === account.plan || (isPaidPlanType(o.planType) && PLAN_RANK[o.planType] > PLAN_RANK[account.plan]);
  const chosenAlready = resumedNotStarted && o.planType === current.plan && o.interval === current.interval;
  const resume =
    account.subscription_id !== null &&
    account.subscription_status === 'active' &&
    (account.cancel_at_period_end || resumedNotStarted) &&
    account.current_period_end !== null &&
    account.current_period_end.getTime() > Date.now() + RESUME_MIN_LEAD_MS &&
    sameOrHigher &&
    !chosenAlready;
  // The higher plan a resumed subscription already goes on with: nothing more to open.
  if (chosenAlready && o.planType !== account.plan && account.current_period_end) {
    throw new AppError('CONFLICT', BILLING_MESSAGES.changeScheduled(planByType(o.planType).name, formatDay(account.current_period_end)));
  }
  // Cancelled, with only minutes of the period left: too late to go on without a gap (Razorpay wants
  // the new subscription's start ahead of now); once the account is on Free it subscribes afresh.
  if (!resume && account.cancel_at_period_end && account.subscription_status === 'active' && o.planType === account.plan && account.current_period_end && account.current_period_end.getTime() > Date.now()) {
    throw new AppError('CONFLICT', BILLING_MESSAGES.resumeTooLate(planByType(account.plan).name, formatUtcDateTime(account.current_period_end)));
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
    const message = planType === account.plan ? BILLING_MESSAGES.resumeCheckout(def.name, formatDay(startAt)) : BILLING_MESSAGES.changeAtPeriodEnd(def.name, formatDay(startAt));
    return subscribeResponse(gateway, planType, { subscriptionId: created.id, amount: bp.amount, currency: current.currency, interval: o.interval, startAt, message });
  }

  if (running && account.subscription_id) {
    const sub = await deps.db.selectFrom('subscription').selectAll().where('id', '=', account.subscription_id).where('account_id', '=', o.accountId).executeTakeFirstOrThrow();
    const when = account.current_period_end ? formatDay(account.current_period_end) : 'your next renewal';
    // The period is over and its renewal not heard of yet (Razorpay is charging it): a change scheduled
    // now would wait for the cycle after it, a period later than the page and this answer would say.
    if (account.current_period_end && account.current_period_end.getTime() <= Date.now()) throw new AppError('CONFLICT', BILLING_MESSAGES.renewalInProgress(when));
    // Razorpay updates only authenticated and active subscriptions: a paused one cannot take a change.
    if (sub.status === 'paused') throw new AppError('CONFLICT', BILLING_MESSAGES.changeWhilePaused(when));
    const bp = await ensureBillingPlan(deps, gateway, planType, o.interval, sub.currency);
    // The change already scheduled, chosen again: nothing more to do at Razorpay or to audit.
    if (sub.next_billing_plan_id === bp.id) throw new AppError('CONFLICT', BILLING_MESSAGES.changeScheduled(def.name, when));
    try {
      await gateway.changePlanAtRenewal(sub.id, bp.id, o.interval);
    } catch (err) {
      throw providerError(err, 'plan change');
    }
    await deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('subscription').set({ next_plan: planType, next_billing_plan_id: bp.id, updated_at: new Date() }).where('id', '=', sub.id).execute();
      await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.plan_change_scheduled', targetType: 'subscription', targetId: sub.id, data: { from_plan: account.plan, plan: planType, interval: o.interval, at: account.current_period_end?.toISOString() ?? null } });
    });
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
  return subscribeResponse(gateway, planType, { subscriptionId: created.id, amount: bp.amount, currency, interval: o.interval });
}

/** The answer that opens the checkout on a new subscription (`startAt`: one going on after a cancelled one, charged from then). */
function subscribeResponse(
  gateway: PaymentGateway,
  planType: PaidPlan,
  o: { subscriptionId: string; amount: number; currency: Currency; interval: BillingInterval; startAt?: Date; message?: string },
): CheckoutResponse {
  const def = planByType(planType);
  const description = `${def.name} plan (${o.interval === 'annual' ? 'annual' : 'monthly'})`;
  return {
    kind: 'subscribe',
    keyId: gateway.keyId,
    mode: gateway.mode,
    subscriptionId: o.subscriptionId,
    amount: o.amount,
    currency: o.currency,
    interval: o.interval,
    planType,
    planName: def.name,
    description: o.startAt ? `${description} from ${formatDay(o.startAt)}` : description,
    message: o.message ?? null,
  };
}

/** Razorpay wants a start_at in the future: a period ending sooner than this is not resumed (its end is a renewal away). */
const RESUME_MIN_LEAD_MS = 10 * 60 * 1000;

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
 * Owner only: takes back a plan change waiting for the renewal. On a running subscription it is
 * Razorpay's scheduled change (cancel_scheduled_changes): the renewal charges the plan it is on now.
 * After a cancellation, the plan chosen then (another plan or interval) is a subscription starting at
 * the period's end: it is stopped at Razorpay before it can charge, and the account is cancelled to
 * the period's end again, as before the choice. Taken back once: a second call (or a second click at
 * the same moment) finds nothing waiting; each state change is one transaction under the account's
 * billing lock, re-checked there.
 */
export async function keepCurrentPlan(deps: AppDeps, o: { accountId: string; userId: string }): Promise<{ plan: PlanType; message: string }> {
  const account = await deps.db.selectFrom('account').select(['plan', 'subscription_id', 'billing_interval', 'current_period_end']).where('id', '=', o.accountId).executeTakeFirstOrThrow();
  const sub = account.subscription_id
    ? await deps.db.selectFrom('subscription').select(['id', 'mode', 'next_plan', 'next_billing_plan_id', 'plan', 'interval', 'follows_id', 'current_start']).where('id', '=', account.subscription_id).where('account_id', '=', o.accountId).executeTakeFirst()
    : undefined;
  // A plan or interval chosen after cancelling, not charged yet (the same plan resumed is no change: Cancel subscription stops it).
  const chosenAfterCancel = sub !== undefined && isPendingSuccessor(sub) && sub.follows_id !== null && (sub.plan !== account.plan || sub.interval !== account.billing_interval);
  if (!sub || (!sub.next_plan && !chosenAfterCancel)) throw new AppError('CONFLICT', BILLING_MESSAGES.noPlanChange);
  const gateway = gatewayFor(deps);
  if (!gateway || gateway.mode !== sub.mode) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.unavailable);

  // The period the change waited for is over: the change has started (Razorpay charges the new plan
  // at that moment, its webhook may still be on its way). Too late to take back; cancelling is not.
  const tooLate = (end: Date | null, to: string) => {
    if (end && end.getTime() <= Date.now()) throw new AppError('CONFLICT', BILLING_MESSAGES.changeStarted(to, formatDay(end)));
  };

  if (chosenAfterCancel && sub.follows_id) {
    const follows = sub.follows_id;
    const to = sub.plan !== account.plan ? planByType(sub.plan).name : `${planByType(sub.plan).name}, billed ${sub.interval === 'annual' ? 'annually' : 'monthly'}`;
    tooLate(account.current_period_end, to);
    // Stopped under the account's billing lock, recorded in the same transaction: Razorpay's
    // subscription.cancelled for it (which may come before its answer) waits, and finds it ended.
    const endedNow = await deps.db.transaction().execute(async (trx) => {
      await lockAccountBilling(trx, o.accountId);
      const fresh = await trx.selectFrom('account').select(['subscription_id', 'current_period_end']).where('id', '=', o.accountId).executeTakeFirstOrThrow();
      if (fresh.subscription_id !== sub.id) throw new AppError('CONFLICT', BILLING_MESSAGES.noPlanChange);
      tooLate(fresh.current_period_end, to);
      try {
        await stopAtGateway(gateway, sub.id);
      } catch (err) {
        throw providerError(err, 'withdrawing the plan change');
      }
      const now = new Date();
      await trx.updateTable('account').set({ subscription_id: follows, cancel_at_period_end: true, updated_at: now }).where('id', '=', o.accountId).where('subscription_id', '=', sub.id).execute();
      await trx.updateTable('subscription').set({ status: 'cancelled', updated_at: now }).where('id', '=', sub.id).where('status', 'in', LIVE_STATUSES).execute();
      await writeAudit(trx, {
        accountId: o.accountId,
        actorUserId: o.userId,
        action: 'billing.plan_change_withdrawn',
        targetType: 'subscription',
        targetId: sub.id,
        data: { plan: account.plan, interval: account.billing_interval, withdrawn_plan: sub.plan, withdrawn_interval: sub.interval, follows, ends_at: account.current_period_end?.toISOString() ?? null },
      });
      // The period it follows ending at this very moment: Free now, as a cancellation would.
      return endIfDue(trx, o.accountId, now);
    });
    const message = endedNow || !account.current_period_end ? BILLING_MESSAGES.changeUndoneEnded(to) : BILLING_MESSAGES.changeUndone(to, planByType(account.plan).name, formatDay(account.current_period_end));
    return { plan: endedNow ? 'free' : account.plan, message };
  }

  if (sub.next_plan) {
    const next = sub.next_billing_plan_id ? await deps.db.selectFrom('billing_plan').select('interval').where('id', '=', sub.next_billing_plan_id).executeTakeFirst() : undefined;
    const nextInterval = next?.interval ?? sub.interval;
    tooLate(account.current_period_end, sub.next_plan !== account.plan ? planByType(sub.next_plan).name : `${planByType(sub.next_plan).name}, billed ${nextInterval === 'annual' ? 'annually' : 'monthly'}`);
  }
  try {
    await gateway.cancelScheduledChange(sub.id);
  } catch (err) {
    throw providerError(err, 'withdrawing the plan change');
  }
  await deps.db.transaction().execute(async (trx) => {
    await lockAccountBilling(trx, o.accountId);
    const dropped = await trx
      .updateTable('subscription')
      .set({ next_plan: null, next_billing_plan_id: null, updated_at: new Date() })
      .where('id', '=', sub.id)
      .where('next_plan', 'is not', null)
      .returning('id')
      .executeTakeFirst();
    if (!dropped) throw new AppError('CONFLICT', BILLING_MESSAGES.noPlanChange);
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.plan_change_withdrawn', targetType: 'subscription', targetId: sub.id, data: { plan: sub.plan, interval: sub.interval, withdrawn_plan: sub.next_plan } });
  });
  return { plan: account.plan, message: BILLING_MESSAGES.changeWithdrawn(planByType(account.plan).name) };
}
