// Regression: dashboard shell (spec "Dashboard shell": each sidebar entry opens its route). A screen opened from a
// scrolled page kept the old scroll position, so its title and tabs were off-screen. Every page now opens at its
// top (one ScrollRestoration for the whole app), and Back returns to where the reader was.
import { expect, test } from '@playwright/test';
import { newUserOn } from './helpers';

test('a sidebar link followed from the bottom of Billing opens Documentation at its top', async ({ page }) => {
  await newUserOn(page, '/dashboard/billing', { tag: 'rv-scroll' });
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Documentation' }).click();
  await page.waitForURL('**/dashboard/documentation');
  await expect(page.getByRole('tab', { name: 'Quick Start' })).toBeAttached();
  await page.waitForTimeout(300);
  await page.screenshot({ path: '/tmp/fix-ui/dashboard-scroll.png' });
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.getByRole('tab', { name: 'Quick Start' })).toBeInViewport();
  // Back returns to Billing where the reader left it, not to its top.
  await page.goBack();
  await page.waitForURL('**/dashboard/billing');
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeAttached();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
});
