// Webhook signatures: HMAC-SHA256 over the exact raw body, sent as `X-Mailvet-Signature: sha256=<hex>`.
// Which secret signs is webhook-secret.ts's business: an account's rotated secret (stored encrypted),
// or until its first rotation the legacy one derived here from the server secret and the account id.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Mailvet-Signature';

export function deriveWebhookSecret(serverSecret: string, accountId: string): string {
  const mac = createHmac('sha256', serverSecret).update(`mailvet:webhook-signing:v1:${accountId}`).digest('base64url');
  return `whsec_${mac}`;
}

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
