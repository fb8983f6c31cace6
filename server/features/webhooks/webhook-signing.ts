// Webhook signatures. Every delivery (every attempt) carries two:
//   X-Mailvet-Signature: sha256=<hex>  HMAC-SHA256(secret, raw body): the original header, unchanged
//     for receivers that verify it today. It covers neither a time nor the delivery id, so a captured
//     request verifies forever.
//   X-Mailvet-Timestamp: <unix seconds>  when this attempt was signed (each retry has its own), and
//   X-Mailvet-Signature-V2: t=<unix seconds>,v1=<hex>  HMAC-SHA256(secret, "<t>.<X-Mailvet-Delivery>.<raw body>"),
//     the Stripe/Svix-style scheme: a receiver recomputes it, compares in constant time, and refuses a
//     t more than WEBHOOK_TOLERANCE_SECONDS from its own clock (a replayed capture is stale) — and the
//     delivery id it de-duplicates on cannot be swapped. `t` equals X-Mailvet-Timestamp; later schemes
//     would add their own `v2=` part, and a receiver ignores parts it does not know.
// Which secret signs is webhook-secret.ts's business (each account's own, stored encrypted).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Mailvet-Signature';
export const SIGNATURE_V2_HEADER = 'X-Mailvet-Signature-V2';
export const TIMESTAMP_HEADER = 'X-Mailvet-Timestamp';
export const DELIVERY_HEADER = 'X-Mailvet-Delivery';
/** How far a receiver lets a signed timestamp be from its own clock: 5 minutes, either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** `sha256=<hex>` of HMAC-SHA256(secret, rawBody). */
export function signWebhookBody(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** What a receiver does (and what our tests do): recompute and compare in constant time. */
export function verifyWebhookSignature(secret: string, rawBody: string | Buffer, header: string | null | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(secret, rawBody));
  const received = Buffer.from(header);
  return expected.length === received.length && timingSafeEqual(expected, received);
}

/** The hex HMAC-SHA256(secret, "<timestamp>.<deliveryId>.<rawBody>") of the V2 header. */
function v2Digest(secret: string, timestamp: number, deliveryId: string, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.${deliveryId}.`).update(rawBody).digest('hex');
}

/** The X-Mailvet-Signature-V2 value: `t=<timestamp>,v1=<hex>`. `timestamp` is unix seconds. */
export function signWebhookV2(secret: string, o: { timestamp: number; deliveryId: string; rawBody: string | Buffer }): string {
  return `t=${o.timestamp},v1=${v2Digest(secret, o.timestamp, o.deliveryId, o.rawBody)}`;
}

/** Unix seconds now (what a delivery attempt signs). */
export function unixSeconds(nowMs: number = Date.now()): number {
  return Math.floor(nowMs / 1000);
}

/**
 * What a receiver does with the V2 header: take t and every v1 from it, refuse a t more than the
 * tolerance from `nowSeconds`, recompute over t, the delivery id and the raw body, and compare in
 * constant time (any one v1 may match).
 */
export function verifyWebhookV2(
  secret: string,
  o: { rawBody: string | Buffer; deliveryId: string | null | undefined; header: string | null | undefined; nowSeconds?: number; toleranceSeconds?: number },
): boolean {
  if (!o.header || !o.deliveryId) return false;
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of o.header.split(',')) {
    const eq = part.indexOf('=');
    const [k, v] = [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    if (k === 't' && /^\d{1,12}$/.test(v)) t = Number(v);
    else if (k === 'v1') v1.push(v);
  }
  if (t === null || v1.length === 0) return false;
  if (Math.abs((o.nowSeconds ?? unixSeconds()) - t) > (o.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(v2Digest(secret, t, o.deliveryId, o.rawBody));
  return v1.some((sig) => {
    const received = Buffer.from(sig);
    return received.length === expected.length && timingSafeEqual(received, expected);
  });
}
