// What a member (not owner or admin) is told. Overview's Getting Started asked every member to
// 'Generate an API key' and linked to API Keys, where a member reads 'An owner or admin of this
// account can create one.' (the step could never be done by them); the Team page described itself as
// '…and the invitations you've sent' to a member, who can send none and sees no invitations.
import { expect, test } from '@playwright/test';
import { upgradeTo } from '../fixtures/e2e/paid-plan';
import { followMailLink, inviteFromTeam, signUpAndVerify, submitSignUp, uniqueEmail } from './helpers';

test("a member's Overview and Team page speak of what a member can do", async ({ page }) => {
  test.setTimeout(120_000);
  const ownerEmail = uniqueEmail('rv-texts-owner');
  const memberEmail = uniqueEmail('rv-texts-member');
  await signUpAndVerify(page, { email: ownerEmail, name: 'Olga Owner' });
  await upgradeTo(page, 'pro');
  // The owner is still asked to generate a key, with the link.
  await page.goto('/dashboard');
  await expect(page.getByRole('link', { name: /Generate an API key/ })).toBeVisible();
  await page.goto('/dashboard/team');
  await expect(page.getByText("Everyone who can use this account, and the invitations you've sent.")).toBeVisible();
  await inviteFromTeam(page, memberEmail);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((u) => u.pathname === '/');

  await followMailLink(page, memberEmail, "You're invited", /invitation=/);
  await page.waitForURL(/\/auth\?invitation=/);
  await submitSignUp(page, { name: 'Mo Member', email: memberEmail });
  await expect(page.getByText('Check Your Email!')).toBeVisible();
  await followMailLink(page, memberEmail, 'Verify your email', /verify-email/);
  await page.waitForURL('**/dashboard/team**');
  await expect(page.getByText('Invitation Accepted')).toBeVisible();
  await expect(page.getByText('Everyone who can use this account.', { exact: true })).toBeVisible();
  await expect(page.getByText("the invitations you've sent")).toHaveCount(0);

  await page.goto('/dashboard');
  const checklist = page.getByRole('list', { name: 'Getting started checklist' });
  await expect(checklist).toContainText('Generate an API key');
  await expect(checklist).toContainText('An owner or admin of this account creates API keys.');
  await expect(checklist.getByRole('link', { name: /Generate an API key/ })).toHaveCount(0);

  // Integrations: the upgrade banner (spec) tells a member who can upgrade, and offers no plan change they cannot make.
  await page.goto('/dashboard/integrations');
  const banner = page.getByTestId('integrations-upgrade');
  await expect(banner).toContainText('Integrations are available on the Enterprise plan');
  await expect(banner).toContainText('Only the account owner can change the plan: ask them to upgrade to Enterprise');
  await expect(banner.getByRole('link', { name: 'View Plans' })).toHaveCount(0);
});
