// Regression: keyboard-only use of Bulk Upload. The CSV picker is a visually hidden <input type=file> inside the
// drop zone (a label); tabbing onto it showed no sign of focus. The drop zone now draws a focus ring while the
// input has keyboard focus.
import { expect, test } from '@playwright/test';
import { newUserOn } from './helpers';

test('tabbing onto the Bulk Upload CSV picker shows a visible focus indicator', async ({ page }) => {
  await newUserOn(page, '/dashboard/bulk', { tag: 'rv-bulk-kbd', plan: 'starter' });
  const picker = page.getByLabel('CSV file');
  await expect(picker).toBeAttached();
  const zone = page.locator('label', { has: picker });
  await page.mouse.move(0, 0);
  const before = await zone.screenshot({ animations: 'disabled' });
  // Keyboard only: Tab from the top of the page until the picker has focus.
  await page.locator('body').focus();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await picker.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(picker).toBeFocused();
  await page.waitForTimeout(250);
  const after = await zone.screenshot({ animations: 'disabled' });
  await page.screenshot({ path: '/tmp/fix-ui/bulk-focus.png' });
  expect(Buffer.compare(before, after), 'the focused picker looks exactly like the unfocused one').not.toBe(0);
});
