// The invitation link's sign-in page said 'Sign in or create an account with ann@… to accept.' and left
// both Email fields empty: the invitee had to retype the address the page had just named, and a typo
// made an account the invitation would not accept. The invited address now fills the Email field on
// both tabs (the visitor can still change it).
import { expect, test, type Page } from '@playwright/test';
import { followMailLink, inviteFromTeam, newUserOn, SCREENSHOT_DIR, signOut, uniqueEmail } from './helpers';

/** A new Pro owner invites a new address from Team, then signs out; returns the invited address. */
async function inviteThenSignOut(page: Page, ownerTag: string, inviteeTag: string): Promise<string> {
  await newUserOn(page, '/dashboard/team', { tag: ownerTag, plan: 'pro' });
  const invitee = uniqueEmail(inviteeTag);
  await inviteFromTeam(page, invitee);
  await signOut(page);
  return invitee;
}

test('the invitation link pre-fills the invited address on Sign In and Sign Up; the invitee only adds a name and password', async ({ page }) => {
  const invitee = await inviteThenSignOut(page, 'rv-prefill-owner', 'rv-prefill-invitee');

  await followMailLink(page, invitee, "You're invited", /invitation=/);
  await expect(page.getByTestId('invitation-notice')).toContainText(`Sign in or create an account with ${invitee} to accept.`);
  // How long the link works (48 hours), in the invitee's own time: not learnt only once it has stopped.
  const expiry = await page.evaluate(() => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(Date.now() + 48 * 3_600_000)));
  await expect(page.getByTestId('invitation-expiry')).toHaveText(new RegExp(`^The invitation expires on ${expiry.split(',').slice(0, 2).join(',')}`));
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
  const invitee = await inviteThenSignOut(page, 'rv-prefill-owner2', 'rv-prefill-invitee2');

  await followMailLink(page, invitee, "You're invited", /invitation=/);
  await expect(page.locator('#signin-email')).toHaveValue(invitee);
  await page.locator('#signin-email').fill('');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.locator('#signup-email')).toHaveValue('');
});
