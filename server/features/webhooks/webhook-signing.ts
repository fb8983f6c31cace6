// Webhook signatures: HMAC-SHA256 over the exact raw body, sent as `X-Mailvet-Signature: sha256=<hex>`.
// Which secret signs is webhook-secret.ts's business (each account's own, stored encrypted).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Mailvet-Signature';

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
