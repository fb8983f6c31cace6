// The invitation link's sign-in page said 'Sign in or create an account with ann@… to accept.' and left
// both Email fields empty: the invitee had to retype the address the page had just named, and a typo
// made an account the invitation would not accept. The invited address now fills the Email field on
// both tabs (the visitor can still change it).
import { expect, test } from '@playwright/test';
import { followMailLink, newUserOn, SCREENSHOT_DIR, signOut, uniqueEmail } from './helpers';

test('the invitation link pre-fills the invited address on Sign In and Sign Up; the invitee only adds a name and password', async ({ page }) => {
  await newUserOn(page, '/dashboard/team', { tag: 'rv-prefill-owner', plan: 'pro' });
  const invitee = uniqueEmail('rv-prefill-invitee');
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite Team Member' });
  await invite.getByLabel('Email').fill(invitee);
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByText('Invitation Sent')).toBeVisible();
  await signOut(page);

  await followMailLink(page, invitee, "You're invited", /invitation=/);
  await expect(page.getByTestId('invitation-notice')).toContainText(`Sign in or create an account with ${invitee} to accept.`);
  await expect(page.locator('#signin-email')).toHaveValue(invitee);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.locator('#signup-email')).toHaveValue(invitee);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/auth-invitation-prefilled.png`, fullPage: true });
  await page.getByLabel('Full Name').fill('Ann Invitee');
  await page.getByLabel('Password').fill('secret123');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Check Your Email!')).toBeVisible();
  await followMailLink(page, invitee, 'Verify your email', /verify-email/);
  await page.waitForURL('**/dashboard/team**');
  await expect(page.getByText('Invitation Accepted')).toBeVisible();
});

test('a changed address is kept: the invited one does not come back when switching tabs', async ({ page }) => {
  await newUserOn(page, '/dashboard/team', { tag: 'rv-prefill-owner2', plan: 'pro' });
  const invitee = uniqueEmail('rv-prefill-invitee2');
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite Team Member' });
  await invite.getByLabel('Email').fill(invitee);
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByText('Invitation Sent')).toBeVisible();
  await signOut(page);

  await followMailLink(page, invitee, "You're invited", /invitation=/);
  await expect(page.locator('#signin-email')).toHaveValue(invitee);
  await page.locator('#signin-email').fill('');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.locator('#signup-email')).toHaveValue('');
});
