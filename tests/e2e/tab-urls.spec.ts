// A screen's tabs are in its address (?tab=…): a reload keeps the tab, Back and Forward move between
// the tabs opened, and a tab can be linked to.
import { expect, test } from '@playwright/test';
import { signUpAndVerify, uniqueEmail } from './helpers';

test('Sign In / Sign Up: the tab is in the URL, survives a reload, and Back / Forward move between tabs', async ({ page }) => {
  await page.goto('/auth');
  const signIn = page.getByRole('tab', { name: 'Sign In' });
  const signUp = page.getByRole('tab', { name: 'Sign Up' });
  await expect(signIn).toHaveAttribute('aria-selected', 'true');
  await signUp.click();
  await expect(signUp).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/auth\?tab=signup$/);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(signIn).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await page.goForward();
  await expect(signUp).toHaveAttribute('aria-selected', 'true');
  // A link to the Sign Up tab opens it, other parameters kept.
  await page.goto('/auth?tab=signup&link=invalid');
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth\?link=invalid$/);
  await expect(page.getByTestId('verify-link-failed')).toBeVisible();
  // An unknown tab name opens the first tab.
  await page.goto('/auth?tab=nonsense');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
});

test('Team: Pending Invitations is in the URL, survives a reload, and Back returns to Team Members', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-tab-url-team') });
  await page.goto('/dashboard/team');
  const members = page.getByRole('tab', { name: /^Team Members/ });
  const pending = page.getByRole('tab', { name: /^Pending Invitations/ });
  await expect(members).toHaveAttribute('aria-selected', 'true');
  await pending.click();
  await expect(pending).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/dashboard\/team\?tab=invitations$/);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Pending Invitations (0)' })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/team$/);
  await expect(members).toHaveAttribute('aria-selected', 'true');
  await page.goForward();
  await expect(pending).toHaveAttribute('aria-selected', 'true');
  await page.goto('/dashboard/team?tab=invitations');
  await expect(page.getByRole('tab', { name: 'Pending Invitations (0)' })).toHaveAttribute('aria-selected', 'true');
});
