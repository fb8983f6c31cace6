import { expect, test } from '@playwright/test';
import { upgradeTo } from '../fixtures/e2e/paid-plan';
import { SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

async function check(page: import('@playwright/test').Page, email: string) {
  const res = await page.request.post('/api/trpc/validation.check', { data: { email }, headers: { 'content-type': 'application/json' } });
  expect(res.ok()).toBeTruthy();
}

test('Starter sees analytics locked with the way to upgrade', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-report-starter') });
  await upgradeTo(page, 'starter');
  await page.goto('/dashboard/analytics');
  await expect(page.getByTestId('plan-locked')).toContainText('Analytics are available on the Pro, Business and Enterprise plans.');
  await expect(page.getByRole('link', { name: 'View Plans' })).toBeVisible();
});

test('Business reporting: validations over time by result, reasons, filters by source and CSV export', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-report-biz') });
  await upgradeTo(page, 'business');
  await check(page, 'alice@normal.mailworld.test');
  await check(page, 'ghost@normal.mailworld.test');
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'View analytics' }).click();
  await expect(page).toHaveURL(/\/dashboard\/analytics$/);
  await expect(page.getByTestId('total-total')).toHaveText('2');
  await expect(page.getByTestId('total-valid')).toHaveText('1');
  await expect(page.getByTestId('top-reasons')).toBeVisible();
  await expect(page.getByTestId('credits-used')).toContainText('2');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/reporting.png`, fullPage: true });

  await page.getByLabel('Source').selectOption('api');
  await expect(page.getByTestId('total-total')).toHaveText('0');
  await page.getByLabel('Source').selectOption('dashboard');
  await expect(page.getByTestId('total-total')).toHaveText('2');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^mailvet-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}-dashboard\.csv$/);
});
