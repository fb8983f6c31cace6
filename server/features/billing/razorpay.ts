// Razorpay behind one small interface, served by the official SDK (razorpay 2.9.8: plans.create,
// subscriptions.create/fetch/update/cancel, payments.refund) when keys are set, or — without keys,
// outside production — by the labelled local test checkout, which plays Razorpay's part (ids,
// periods, signed webhooks) so the rest of billing runs the very same code either way.
// Signatures: checkout handler HMAC-SHA256 hex over `payment_id|subscription_id` (key secret);
// webhooks HMAC-SHA256 hex over the raw body (webhook secret). Both compared in constant time.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import Razorpay from 'razorpay';
import type { Env } from '../../env';
import type { BillingInterval, Currency } from '../../contracts/plans';

export type PaymentMode = 'razorpay' | 'test';

/** The parts of a Razorpay subscription entity billing reads. Times are unix seconds. */
export interface RemoteSubscription {
  id: string;
  plan_id: string;
  status: string;
  current_start: number | null;
  current_end: number | null;
}

/** A paid invoice of a subscription: one charge, the period it paid for (unix seconds). */
export interface RemoteCharge {
  invoiceId: string;
  paymentId: string;
  amount: number;
  currency: string;
  billingStart: number | null;
  billingEnd: number | null;
  paidAt: number | null;
}

export interface PaymentGateway {
  mode: PaymentMode;
  /** The public key id the browser's checkout needs (a placeholder in test mode). */
  keyId: string;
  /** The secret checkout handler signatures are made with. */
  signingSecret: string;
  /** The secret webhooks are signed with (null: webhooks cannot be verified, so none are accepted). */
  webhookSecret: string | null;
  createPlan(o: { name: string; interval: BillingInterval; currency: Currency; amount: number; notes: Record<string, string> }): Promise<{ id: string }>;
  /** startAt (unix seconds): the first charge then, not at checkout (whose payment only authorises the card). */
  createSubscription(o: { planId: string; interval: BillingInterval; notes: Record<string, string>; startAt?: number }): Promise<{ id: string; status: string }>;
  /** Plan change at the end of the current cycle (plan changes take effect at renewal). */
  changePlanAtRenewal(subscriptionId: string, planId: string, interval: BillingInterval): Promise<void>;
  /** Drops a plan change waiting for the end of the cycle (the renewal charges the current plan). */
  cancelScheduledChange(subscriptionId: string): Promise<void>;
  cancelSubscription(subscriptionId: string, atCycleEnd: boolean): Promise<void>;
  /** Razorpay's own status of a subscription (created, authenticated, active, …, cancelled, completed, expired). */
  subscriptionStatus(subscriptionId: string): Promise<string>;
  refundPayment(paymentId: string, amount: number, notes: Record<string, string>): Promise<{ id: string; status: string }>;
  /**
   * What Razorpay itself holds about a subscription — its state and the charges of its paid
   * invoices, oldest first — for the reconciliation of webhooks that never arrived. null: this
   * gateway keeps nothing to reconcile (the test checkout applies its charges as it makes them).
   */
  subscriptionState(subscriptionId: string): Promise<{ subscription: RemoteSubscription; charges: RemoteCharge[] } | null>;
  /** Refunds made since `fromUnix` (ours and those made in Razorpay's dashboard), for the reconciliation. */
  refundsSince(fromUnix: number): Promise<Array<{ id: string; paymentId: string; amount: number }>>;
}

export function hmacHex(secret: string, data: string | Buffer): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

/** Constant-time comparison of a hex HMAC against the expected one; false for anything malformed. */
export function hexSignatureMatches(expectedHex: string, given: unknown): boolean {
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/i.test(given)) return false;
  const a = Buffer.from(expectedHex, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The checkout handler's signature for a subscription payment: HMAC(payment_id|subscription_id). */
export function subscriptionPaymentSignature(paymentId: string, subscriptionId: string, secret: string): string {
  return hmacHex(secret, `${paymentId}|${subscriptionId}`);
}

export function webhookSignature(rawBody: Buffer | string, secret: string): string {
  return hmacHex(secret, rawBody);
}

export const TEST_KEY_ID = 'rzp_test_mailvet_local';

/** The Razorpay gateway (keys set), the local test gateway (no keys, DEV_TOOLS on), or null (payments unavailable). */
export function paymentGateway(env: Env, authSecret: string): PaymentGateway | null {
  if (env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET) {
    return razorpayGateway(env.RAZORPAY_KEY_ID, env.RAZORPAY_KEY_SECRET, env.RAZORPAY_BASE_URL, env.RAZORPAY_WEBHOOK_SECRET ?? null);
  }
  if (!env.DEV_TOOLS) return null; // the test checkout exists only where developer tools are switched on
  return testGateway(authSecret);
}

const clients = new Map<string, Razorpay>();

/** Razorpay's "total_count": how many charges a subscription may make (ten years of renewals). */
export function totalCount(interval: BillingInterval): number {
  return interval === 'annual' ? 10 : 120;
}

function razorpayGateway(keyId: string, keySecret: string, baseURL: string, webhookSecret: string | null): PaymentGateway {
  const cacheKey = `${keyId}\u0000${keySecret}\u0000${baseURL}`;
  let rzp = clients.get(cacheKey);
  if (!rzp) {
    rzp = new Razorpay({ key_id: keyId, key_secret: keySecret });
    // The SDK has no base-URL option; its axios instance is public (STACK.md section 11).
    const defaults = (rzp as unknown as { api: { rq: { defaults: { baseURL: string; timeout: number; maxRedirects: number } } } }).api.rq.defaults;
    defaults.baseURL = baseURL.replace(/\/$/, '');
    defaults.timeout = 15_000;
    // axios follows up to 5 redirects by default: an answer from wherever a 3xx pointed would be
    // taken as Razorpay's (a subscription's status, a refund). Razorpay's API never redirects; a 3xx
    // is a failed call, as a webhook receiver's is.
    defaults.maxRedirects = 0;
    clients.set(cacheKey, rzp);
  }
  const client = rzp;
  return {
    mode: 'razorpay',
    keyId,
    signingSecret: keySecret,
    webhookSecret,
    async createPlan(o) {
      const plan = await client.plans.create({
        period: o.interval === 'annual' ? 'yearly' : 'monthly',
        interval: 1,
        item: { name: o.name, amount: o.amount, currency: o.currency, description: o.name },
        notes: o.notes,
      });
      return { id: plan.id };
    },
    async createSubscription(o) {
      const sub = await client.subscriptions.create({ plan_id: o.planId, total_count: totalCount(o.interval), customer_notify: 1, notes: o.notes, ...(o.startAt ? { start_at: o.startAt } : {}) });
      return { id: sub.id, status: sub.status };
    },
    async changePlanAtRenewal(subscriptionId, planId, interval) {
      // Razorpay makes total_count charges, then completes the subscription: one made annual (10)
      // switched to monthly would end the plan after nine months. Monthly from then on: ten years of
      // months left. (Never fewer: an annual count set on a monthly one, if Razorpay applied it before
      // the cycle's end and the change were undone, would end it after ten months.)
      await client.subscriptions.update(subscriptionId, { plan_id: planId, schedule_change_at: 'cycle_end', ...(interval === 'monthly' ? { remaining_count: totalCount('monthly') } : {}) });
    },
    async cancelScheduledChange(subscriptionId) {
      await client.subscriptions.cancelScheduledChanges(subscriptionId);
    },
    async cancelSubscription(subscriptionId, atCycleEnd) {
      await client.subscriptions.cancel(subscriptionId, atCycleEnd);
    },
    async subscriptionStatus(subscriptionId) {
      return String((await client.subscriptions.fetch(subscriptionId)).status);
    },
    async refundPayment(paymentId, amount, notes) {
      const refund = await client.payments.refund(paymentId, { amount, speed: 'normal', notes });
      return { id: refund.id, status: String(refund.status) };
    },
    async subscriptionState(subscriptionId) {
      const sub = await client.subscriptions.fetch(subscriptionId);
      const charges: RemoteCharge[] = [];
      // Razorpay lists invoices newest first, at most 100 a page; a subscription makes at most
      // totalCount(interval) charges, so a few pages hold them all.
      for (let skip = 0; skip < 200; skip += 100) {
        const page = await client.invoices.all({ subscription_id: subscriptionId, count: 100, skip } as Parameters<typeof client.invoices.all>[0]);
        for (const inv of page.items) {
          if (inv.status !== 'paid' || !inv.payment_id) continue;
          const i = inv as typeof inv & { billing_start?: number | null; billing_end?: number | null; paid_at?: number | null; amount_paid?: number | null };
          charges.push({
            invoiceId: inv.id,
            paymentId: inv.payment_id,
            amount: Number(i.amount_paid ?? inv.amount ?? 0),
            currency: String(inv.currency ?? ''),
            billingStart: i.billing_start ?? null,
            billingEnd: i.billing_end ?? null,
            paidAt: i.paid_at ?? null,
          });
        }
        if (page.items.length < 100) break;
      }
      charges.sort((a, b) => (a.billingStart ?? a.paidAt ?? 0) - (b.billingStart ?? b.paidAt ?? 0));
      return {
        subscription: { id: sub.id, plan_id: sub.plan_id, status: String(sub.status), current_start: sub.current_start ?? null, current_end: sub.current_end ?? null },
        charges,
      };
    },
    async refundsSince(fromUnix) {
      const out: Array<{ id: string; paymentId: string; amount: number }> = [];
      // Bounded: at most 10 pages of 100 a run; the next run's window overlaps this one.
      for (let skip = 0; skip < 1000; skip += 100) {
        const page = await client.refunds.all({ from: fromUnix, count: 100, skip });
        // A failed refund gave nothing back (refund.failed): not one to apply.
        for (const r of page.items) if (String(r.status) !== 'failed') out.push({ id: r.id, paymentId: r.payment_id, amount: Number(r.amount ?? 0) });
        if (page.items.length < 100) break;
      }
      return out;
    },
  };
}

function testGateway(authSecret: string): PaymentGateway {
  // Derived from the server's auth secret: stable across processes and restarts, never sent out.
  const secret = hmacHex(authSecret, 'mailvet:test-checkout:v1');
  const hook = hmacHex(authSecret, 'mailvet:test-checkout-webhooks:v1');
  const id = (prefix: string) => `${prefix}_test_${randomBytes(9).toString('base64url')}`;
  return {
    mode: 'test',
    keyId: TEST_KEY_ID,
    signingSecret: secret,
    webhookSecret: hook,
    async createPlan() {
      return { id: id('plan') };
    },
    async createSubscription() {
      return { id: id('sub'), status: 'created' };
    },
    async changePlanAtRenewal() {},
    async cancelScheduledChange() {},
    async cancelSubscription() {},
    async subscriptionStatus() {
      return 'cancelled'; // the test checkout keeps nothing running
    },
    async refundPayment() {
      return { id: id('rfnd'), status: 'processed' };
    },
    async subscriptionState() {
      return null;
    },
    async refundsSince() {
      return [];
    },
  };
}

/** Ids shaped like Razorpay's for the test checkout. */
export function testId(prefix: 'pay' | 'evt'): string {
  return `${prefix}_test_${randomBytes(9).toString('base64url')}`;
}
