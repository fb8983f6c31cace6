// Overview's Current Plan card: Free's 500 validations are granted once (spec: "Every new account
// starts with 500 free validations"; the plans table gives Free "500 validations", not a monthly
// volume), so the card must not promise them "/ month"; paid plans are monthly.
import { expect, test } from '@playwright/test';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

test("Free's Current Plan card says its 500 validations are one-time, not '/ month'", async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'e2e-overview-free' });
  const card = page.getByTestId('stat-plan');
  await expect(card).toContainText('Free');
  await expect(card).toContainText('500 validations, one-time');
  await expect(card).not.toContainText('/ month');
  await page.setViewportSize({ width: 390, height: 844 });
  await card.screenshot({ path: `${SCREENSHOT_DIR}/overview-free-plan-card.png` });
});
