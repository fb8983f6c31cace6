// The dashboard-wide banner of a failed renewal named the grace end's UTC day without saying so
// ("Everything keeps working until January 15, 2027"): in California that grace ends on the evening
// of January 14. It now says the day is UTC, as the Billing page, the mails and receipts do.
import { expect, test } from '@playwright/test';
import { signUpAndVerify, uniqueEmail } from './helpers';

test.use({ timezoneId: 'America/Los_Angeles' });

test('the past-due banner labels its UTC grace end', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-banner-utc') });
  await page.route(/\/api\/trpc\/[^?]*billing\.overview/, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as Array<{ result?: { data?: Record<string, unknown> } }>;
    for (const item of body) if (item.result?.data) Object.assign(item.result.data, { status: 'past_due', paused: false, graceEndsAt: '2027-01-15T02:00:00.000Z' });
    await route.fulfill({ response: res, json: body });
  });
  await page.goto('/dashboard');
  await expect(page.getByTestId('billing-state-banner')).toContainText('Your last payment failed. Everything keeps working until January 15, 2027 (UTC); after that the account is suspended until it is paid.');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
