// The billing period is the truth (issue #10): what Razorpay tells us — the checkout handler's
// verified payment and the signed webhooks — moves the account between active, past_due (a grace
// period) and suspended, extends its period and refills its credits. Every change is one
// transaction keyed by Razorpay's ids: a payment id is charged once (the `payment` row), an event
// id is applied once (the `billing_event` row, stored whatever its outcome), and an event older
// than the last status applied cannot roll the status back.
import type { AppDeps } from '../../deps';
import { hexSignatureMatches, webhookSignature, type PaymentGateway } from './razorpay';
import { sendBillingMails } from './billing-mail';
import { lockSubscription, type Trx } from './billing-locks';
import { applyChargedEvent, applyPaymentFailedEvent } from './payment-events';
import { applyRefundEvent, refundAgain, refundSecondPayments } from './billing-refunds';
import { applySubscriptionEvent } from './subscription-events';
import { applyDeletedAccountCharge, refundDeletedAccountCharges } from './deleted-account-charges';
import { webhookBody, type AfterCommit, type EventResult, type WebhookBody } from './razorpay-event';
import type { RzpSubscriptionStatus } from '../../../db/types';

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
  const after: AfterCommit = { mails: [], cancels: [], refunds: [], retries: [], deletedAccountRefunds: [] };
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
    const r = await applyEvent(trx, parsed, now, after);
    await trx.updateTable('billing_event').set({ outcome: r.outcome, account_id: r.accountId }).where('id', '=', eventId).execute();
    return r.outcome;
  });
  await sendBillingMails(deps, after.mails);
  await cancelAtGateway(o.gateway, after.cancels);
  await refundSecondPayments(deps.db, o.gateway, after.refunds);
  await refundAgain(deps.db, o.gateway, after.retries);
  await refundDeletedAccountCharges(deps.db, o.gateway, after.deletedAccountRefunds);
  return outcome;
}

/**
 * Routes one event to its family: refunds (by payment), else the subscription it is about, locked,
 * to its payment events or its lifecycle events.
 */
async function applyEvent(trx: Trx, e: WebhookBody, now: Date, after: AfterCommit): Promise<EventResult> {
  if (e.event === 'refund.processed' || e.event === 'refund.failed') return applyRefundEvent(trx, e, now, after);
  const subId = e.payload.subscription?.entity.id ?? e.payload.payment?.entity.subscription_id ?? null;
  const eventAt = e.created_at ?? Math.floor(now.getTime() / 1000);
  if (!subId) return { outcome: 'ignored', accountId: null };
  const sub = await lockSubscription(trx, subId);
  // Not ours (any more): a renewal charged as the account's deletion stopped it is given back.
  if (!sub) return applyDeletedAccountCharge(trx, e, subId, after);

  // Status follows the newest event only (out-of-order deliveries cannot roll it back).
  const newer = eventAt >= Number(sub.status_event_at);
  // Ended (we cancelled it at Razorpay, or Razorpay ended it) is for good: an event from before
  // that, delivered late, does not bring it back (a closed checkout 'authenticated' again would
  // block every later checkout as a payment in progress).
  const ended = sub.status === 'cancelled' || sub.status === 'completed';
  const setStatus = async (status: RzpSubscriptionStatus) => {
    if (!newer) return;
    if (ended && status !== 'cancelled' && status !== 'completed') return;
    await trx.updateTable('subscription').set({ status, status_event_at: eventAt, updated_at: new Date() }).where('id', '=', sub.id).execute();
  };
  const ev = { trx, e, now, sub, accountId: sub.account_id, eventAt, newer, setStatus, after };
  if (e.event === 'subscription.charged') return applyChargedEvent(ev);
  if (e.event === 'payment.failed') return applyPaymentFailedEvent(ev);
  return applySubscriptionEvent(ev);
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
