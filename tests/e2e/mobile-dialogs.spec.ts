// Regression: on a 375 px phone (and a short desktop window) a dialog taller than the screen must still let the
// user reach its top (title, Close, first field). The shared Dialog bottom-aligned its panel inside the scrolling
// flex box, so what overflowed went above the scroll origin; it now uses Headless UI's scrollable-dialog pattern.
import { expect, test, type Page } from '@playwright/test';
import { newUserOn } from './helpers';

async function expectReachable(page: Page, dialogName: string, fieldLabel: string) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  const field = dialog.getByLabel(fieldLabel);
  await expect(field).toBeAttached();
  await page.waitForTimeout(400); // open transition
  // Try every way a phone user has to get to the top: scroll the dialog up, and let the browser scroll it into view.
  await page.mouse.move(page.viewportSize()!.width / 2, 300);
  await page.mouse.wheel(0, -3000);
  await field.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/fix-ui/dialog-${page.viewportSize()?.width}-${dialogName.replace(/\W+/g, '-')}.png` });
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeInViewport();
  await expect(field).toBeInViewport();
}

test('on a 375 px phone the Create API Key dialog can be scrolled to its title and Key Name field', async ({ page }) => {
  await newUserOn(page, '/dashboard/api-keys', { tag: 'rv-mdlg-key', plan: 'pro' });
  await page.setViewportSize({ width: 375, height: 667 });
  await page.getByRole('button', { name: 'Create API Key' }).click();
  await expectReachable(page, 'Create API Key', 'Key Name');
});

test('on a 375 px phone the New Schedule dialog can be scrolled to its title and Name field', async ({ page }) => {
  await newUserOn(page, '/dashboard/auto-revalidation', { tag: 'rv-mdlg-sched', plan: 'pro' });
  await page.setViewportSize({ width: 375, height: 667 });
  await page.getByRole('button', { name: 'New Schedule' }).click();
  await expectReachable(page, 'New Schedule', 'Name');
});

test('on a short desktop window the New Schedule dialog can be scrolled to its title and Name field', async ({ page }) => {
  await newUserOn(page, '/dashboard/auto-revalidation', { tag: 'rv-ddlg-sched', plan: 'pro' });
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.getByRole('button', { name: 'New Schedule' }).click();
  await expectReachable(page, 'New Schedule', 'Name');
});
