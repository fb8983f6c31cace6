// Integrations on a slow connection: until the plan is known the cards are greyed out and their
// buttons disabled, and nothing said why (the upgrade banner waits for the plan). The page now says
// it is checking the plan, then shows the banner.
import { expect, test } from '@playwright/test';
import { newUserOn } from './helpers';

test('Integrations says it is checking the plan while its cards wait for it, then why they are locked', async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv-integrations-slow', plan: 'pro' });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/api\/trpc\/[^?]*account\.me/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/dashboard/integrations');
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
  await expect(page.getByLabel('Webhook URL')).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: 'Checking your plan…' })).toBeVisible();

  release();
  await expect(page.getByTestId('integrations-upgrade')).toContainText("You're on the Pro plan.");
  await expect(page.getByText('Checking your plan…')).toHaveCount(0);
  await expect(page.getByLabel('Webhook URL')).toBeDisabled();
});
