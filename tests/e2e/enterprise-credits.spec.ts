// Enterprise sells "unlimited or custom" volume: its balance is a stand-in number (UNLIMITED, less
// what was used), so every screen that shows credits says Unlimited, never 999,999,990.
import { expect, test } from '@playwright/test';
import { withE2eDb } from './db';
import { newUserOn } from './helpers';

test('an Enterprise account sees Unlimited credits on Overview, Validate Email, Bulk Upload and Billing', async ({ page }) => {
  const email = await newUserOn(page, '/dashboard', { tag: 'e2e-ent-credits' });
  // Enterprise is set by the operator (mailvet accounts set-plan); ten validations used already.
  await withE2eDb((c) =>
    c.query(
      `update account a set plan = 'enterprise', monthly_validations_quota = 1000000000, team_member_limit = 1000000000, credits_balance = 999999990, monthly_validations_used = 10
       from "user" u where u.id = a.owner_id and u.email = $1`,
      [email],
    ),
  );
  await page.goto('/dashboard');
  await expect(page.getByTestId('stat-plan')).toContainText('Enterprise');
  await expect(page.getByTestId('stat-credits')).toContainText('Unlimited');
  await expect(page.getByTestId('stat-credits')).not.toContainText('999');
  await page.goto('/dashboard/validate');
  await expect(page.getByTestId('credits-left')).toHaveText('Unlimited credits.');
  await page.goto('/dashboard/bulk');
  await expect(page.getByTestId('credits-available')).toHaveText('Unlimited');
  await page.goto('/dashboard/billing');
  await expect(page.getByTestId('credits-balance')).toContainText('Unlimited');
});
