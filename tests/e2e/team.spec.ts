import { expect, test, type Page } from '@playwright/test';
import { expectIsolated, followMailLink, SCREENSHOT_DIR, signIn, signUpAndVerify, submitSignIn, submitSignUp, uniqueEmail } from './helpers';

/** Upgrades the signed-in owner through Billing's test checkout (no Razorpay keys in e2e). */
async function upgradeTo(page: Page, plan: 'Starter' | 'Pro' | 'Business') {
  await page.goto('/dashboard/billing');
  await page.getByRole('button', { name: `Upgrade to ${plan}` }).click();
  const checkout = page.getByRole('dialog', { name: 'Mailvet checkout' });
  await expect(checkout.getByText('Test mode — no real payment')).toBeVisible();
  await checkout.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
  await expect(page.getByText(`You've been upgraded to the ${plan} plan.`)).toBeVisible();
}

/** Lets dialog and toast transitions finish so screenshots show the settled screen. */
async function settle(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await page.waitForTimeout(200);
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByText('You have been successfully signed out.')).toBeVisible();
  // The dashboard guard (session gone → /auth) can win the race with sign-out's own navigation to /.
  await page.waitForURL((u) => u.pathname === '/' || u.pathname === '/auth');
}

test('owner invites within the plan limit, the invitee signs up from the link and joins; roles and removal', async ({ page }) => {
  const ownerEmail = uniqueEmail('e2e-team-owner');
  const inviteeEmail = uniqueEmail('e2e-team-invitee');
  await signUpAndVerify(page, { email: ownerEmail, name: 'Olivia Owner' });

  // Free plan: the Invite button explains the limit with the upgrade dialog.
  await page.goto('/dashboard/team');
  await expect(page.getByRole('tab', { name: 'Team Members (1)' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending Invitations (0)' })).toBeVisible();
  await expect(page.getByTestId('member-row')).toHaveCount(1);
  await expect(page.getByTestId('member-row').first()).toContainText(ownerEmail);
  await expect(page.getByTestId('member-row').first()).toContainText('Owner');
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const upgrade = page.getByRole('dialog', { name: 'Upgrade to add team members' });
  await expect(upgrade.getByText('Your current plan allows 1 team member(s) total')).toBeVisible();
  await settle(page);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/team-upgrade-dialog.png` });
  await upgrade.getByRole('button', { name: 'Not now' }).click();

  // Pro allows 2 members in total.
  await upgradeTo(page, 'Pro');
  await page.goto('/dashboard/team');
  await expect(page.getByTestId('seat-summary')).toContainText('1 of 2 seat(s) used on the Pro plan');
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite Team Member' });
  await expect(invite.getByLabel('Role')).toHaveValue('member');
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(invite.getByText('Please enter an email address')).toBeVisible();
  await invite.getByLabel('Email').fill(inviteeEmail);
  await settle(page);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/team-invite-dialog.png` });
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByText('Invitation Sent')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending Invitations (1)', selected: true })).toBeVisible();
  await expect(page.getByTestId('invitation-row')).toContainText(inviteeEmail);

  // Spec section 6: a pending invitation takes no seat (the member count, 1, is below 2), so the
  // Invite dialog still opens; the seat is taken when an invitation is accepted.
  await expect(page.getByTestId('seat-summary')).toContainText('1 of 2 seat(s) used on the Pro plan; 1 pending invitation(s)');
  await page.getByRole('button', { name: 'Invite Member' }).click();
  await expect(page.getByRole('dialog', { name: 'Invite Team Member' }).getByLabel('Email')).toBeVisible();
  await page.getByRole('dialog', { name: 'Invite Team Member' }).getByRole('button', { name: 'Cancel' }).click();

  // Cancel it (confirmation), then invite again.
  await page.getByRole('button', { name: `Cancel invitation to ${inviteeEmail}` }).click();
  const confirmCancel = page.getByRole('dialog', { name: 'Cancel invitation?' });
  await settle(page);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/team-cancel-confirm.png` });
  await confirmCancel.getByRole('button', { name: 'Cancel Invitation' }).click();
  await expect(page.getByText('Invitation Cancelled')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending Invitations (0)' })).toBeVisible();
  await page.getByRole('button', { name: 'Invite Member' }).click();
  await page.getByRole('dialog', { name: 'Invite Team Member' }).getByLabel('Email').fill(inviteeEmail);
  await page.getByRole('dialog', { name: 'Invite Team Member' }).getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByRole('tab', { name: 'Pending Invitations (1)' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await settle(page);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/team-pending.png`, fullPage: true });
  await signOut(page);

  // The invitee follows the mailed link, signs up, verifies and lands in the shared account.
  await followMailLink(page, inviteeEmail, "You're invited", /invitation=/);
  await page.waitForURL(/\/auth\?invitation=/);
  await expect(page.getByTestId('invitation-notice')).toContainText(`Sign in or create an account with ${inviteeEmail} to accept.`);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/team-auth-invitation.png`, fullPage: true });
  await submitSignUp(page, { name: 'Ivan Invitee', email: inviteeEmail });
  await expect(page.getByText('Check Your Email!')).toBeVisible();
  await followMailLink(page, inviteeEmail, 'Verify your email', /verify-email/);
  await page.waitForURL('**/dashboard/team**');
  await expect(page.getByText('Invitation Accepted')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Team Members (2)' })).toBeVisible();
  await expect(page.getByTestId('member-row')).toHaveCount(2);

  // A member sees the team but no Invite button, no Pending Invitations tab and no actions column.
  await expect(page.getByRole('button', { name: 'Invite Member' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: /Pending Invitations/ })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
  await expect(page.getByText('Error', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/team-member-view.png`, fullPage: true });
  // Their dashboard shows the shared account's plan.
  await page.goto('/dashboard/billing');
  await expect(page.getByTestId('current-plan')).toHaveText('Pro (monthly)');
  await signOut(page);

  // The owner removes the member; the owner row has no remove action.
  await signIn(page, ownerEmail);
  await page.goto('/dashboard/team');
  await expect(page.getByTestId('member-row')).toHaveCount(2);
  await expect(page.getByTestId('member-row').filter({ hasText: ownerEmail }).getByRole('button')).toHaveCount(0);
  await expectIsolated(page.getByTestId('member-row').filter({ hasText: ownerEmail }), 'Olivia Owner');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/team-members.png`, fullPage: true });
  // Two members fill the Pro plan: Invite now explains the limit.
  await page.getByRole('button', { name: 'Invite Member' }).click();
  await expect(page.getByRole('dialog', { name: 'Upgrade to add team members' }).getByText('Your current plan allows 2 team member(s) total')).toBeVisible();
  await page.getByRole('button', { name: 'Not now' }).click();
  await page.getByRole('button', { name: `Remove ${inviteeEmail}` }).click();
  const confirmRemove = page.getByRole('dialog', { name: 'Remove team member?' });
  await expect(confirmRemove).toContainText(inviteeEmail);
  await confirmRemove.getByRole('button', { name: 'Remove Member' }).click();
  await expect(page.getByText('Member Removed')).toBeVisible();
  await expect(page.getByTestId('member-row')).toHaveCount(1);
  await expect(page.getByRole('tab', { name: 'Team Members (1)' })).toBeVisible();
});

test('an existing user signs in from the invitation link and lands in the shared account as admin', async ({ page }) => {
  const ownerEmail = uniqueEmail('e2e-team-owner2');
  const existingEmail = uniqueEmail('e2e-team-existing');
  await signUpAndVerify(page, { email: existingEmail, name: 'Erin Existing' });
  await signOut(page);

  await signUpAndVerify(page, { email: ownerEmail, name: 'Oscar Owner' });
  await upgradeTo(page, 'Business');
  await page.goto('/dashboard/team');
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite Team Member' });
  await invite.getByLabel('Email').fill(existingEmail);
  await invite.getByLabel('Role').selectOption('admin');
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByTestId('invitation-row')).toContainText('Admin');
  await signOut(page);

  await followMailLink(page, existingEmail, "You're invited", /invitation=/);
  await expect(page.getByTestId('invitation-notice')).toContainText("Oscar Owner's account");
  await expect(page.getByTestId('invitation-notice')).toContainText('an Admin');
  await expectIsolated(page.getByTestId('invitation-notice'), "Oscar Owner's account");
  await submitSignIn(page, existingEmail);
  await page.waitForURL('**/dashboard/team**');
  await expect(page.getByText("You've joined Oscar Owner's account.")).toBeVisible();
  await expectIsolated(page.getByText("You've joined Oscar Owner's account."), "Oscar Owner's account");
  await expect(page.getByRole('tab', { name: 'Team Members (2)' })).toBeVisible();
  // An admin manages the team too: Invite button, Pending Invitations tab, actions column.
  await expect(page.getByRole('button', { name: 'Invite Member' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending Invitations (0)' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toBeVisible();
  await expect(page.getByTestId('member-row').filter({ hasText: ownerEmail }).getByRole('button')).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard\/team$/);
  await page.goto('/dashboard/billing');
  await expect(page.getByTestId('current-plan')).toHaveText('Business (monthly)');
  await expect(page.getByText('Only the account owner can change the plan.')).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-admin-view.png`, fullPage: true });
});
