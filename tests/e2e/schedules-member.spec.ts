// Regression: a member (not owner/admin) of a Pro account must not be offered schedule controls they may not use;
// the empty state offered "Create your first schedule" although the page hides New Schedule.
import { expect, test } from '@playwright/test';
import { upgradeTo } from '../fixtures/e2e/paid-plan';
import { followMailLink, inviteFromTeam, signUpAndVerify, submitSignUp, uniqueEmail } from './helpers';

test('a member of a Pro account with no schedules is not offered "Create your first schedule"', async ({ page }) => {
  test.setTimeout(120_000);
  const ownerEmail = uniqueEmail('rv-sched-owner');
  const memberEmail = uniqueEmail('rv-sched-member');
  await signUpAndVerify(page, { email: ownerEmail, name: 'Owen Owner' });
  await upgradeTo(page, 'pro');
  await page.goto('/dashboard/team');
  await inviteFromTeam(page, memberEmail);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((u) => u.pathname === '/' || u.pathname === '/auth');

  await followMailLink(page, memberEmail, "You're invited", /invitation=/);
  await page.waitForURL(/\/auth\?invitation=/);
  await submitSignUp(page, { name: 'Mia Member', email: memberEmail });
  await expect(page.getByText('Check Your Email!')).toBeVisible();
  await followMailLink(page, memberEmail, 'Verify your email', /verify-email/);
  await page.waitForURL('**/dashboard/team**');
  await expect(page.getByText('Invitation Accepted')).toBeVisible();

  await page.goto('/dashboard/auto-revalidation');
  // The page itself knows the member cannot change schedules…
  await expect(page.getByTestId('schedules-read-only')).toHaveText('Only the account owner or an admin can change schedules.');
  await expect(page.getByRole('button', { name: 'New Schedule' })).toHaveCount(0);
  await expect(page.getByTestId('schedules-empty')).toBeVisible();
  await page.screenshot({ path: '/tmp/fix-ui/member-schedules-empty.png', fullPage: true });
  // …so the empty state must not offer to create one either (spec 6: only owner/admin manage).
  await expect(page.getByTestId('schedules-empty').getByRole('button', { name: 'Create your first schedule' })).toHaveCount(0);
});
