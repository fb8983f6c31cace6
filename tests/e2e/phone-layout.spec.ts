// Every dashboard page of an account with data (a payment, a finished job) fits a 375 and a 320 px phone: wide
// tables scroll inside their cards, the page itself never scrolls sideways.
import { expect, test, type Page } from '@playwright/test';
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
  // 375 px (most phones) and 320 px (the narrowest still sold, and 1280 px zoomed to 400%), each in a
  // tab of its own at once (the same session): every page loaded afresh at each width.
  const atWidth = async (tab: Page, width: number) => {
    await tab.setViewportSize({ width, height: 800 });
    for (const p of PAGES) {
      await tab.goto(`/dashboard${p}`);
      await tab.waitForLoadState('networkidle');
      if (p === '/billing') await expect(tab.getByTestId('payments').getByRole('row')).toHaveCount(2);
      const overflow = await tab.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 1) {
        wide.push(`${width}px /dashboard${p} (${overflow}px)`);
        await tab.screenshot({ path: `${SCREENSHOT_DIR}/phone-${width}${p.replace('/', '-') || '-overview'}.png`, fullPage: true });
      }
    }
  };
  const narrow = await page.context().newPage();
  await Promise.all([atWidth(page, 375), atWidth(narrow, 320)]);
  await narrow.close();
  expect(wide, 'pages that scroll sideways on a phone').toEqual([]);
});
