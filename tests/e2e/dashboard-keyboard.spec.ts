// Keyboard-only use of the dashboard: every page put the logo link, the eleven sidebar entries, the
// sidebar toggle and Sign Out before the page's own content, so reaching the Email field of Validate
// Email took fourteen Tab presses on every page (the public site has a 'Skip to content' link; the
// dashboard had none).
import { expect, test } from '@playwright/test';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

test("the dashboard's first Tab stop is 'Skip to content', which takes the keyboard to the page's own content", async ({ page }) => {
  await newUserOn(page, '/dashboard/validate', { tag: 'rv-kbd' });
  await page.reload();
  await expect(page.getByLabel('Email address')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/dashboard-skip-link.png` });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/validate$/);
  await page.keyboard.press('Tab');
  // The next stop is inside the page, not in the sidebar or the header.
  expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
  for (let i = 0; i < 5 && !(await page.getByLabel('Email address').evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email address')).toBeFocused();

  // On a phone too (the sidebar is a drawer there).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/team');
  await expect(page.getByRole('heading', { name: 'Team', level: 1 }).first()).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
});
