// Regression: spec "Dashboard shell": "Header: title, the user's email, and a Sign Out button." At 375 px the email
// was hidden; it now shows (truncated) under the title, beside the Sign Out button.
import { expect, test } from '@playwright/test';
import { signUpAndVerify, uniqueEmail } from './helpers';

test("the dashboard header shows the signed-in user's email on a 375 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const email = uniqueEmail('rv-mhead');
  await signUpAndVerify(page, { email, name: 'Phone User' });
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })).toBeVisible();
  
  await expect(page.getByRole('banner').getByText(email)).toBeVisible();
  // Nothing in the header spills past the screen's edge.
  expect(await page.evaluate(() => document.querySelector('header')!.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: '/tmp/fix-ui/mobile-header.png' });
});
