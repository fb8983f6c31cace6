// Every dashboard page of an account with data (a payment, a finished job) fits a 375 and a 320 px phone: wide
// tables scroll inside their cards, the page itself never scrolls sideways.
import { expect, test } from '@playwright/test';
import { fixture } from '../fixtures/e2e/paid-plan';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

const PAGES = ['', '/validate', '/bulk', '/auto-revalidation', '/history', '/api-keys', '/team', '/integrations', '/billing', '/analytics', '/documentation', '/settings'];

test('on a 375 or 320 px phone no dashboard page of a paying account with a job scrolls sideways', async ({ page }) => {
  test.setTimeout(120_000);
  await newUserOn(page, '/dashboard/bulk', { tag: 'e2e-phone', plan: 'business' });
  await page.getByLabel('CSV file').setInputFiles(fixture('contacts.csv'));
  await page.getByRole('button', { name: 'Upload and Validate' }).click();
  await page.waitForURL('**/dashboard/history');
  const wide: string[] = [];
  // 375 px (most phones) and 320 px (the narrowest still sold, and 1280 px zoomed to 400%).
  for (const width of [375, 320]) {
    await page.setViewportSize({ width, height: 800 });
    for (const p of PAGES) {
      await page.goto(`/dashboard${p}`);
      await page.waitForLoadState('networkidle');
      if (p === '/billing') await expect(page.getByTestId('payments').getByRole('row')).toHaveCount(2);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 1) {
        wide.push(`${width}px /dashboard${p} (${overflow}px)`);
        await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-${width}${p.replace('/', '-') || '-overview'}.png`, fullPage: true });
      }
    }
  }
  expect(wide, 'pages that scroll sideways on a phone').toEqual([]);
});
