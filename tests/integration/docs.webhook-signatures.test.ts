// The Documentation page's sample webhook requests are real: signed with the example secret the page
// names, so a reader can check their receiver against them (with the clock set to the sample's
// timestamp). Made-up hex there verified under no secret at all, and a reader testing their
// constant-time compare against the page could only ever see it refuse.
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature, verifyWebhookV2 } from '../../server/features/webhooks/webhook-signing';
import { EXAMPLE_WEBHOOK_SECRET, scheduleRunPayload, webhookPayload } from '../../src/features/docs/examples';

/** A sample request as the page shows it: its headers, then the raw body after the blank line. */
function parse(request: string): { headers: Record<string, string>; body: string } {
  const cut = request.indexOf('\n\n');
  const headers: Record<string, string> = {};
  for (const line of request.slice(0, cut).split('\n').slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: request.slice(cut + 2) };
}

describe('the documented webhook requests', () => {
  it.each([
    ['job.completed', webhookPayload],
    ['schedule.run_completed', scheduleRunPayload],
  ])('%s verifies with the example secret, as the receivers on the page verify it', (event, request) => {
    const { headers, body } = parse(request);
    expect(headers['x-mailvet-event']).toBe(event);
    const t = Number(headers['x-mailvet-timestamp']);
    expect(headers['x-mailvet-signature-v2']).toMatch(new RegExp(`^t=${t},v1=[0-9a-f]{64}$`));
    expect(verifyWebhookV2(EXAMPLE_WEBHOOK_SECRET, { rawBody: body, deliveryId: headers['x-mailvet-delivery'], header: headers['x-mailvet-signature-v2'], nowSeconds: t })).toBe(true);
    expect(verifyWebhookSignature(EXAMPLE_WEBHOOK_SECRET, body, headers['x-mailvet-signature'])).toBe(true);
    // ... and, as the page says, not five minutes and a second later, nor under another secret.
    expect(verifyWebhookV2(EXAMPLE_WEBHOOK_SECRET, { rawBody: body, deliveryId: headers['x-mailvet-delivery'], header: headers['x-mailvet-signature-v2'], nowSeconds: t + 301 })).toBe(false);
    expect(verifyWebhookV2(`${EXAMPLE_WEBHOOK_SECRET}x`, { rawBody: body, deliveryId: headers['x-mailvet-delivery'], header: headers['x-mailvet-signature-v2'], nowSeconds: t })).toBe(false);
  });
});
