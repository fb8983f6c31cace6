// When the account's plan cannot be loaded (a server error), a paying user is never told to upgrade
// and no button waits for ever: each plan-gated screen says the plan could not be loaded.
import { expect, test } from '@playwright/test';
import { upgradeTo } from '../fixtures/e2e/paid-plan';
import { failProcedure, SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

test('a Pro user whose plan fails to load is not offered an upgrade, and Billing does not say Loading… for ever', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page, { email: uniqueEmail('e2e-plan-unknown') });
  await upgradeTo(page, 'pro');
  await failProcedure(page, 'account.me');
  const failed = page.getByRole('alert').filter({ hasText: 'Could not load your plan.' });
  // The client retries a failed (5xx) load with a back-off of 1, 2 and 4 s before it gives up: the
  // page's clock jumps over those waits instead of the test sitting through them on each screen.
  await page.clock.install();
  const planFails = () =>
    expect(async () => {
      await page.clock.fastForward(4_000);
      await expect(failed).toBeVisible({ timeout: 250 });
    }).toPass({ intervals: [100], timeout: 30_000 });

  await page.goto('/dashboard/auto-revalidation');
  await planFails();
  await expect(page.getByText('Auto revalidation is available on the Pro, Business and Enterprise plans')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New Schedule' })).toBeDisabled();

  await page.goto('/dashboard/api-keys');
  await planFails();

  await page.goto('/dashboard/integrations');
  await planFails();

  await page.goto('/dashboard/analytics');
  await planFails();
  await expect(page.getByText('Analytics are part of the Pro plan')).toHaveCount(0);

  await page.goto('/dashboard/billing');
  await planFails();
  await expect(page.getByRole('button', { name: 'Loading…' })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-plan-load-failed.png`, fullPage: true });

  // The server answers again: Try again brings the screen back.
  await page.unroute('**/api/trpc/*account.me*');
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('current-plan')).toContainText('Pro');
  await expect(failed).toHaveCount(0);
});
