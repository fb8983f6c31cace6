// Regression: Billing's "Request refund" and "Cancel subscription" acted on one click. Like every other
// action the user cannot take back (revoke key, remove member, cancel invitation), each now asks first,
// saying what will happen, and acts only on Confirm.
import { expect, test } from '@playwright/test';
import { newUserOn } from './helpers';

test('Request refund asks first, says the account moves to Free at once, and refunds only on confirm', async ({ page }) => {
  await newUserOn(page, '/dashboard/billing', { tag: 'rv-refund', plan: 'starter' });
  await expect(page.getByTestId('current-plan')).toHaveText(/^Starter/);
  const refund = page.getByRole('button', { name: 'Request refund' });
  await expect(refund).toBeEnabled();
  await refund.click();
  const dialog = page.getByRole('dialog', { name: 'Refund this payment?' });
  await expect(dialog).toContainText('moves from the Starter plan to the Free plan at once');
  await page.waitForTimeout(300);
  await page.screenshot({ path: '/tmp/fix-ui/billing-refund-confirm.png' });
  // Keeping the plan changes nothing.
  await dialog.getByRole('button', { name: 'Keep my plan' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('current-plan')).toHaveText(/^Starter/);

  await refund.click();
  await page.getByRole('dialog', { name: 'Refund this payment?' }).getByRole('button', { name: 'Refund and move to Free' }).click();
  await expect(page.getByText('Refund requested')).toBeVisible();
  await expect(page.getByTestId('current-plan')).toHaveText(/^Free/);
});

test('Cancel subscription asks first, says the plan runs to the end of the paid period, and cancels only on confirm', async ({ page }) => {
  await newUserOn(page, '/dashboard/billing', { tag: 'rv-cancel-sub', plan: 'starter' });
  await expect(page.getByTestId('renewal')).toContainText('Renews on');
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel your subscription?' });
  await expect(dialog).toContainText('the end of the period you paid for; then the account moves to the Free plan');
  await page.waitForTimeout(300);
  await page.screenshot({ path: '/tmp/fix-ui/billing-cancel-confirm.png' });
  await dialog.getByRole('button', { name: 'Keep subscription' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('renewal')).toContainText('Renews on');

  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await page.getByRole('dialog', { name: 'Cancel your subscription?' }).getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByText('Subscription cancelled')).toBeVisible();
  await expect(page.getByTestId('renewal')).toContainText('Cancelled — your plan ends on');
  await expect(page.getByTestId('current-plan')).toHaveText(/^Starter/);
});
