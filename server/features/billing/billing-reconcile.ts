// Reconciliation (worker cron `billing-reconcile`, hourly): a webhook Razorpay gave up on, or that
// reached us while we were down, must not leave a customer who paid without their period or
// credits. For every subscription where a charge or a status change is due or may have been
// missed, this asks Razorpay itself through the SDK (the subscription and its paid invoices) and
// applies what we lack as the event Razorpay would have sent, through the very path webhooks take
// (applyBillingEvent → applyEvent → applyCharge): a charge is keyed by its payment id (the
// `payment` primary key and the month's credit_grant key), so the webhook arriving late, after
// this, grants nothing twice, and this finds nothing to do after the webhook. Refunds of the last
// three days whose refund.processed never came are applied the same way; second payments whose
// refund failed are refunded again here.
import { sql } from 'kysely';
import type { AppDeps } from '../../deps';
import { applyBillingEvent } from './billing-webhook';
import { refundAgain, refundSecondPayments } from './billing-refunds';
import { deletedAccountRefundsDue, refundDeletedAccountCharges } from './deleted-account-charges';
import type { WebhookBody } from './razorpay-event';
import { gatewayFor } from './billing-gateway';
import type { PaymentGateway, RemoteSubscription } from './razorpay';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** A checkout paid at Razorpay normally reaches us within seconds; older unheard ones are asked about. */
const CHECKOUT_SETTLE_MS = 10 * MINUTE;
/** Checkouts left open longer than this are abandoned (and Razorpay's links expire). */
const CHECKOUT_MAX_AGE_MS = 3 * DAY;
/** Razorpay charges at the period's end; its webhook is due within minutes of it. */
const RENEWAL_SETTLE_MS = 60 * MINUTE;

export interface ReconcileResult {
  checked: number;
  applied: Array<{ subscriptionId: string; event: string; outcome: string }>;
  refunded: string[];
  failed: string[];
}

/** Razorpay's own statuses, mapped onto the event it sends when a subscription enters them. */
const STATUS_EVENTS: Record<string, string> = {
  // A card authorised for a subscription that starts later (a cancelled plan resumed) whose
  // subscription.authenticated never came: the account takes it all the same.
  authenticated: 'subscription.authenticated',
  pending: 'subscription.pending',
  halted: 'subscription.halted',
  cancelled: 'subscription.cancelled',
  completed: 'subscription.completed',
  expired: 'subscription.cancelled',
  paused: 'subscription.paused',
};

export async function reconcileBilling(deps: AppDeps, now: Date, o: { subscriptionIds?: string[] } = {}): Promise<ReconcileResult> {
  const result: ReconcileResult = { checked: 0, applied: [], refunded: [], failed: [] };
  const gateway = gatewayFor(deps);
  if (!gateway) return result;

  const due = await deps.db.selectFrom('payment').select('id').where('second_payment', '=', true).where('status', '=', 'captured').execute();
  result.refunded = await refundSecondPayments(deps.db, gateway, due.map((r) => r.id));
  // Refunds that failed at Razorpay after they had taken the plan away (refund.failed), whose
  // immediate retry failed too: the customer is owed them; tried again each run until one is made.
  const owed = await deps.db
    .selectFrom('payment')
    .select('payment.id')
    .where('payment.status', '=', 'captured')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('audit_log')
          .select('audit_log.id')
          .whereRef('audit_log.target_id', '=', 'payment.id')
          .where('audit_log.account_id', '=', eb.ref('payment.account_id'))
          .where('audit_log.action', '=', 'billing.refund_failed')
          .where(sql<boolean>`(audit_log.data->>'retry')::boolean`),
      ),
    )
    .execute();
  result.refunded.push(...(await refundAgain(deps.db, gateway, owed.map((r) => r.id))));
  // Charges of accounts deleted meanwhile whose refund Razorpay would not take then.
  result.refunded.push(...(await refundDeletedAccountCharges(deps.db, gateway, await deletedAccountRefundsDue(deps.db))));

  result.applied.push(...(await reconcileRefunds(deps, gateway, now, result)));

  const ids = o.subscriptionIds ?? (await candidates(deps, gateway, now));
  for (const id of ids) {
    result.checked++;
    try {
      const state = await gateway.subscriptionState(id);
      if (!state) continue;
      for (const a of await reconcileOne(deps, gateway, id, state, now)) result.applied.push({ subscriptionId: id, ...a });
    } catch (err) {
      result.failed.push(id);
      console.error(`[billing] reconciliation of ${id} failed:`, (err as { error?: unknown })?.error ?? err);
    }
  }
  return result;
}

/** Refunds look back this far (a refund made in Razorpay's dashboard while we were down for days). */
const REFUND_LOOKBACK_MS = 3 * DAY;

/**
 * Refunds Razorpay made (its dashboard, or our own refund API) whose refund.processed never reached
 * us: a payment we still hold captured is refunded through the same rule (applyRefund: the current
 * period's payment lowers the plan to Free at once), keyed like the webhook's payment, so a late
 * webhook finds it refunded.
 */
async function reconcileRefunds(deps: AppDeps, gateway: PaymentGateway, now: Date, result: ReconcileResult): Promise<ReconcileResult['applied']> {
  const applied: ReconcileResult['applied'] = [];
  let refunds: Array<{ id: string; paymentId: string; amount: number }>;
  try {
    refunds = await gateway.refundsSince(Math.floor((now.getTime() - REFUND_LOOKBACK_MS) / 1000));
  } catch (err) {
    result.failed.push('refunds');
    console.error('[billing] reconciliation of refunds failed:', (err as { error?: unknown })?.error ?? err);
    return applied;
  }
  if (refunds.length === 0) return applied;
  const captured = await deps.db
    .selectFrom('payment')
    .select(['id', 'subscription_id', 'refund_ids'])
    .where('id', 'in', refunds.map((r) => r.paymentId))
    .where('status', '=', 'captured')
    .execute();
  const held = new Map(captured.map((p) => [p.id, p.subscription_id]));
  // A part refund already applied leaves its payment captured: not applied again.
  const appliedRefunds = new Set(captured.flatMap((p) => p.refund_ids));
  for (const r of refunds) {
    if (!held.has(r.paymentId) || appliedRefunds.has(r.id)) continue;
    const outcome = await applyBillingEvent(deps, {
      eventId: `rec_refund_${r.id}`.slice(0, 100),
      event: { event: 'refund.processed', created_at: Math.floor(now.getTime() / 1000), payload: { refund: { entity: { id: r.id, payment_id: r.paymentId, amount: r.amount } } } },
      now,
      gateway,
    });
    if (outcome !== 'duplicate') applied.push({ subscriptionId: held.get(r.paymentId) ?? '', event: 'refund.processed', outcome });
  }
  return applied;
}

/**
 * Subscriptions that may have missed a webhook: checkouts opened 10 minutes to 3 days ago with no
 * charge heard of (paid, the handler's answer and the charge's webhook lost); accounts whose paid period ended
 * an hour ago or more without a renewal heard of (charged, failed, halted, ended or paused at
 * Razorpay); past-due and suspended accounts (a retry charged, its webhook lost).
 */
async function candidates(deps: AppDeps, gateway: PaymentGateway, now: Date): Promise<string[]> {
  // (Its subscription.activated may have come; its charge not: still no payment of it here.)
  const checkouts = await deps.db
    .selectFrom('subscription')
    .select('subscription.id')
    .where('subscription.mode', '=', gateway.mode)
    .where('subscription.status', 'in', ['created', 'authenticated', 'active'])
    .where('subscription.created_at', '<=', new Date(now.getTime() - CHECKOUT_SETTLE_MS))
    .where('subscription.created_at', '>', new Date(now.getTime() - CHECKOUT_MAX_AGE_MS))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('payment').select('payment.id').whereRef('payment.subscription_id', '=', 'subscription.id').where('payment.status', '<>', 'failed'))))
    .execute();
  const accounts = await deps.db
    .selectFrom('account')
    .innerJoin('subscription', 'subscription.id', 'account.subscription_id')
    .select('subscription.id')
    .where('subscription.mode', '=', gateway.mode)
    .where('account.cancel_at_period_end', '=', false)
    .where((eb) =>
      eb.or([
        eb('account.subscription_status', 'in', ['past_due', 'suspended']),
        eb.and([eb('account.subscription_status', '=', 'active'), eb('account.current_period_end', '<=', new Date(now.getTime() - RENEWAL_SETTLE_MS))]),
      ]),
    )
    .execute();
  return [...new Set([...checkouts, ...accounts].map((r) => r.id))];
}

async function reconcileOne(
  deps: AppDeps,
  gateway: PaymentGateway,
  subscriptionId: string,
  state: { subscription: RemoteSubscription; charges: Array<{ paymentId: string; amount: number; currency: string; billingStart: number | null; billingEnd: number | null; paidAt: number | null }> },
  now: Date,
): Promise<Array<{ event: string; outcome: string }>> {
  const ours = await deps.db.selectFrom('subscription').select(['id', 'status']).where('id', '=', subscriptionId).executeTakeFirst();
  if (!ours) return [];
  const remote = state.subscription;
  const nowUnix = Math.floor(now.getTime() / 1000);
  const applied: Array<{ event: string; outcome: string }> = [];
  const apply = async (eventId: string, event: WebhookBody) => {
    const outcome = await applyBillingEvent(deps, { eventId, event, now, gateway });
    if (outcome !== 'duplicate') applied.push({ event: event.event, outcome });
  };

  // Charges Razorpay made that we never heard of, oldest first.
  const known = new Set(
    (await deps.db.selectFrom('payment').select('id').where('id', 'in', state.charges.length ? state.charges.map((c) => c.paymentId) : ['']).execute()).map((r) => r.id),
  );
  for (const c of state.charges) {
    if (known.has(c.paymentId)) continue;
    // The plan a charge was for: Razorpay's current plan for the current period's charge (a plan
    // change scheduled for the renewal took effect with it); the subscription's own for older ones.
    const current = c.billingStart !== null && c.billingStart === remote.current_start;
    await apply(`rec_charged_${c.paymentId}`.slice(0, 100), {
      event: 'subscription.charged',
      created_at: c.paidAt ?? nowUnix,
      payload: {
        subscription: { entity: { id: subscriptionId, ...(current ? { plan_id: remote.plan_id } : {}), status: 'active', current_start: c.billingStart, current_end: c.billingEnd } },
        payment: { entity: { id: c.paymentId, amount: c.amount, currency: c.currency || undefined, status: 'captured', subscription_id: subscriptionId } },
      },
    });
  }

  // A status Razorpay moved to that we never heard of (a renewal that failed, a subscription halted,
  // ended or paused): the event it sends for it, once per status and period.
  const fresh = await deps.db.selectFrom('subscription').select('status').where('id', '=', subscriptionId).executeTakeFirstOrThrow();
  const event = remote.status === 'active' && fresh.status === 'paused' ? 'subscription.resumed' : STATUS_EVENTS[remote.status];
  const same = fresh.status === remote.status || (remote.status === 'expired' && fresh.status === 'cancelled');
  if (event && !same) {
    await apply(`rec_${remote.status}_${subscriptionId}_${remote.current_end ?? 0}`.slice(0, 100), {
      event,
      created_at: nowUnix,
      payload: { subscription: { entity: { id: subscriptionId, plan_id: remote.plan_id, status: remote.status === 'expired' ? 'cancelled' : remote.status, current_start: remote.current_start, current_end: remote.current_end } } },
    });
  }
  return applied;
}
