// Razorpay behind a tiny interface: order creation through the official SDK, and the payment
// signature check (HMAC-SHA256, hex, over `order_id|payment_id`) compared in constant time.
// Without keys (outside production) the same interface is served by a local test checkout whose
// secret never leaves the server, so the test flow goes through the very same verification.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import Razorpay from 'razorpay';
import type { Env } from '../../env';

export type PaymentMode = 'razorpay' | 'test';

export interface CreatedOrder {
  id: string;
  amount: number;
  currency: string;
}

export interface PaymentGateway {
  mode: PaymentMode;
  /** The public key id the browser's checkout needs (a placeholder in test mode). */
  keyId: string;
  createOrder(o: { amount: number; currency: 'USD' | 'INR'; receipt: string; notes: Record<string, string> }): Promise<CreatedOrder>;
  /** The secret payment signatures of this gateway's orders are made with. */
  signingSecret: string;
}

/** HMAC-SHA256 hex of `order_id|payment_id` (Razorpay's checkout signature). */
export function paymentSignature(orderId: string, paymentId: string, secret: string): string {
  return createHmac('sha256', secret).update(`${orderId}|${paymentId}`).digest('hex');
}

/** True when `signature` is the right one; constant-time, and false for any malformed input. */
export function isValidPaymentSignature(o: { orderId: string; paymentId: string; signature: string; secret: string }): boolean {
  if (!/^[0-9a-f]{64}$/i.test(o.signature)) return false;
  const expected = Buffer.from(paymentSignature(o.orderId, o.paymentId, o.secret), 'hex');
  const given = Buffer.from(o.signature, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const TEST_KEY_ID = 'rzp_test_mailvet_local';

/** The Razorpay gateway (keys set), the local test gateway (no keys, not production), or null (payments unavailable). */
export function paymentGateway(env: Env, authSecret: string): PaymentGateway | null {
  if (env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET) return razorpayGateway(env.RAZORPAY_KEY_ID, env.RAZORPAY_KEY_SECRET, env.RAZORPAY_BASE_URL);
  if (!env.DEV_TOOLS) return null; // the test checkout exists only where developer tools are switched on
  return testGateway(authSecret);
}

const clients = new Map<string, Razorpay>();

function razorpayGateway(keyId: string, keySecret: string, baseURL: string): PaymentGateway {
  const cacheKey = `${keyId}\u0000${keySecret}\u0000${baseURL}`;
  let rzp = clients.get(cacheKey);
  if (!rzp) {
    rzp = new Razorpay({ key_id: keyId, key_secret: keySecret });
    // The SDK has no base-URL option; its axios instance is public (STACK.md section 11).
    (rzp as unknown as { api: { rq: { defaults: { baseURL: string; timeout: number } } } }).api.rq.defaults.baseURL = baseURL.replace(/\/$/, '');
    (rzp as unknown as { api: { rq: { defaults: { timeout: number } } } }).api.rq.defaults.timeout = 15_000;
    clients.set(cacheKey, rzp);
  }
  const client = rzp;
  return {
    mode: 'razorpay',
    keyId,
    signingSecret: keySecret,
    async createOrder(o) {
      const order = await client.orders.create({ amount: o.amount, currency: o.currency, receipt: o.receipt, notes: o.notes });
      return { id: order.id, amount: Number(order.amount), currency: order.currency };
    },
  };
}

function testGateway(authSecret: string): PaymentGateway {
  // Derived from the server's auth secret: stable across processes and restarts, never sent out.
  const secret = createHmac('sha256', authSecret).update('mailvet:test-checkout:v1').digest('hex');
  return {
    mode: 'test',
    keyId: TEST_KEY_ID,
    signingSecret: secret,
    async createOrder(o) {
      return { id: `order_test_${randomBytes(9).toString('base64url')}`, amount: o.amount, currency: o.currency };
    },
  };
}

/** A payment id for the test checkout (shaped like Razorpay's `pay_…`). */
export function testPaymentId(): string {
  return `pay_test_${randomBytes(9).toString('base64url')}`;
}
