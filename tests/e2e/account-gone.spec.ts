// A signed-in user whose account was deleted sees "Your account was deleted" (never a fresh 500
// free validations); "Start a paid plan" opens a new, empty Free account on the Billing screen.
import { expect, test } from '@playwright/test';
import { withE2eDb } from './db';
import { SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

test('a user whose account is gone gets the deleted screen, then a new empty account to pay from', async ({ page }) => {
  const email = uniqueEmail('e2e-gone');
  await signUpAndVerify(page, { email });
  await expect(page.getByText('Credits Balance')).toBeVisible();
  await withE2eDb(async (c) => {
    await c.query(`delete from organization where id in (select m."organizationId" from member m join "user" u on u.id = m."userId" where u.email = $1)`, [email]);
  });
  await page.goto('/dashboard');
  const card = page.getByRole('alert').filter({ hasText: 'Your account was deleted' });
  await expect(card).toBeVisible();
  await expect(card).toContainText(`You are signed in as ${email}`);
  await expect(card.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', /^mailto:support@mailvet\.io/);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/account-deleted.png`, fullPage: true });

  await card.getByRole('button', { name: 'Start a paid plan' }).click();
  await page.waitForURL('**/dashboard/billing');
  await page.goto('/dashboard');
  await expect(page.getByText('Credits Balance')).toBeVisible();
  const credits = await withE2eDb(async (c) => (await c.query(`select a.credits_balance from account a join "user" u on u.id = a.owner_id where u.email = $1`, [email])).rows);
  expect(credits).toEqual([{ credits_balance: 0 }]);
});
