import { expect, test, type Page } from '@playwright/test';
import { pressAndSee, SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

/**
 * Enterprise is sold by the sales team, so no e2e account can buy it: for the unlocked view the
 * browser's account.me answer is rewritten to plan 'enterprise'. Save and Connect are local only,
 * so nothing server-side depends on the plan here.
 */
async function pretendEnterprise(page: Page) {
  await page.route(/\/api\/trpc\/[^?]*account\.me/, async (route) => {
    try {
      const res = await route.fetch();
      const body = (await res.json()) as Array<{ result?: { data?: { plan?: string } } }>;
      for (const item of body) if (item.result?.data?.plan) item.result.data.plan = 'enterprise';
      await route.fulfill({ response: res, json: body });
    } catch {
      // The page closed while this request was in flight (the test is over): nothing to rewrite.
    }
  });
}

test('non-enterprise users see disabled cards and the upgrade banner', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-integrations-free') });
  await page.goto('/dashboard/integrations');
  await expect(page.getByTestId('integrations-upgrade')).toContainText('Integrations are available on the Enterprise plan');
  await expect(page.getByTestId('integrations-upgrade').getByRole('link', { name: 'View Plans' })).toHaveAttribute('href', '/dashboard/billing');
  for (const title of ['Webhooks', 'Zapier', 'Custom API', 'More Coming Soon']) {
    await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
  }
  await expect(page.getByLabel('Webhook URL')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expect(page.getByLabel('Zapier API key')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Connect' })).toBeDisabled();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/integrations-locked.png`, fullPage: true });
});

test('on Enterprise, Save and Connect confirm locally and say that nothing is stored', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-integrations-ent') });
  await pretendEnterprise(page);
  await page.goto('/dashboard/integrations');
  await expect(page.getByLabel('Webhook URL')).toBeEnabled();
  await expect(page.getByTestId('integrations-upgrade')).toHaveCount(0);
  await expect(page.getByTestId('integration-webhooks')).toContainText('stores nothing');
  await expect(page.getByTestId('integration-webhooks')).toContainText('webhook_url');

  await pressAndSee(page, 'Save', 'Please enter a webhook URL');
  await page.getByLabel('Webhook URL').fill('https://hooks.example.com/mailvet');
  await pressAndSee(page, 'Save', 'Webhook Saved');

  await page.getByLabel('Zapier API key').fill('zap-123');
  await pressAndSee(page, 'Connect', 'Zapier Connected');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/integrations-enterprise.png`, fullPage: true });

  // Nothing was stored: a reload shows empty fields.
  await page.reload();
  await expect(page.getByLabel('Webhook URL')).toHaveValue('');
  // 'See the API docs' navigates inside the app: no full page load (which a marker on window would not survive).
  await page.evaluate(() => ((window as unknown as { __noReload?: boolean }).__noReload = true));
  await page.getByRole('link', { name: 'See the API docs' }).click();
  await expect(page).toHaveURL(/\/dashboard\/documentation$/);
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
