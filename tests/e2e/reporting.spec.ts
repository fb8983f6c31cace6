import { expect, test } from '@playwright/test';
import { upgradeTo } from '../fixtures/e2e/paid-plan';
import { withE2eDb } from './db';
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

test.describe('in India', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });
  test('Analytics counts the browser’s days (as Overview’s chart does): 23:30 UTC is the next day in Kolkata', async ({ page }) => {
    const email = uniqueEmail('e2e-report-tz');
    await signUpAndVerify(page, { email });
    await upgradeTo(page, 'pro');
    await check(page, 'alice@normal.mailworld.test');
    const now = new Date();
    const late = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 5, 23, 30));
    await withE2eDb((c) => c.query(`update validation_result set checked_at = $1 where account_id = (select a.id from account a join "user" u on u.id = a.owner_id where u.email = $2)`, [late, email]));
    const label = (d: Date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
    const kolkataDay = new Date(late.getTime() + 86_400_000);
    await page.goto('/dashboard/analytics');
    await expect(page.getByTestId('total-total')).toHaveText('1');
    await expect(page.locator(`[title^="${label(kolkataDay)}: 1 valid"]`)).toHaveCount(1);
    await expect(page.locator(`[title^="${label(late)}: 1 valid"]`)).toHaveCount(0);
  });
});
