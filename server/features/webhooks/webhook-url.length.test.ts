// The 2,048-character limit on a webhook URL is on the URL we store and send, not on what was typed:
// the parser percent-encodes non-ASCII (an "ä" becomes six characters) and spaces, so a URL that
// passed the limit as typed could be stored at several times it, and every request line sent to it
// would be one that receivers refuse (414) for ever.
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, parseWebhookUrl, WEBHOOK_URL_MAX_LENGTH } from './webhook-url';

describe('the webhook URL length limit', () => {
  it('refuses a URL whose stored (percent-encoded) form is over the limit, with the limit in the message', async () => {
    const typed = `https://93.184.215.14/${'ä'.repeat(1000)}`;
    expect(typed.length).toBeLessThanOrEqual(WEBHOOK_URL_MAX_LENGTH);
    const r = await checkWebhookUrl(typed, { allowPrivate: false });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe(`webhook_url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.`);
    expect(parseWebhookUrl(`https://93.184.215.14/${' '.repeat(700)}x`, false).ok).toBe(false);
  });

  it('accepts a URL of exactly the limit once encoded, and stores it as sent', async () => {
    const base = 'https://93.184.215.14/';
    const exact = base + 'a'.repeat(WEBHOOK_URL_MAX_LENGTH - base.length);
    const r = await checkWebhookUrl(exact, { allowPrivate: false });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.url.toString()).toBe(exact);
  });
});
