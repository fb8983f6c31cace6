// A user in two accounts (their own Pro account and a Business team they joined) switches from the
// header's account menu, by keyboard, back to their own: Billing then shows their own plan.
import { expect, test } from '@playwright/test';
import { withE2eDb } from './db';
import { SCREENSHOT_DIR, expectIsolated, newUserOn } from './helpers';

/**
 * The second user joins the first one's account as `role` (as accepting an invitation would), each
 * account named: the team becomes the second user's working account. The two accounts' ids.
 */
function joinTeam(o: { teamEmail: string; userEmail: string; teamName: string; ownName: string; role: 'member' | 'admin' }): Promise<{ team_id: string; own_id: string }> {
  return withE2eDb(async (c) => {
    const { rows } = await c.query(`select a.id as team_id, pa.id as own_id, u2.id as user_id from account a join "user" u on u.id = a.owner_id, account pa join "user" u2 on u2.id = pa.owner_id where u.email = $1 and u2.email = $2`, [o.teamEmail, o.userEmail]);
    await c.query(`update organization set name = $2 where id = $1`, [rows[0].team_id, o.teamName]);
    await c.query(`update organization set name = $2 where id = $1`, [rows[0].own_id, o.ownName]);
    await c.query(`insert into member (id, "organizationId", "userId", role, "createdAt") values ($1, $2, $3, $4, now())`, [`m-${Date.now()}`, rows[0].team_id, rows[0].user_id, o.role]);
    return rows[0] as { team_id: string; own_id: string };
  });
}

test('an owner who joined another team switches back to their own account from the header menu', async ({ browser }) => {
  test.setTimeout(90_000);
  const teamPage = await (await browser.newContext()).newPage();
  const page = await (await browser.newContext()).newPage();
  const teamEmail = await newUserOn(teamPage, '/dashboard', { tag: 'e2e-switch-team', plan: 'business', name: 'Tara Team' });
  const payerEmail = await newUserOn(page, '/dashboard', { tag: 'e2e-switch-payer', plan: 'pro', name: 'Pat Payer' });
  await teamPage.close();

  // With one account there is no menu.
  await page.goto('/dashboard/billing');
  await expect(page.getByTestId('current-plan')).toContainText('Pro');
  await expect(page.getByTestId('account-switcher')).toHaveCount(0);

  // The payer joins the team (as accepting an invitation would): the team becomes the working account.
  await joinTeam({ teamEmail, userEmail: payerEmail, teamName: "Tara's Team", ownName: "Pat's Company", role: 'member' });
  await page.goto('/dashboard/billing');
  await expect(page.getByTestId('current-plan')).toContainText('Business');
  const menu = page.getByTestId('account-switcher');
  await expect(menu).toHaveText("Tara's Team");
  await expectIsolated(menu, "Tara's Team");

  // Keyboard: focus the menu, open it, move to the own account, choose it.
  await menu.focus();
  await page.keyboard.press('Enter');
  const items = page.getByRole('menuitem');
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: "Tara's Team" })).toContainText('Active');
  await expect(items.filter({ hasText: "Pat's Company" })).toContainText('Owner');
  await expectIsolated(items.filter({ hasText: "Pat's Company" }), "Pat's Company");
  await expect(items.filter({ hasText: "Tara's Team" })).toContainText('Member');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/account-switcher-open.png` });
  await page.keyboard.press('Home');
  await expect(items.filter({ hasText: "Pat's Company" })).toHaveAttribute('data-focus', '');
  await page.keyboard.press('Enter');

  await expect(page.getByText("Switched to Pat's Company")).toBeVisible();
  await expectIsolated(page.getByText("Switched to Pat's Company"), "Pat's Company");
  await expect(menu).toHaveText("Pat's Company");
  await expect(page.getByTestId('current-plan')).toContainText('Pro');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/account-switcher-switched.png` });

  // It stays switched on reload (the session's active account).
  await page.reload();
  await expect(page.getByTestId('current-plan')).toContainText('Pro');
  await expect(page.getByTestId('account-switcher')).toHaveText("Pat's Company");
});

test('after a switch on History, jobs of the account switched to show up live, without a reload', async ({ browser }) => {
  test.setTimeout(90_000);
  const teamPage = await (await browser.newContext()).newPage();
  const page = await (await browser.newContext()).newPage();
  const teamEmail = await newUserOn(teamPage, '/dashboard', { tag: 'e2e-live-team', plan: 'business', name: 'Lia Team' });
  const userEmail = await newUserOn(page, '/dashboard', { tag: 'e2e-live-user', plan: 'pro', name: 'Uma User' });
  await teamPage.close();
  const ids = await joinTeam({ teamEmail, userEmail: userEmail, teamName: "Lia's Team", ownName: "Uma's Shop", role: 'member' });

  await page.goto('/dashboard/history');
  await expect(page.getByTestId('account-switcher')).toHaveText("Lia's Team");
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'live');
  await page.getByTestId('account-switcher').click();
  await page.getByRole('menuitem').filter({ hasText: "Uma's Shop" }).click();
  await expect(page.getByText("Switched to Uma's Shop")).toBeVisible();
  await page.waitForTimeout(1500); // the stream of the new account is open

  // A job of the account switched to (made elsewhere: the API, another tab) shows up on its own.
  await withE2eDb((c) => c.query(`insert into validation_job (account_id, filename, total_emails) values ($1, 'arrived-live.csv', 1)`, [ids.own_id]));
  await expect(page.getByTestId('job-filename').filter({ hasText: 'arrived-live.csv' })).toBeVisible({ timeout: 10_000 });
});

test('a change made in a second tab still showing the account switched away from is refused, and that tab then shows the account switched to', async ({ browser }) => {
  test.setTimeout(90_000);
  const teamPage = await (await browser.newContext()).newPage();
  const page = await (await browser.newContext()).newPage();
  const teamEmail = await newUserOn(teamPage, '/dashboard', { tag: 'e2e-tabs-team', plan: 'business', name: 'Tara Team' });
  const adminEmail = await newUserOn(page, '/dashboard', { tag: 'e2e-tabs-admin', plan: 'business', name: 'Ada Admin' });
  await teamPage.close();
  const ids = await joinTeam({ teamEmail, userEmail: adminEmail, teamName: "Tara's Team", ownName: "Ada's Company", role: 'admin' });

  // Tab A: the team's Team page.
  await page.goto('/dashboard/team');
  await expect(page.getByTestId('account-switcher')).toHaveText("Tara's Team");
  // Tab B (same browser, same session) switches to the admin's own company.
  const tabB = await page.context().newPage();
  await tabB.goto('/dashboard');
  await tabB.getByTestId('account-switcher').click();
  await tabB.getByRole('menuitem').filter({ hasText: "Ada's Company" }).click();
  await expect(tabB.getByText("Switched to Ada's Company")).toBeVisible();

  // Back in tab A, still showing Tara's Team, the admin invites a colleague to Tara's Team.
  const colleague = `e2e-tabs-colleague-${Date.now()}@example.com`;
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite Team Member' });
  await invite.getByLabel('Email').fill(colleague);
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByText('You switched to another account in another tab').first()).toBeVisible();
  // Not sent from Ada's Company (nor anywhere), and tab A now shows the account switched to.
  await expect(page.getByTestId('account-switcher')).toHaveText("Ada's Company");
  const sent = await withE2eDb(async (c) => (await c.query(`select "organizationId" from invitation where email = $1`, [colleague])).rows);
  expect(sent).toEqual([]);
  expect(ids.own_id).not.toBe(ids.team_id);
});

test('a member leaves a team from its Team page and is back in their own account', async ({ browser }) => {
  test.setTimeout(90_000);
  const teamPage = await (await browser.newContext()).newPage();
  const page = await (await browser.newContext()).newPage();
  const teamEmail = await newUserOn(teamPage, '/dashboard', { tag: 'e2e-leave-team', plan: 'business', name: 'Tara Team' });
  const memberEmail = await newUserOn(page, '/dashboard', { tag: 'e2e-leave-member', plan: 'pro', name: 'Max Member' });
  await teamPage.close();
  await joinTeam({ teamEmail, userEmail: memberEmail, teamName: "Tara's Team", ownName: "Max's Company", role: 'member' });

  await page.goto('/dashboard/team');
  await expect(page.getByTestId('account-switcher')).toHaveText("Tara's Team");
  await expect(page.getByTestId('member-row')).toHaveCount(2);
  await page.getByRole('button', { name: 'Leave Team' }).click();
  const confirm = page.getByRole('dialog', { name: 'Leave this team?' });
  await expect(confirm).toContainText('You will leave this account straight away');
  await confirm.getByRole('button', { name: 'Leave Team' }).click();
  await expect(page.getByText('You no longer have access to that account.')).toBeVisible();
  // Their own account, where they are the owner and the only member; the team is gone from the menu.
  await expect(page.getByTestId('member-row')).toHaveCount(1);
  await expect(page.getByTestId('member-row')).toContainText(memberEmail);
  await expect(page.getByTestId('account-switcher')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Invite Member' })).toBeVisible();
  const left = await withE2eDb(async (c) => (await c.query(`select count(*)::int as n from member m join "user" u on u.id = m."userId" where u.email = $1`, [memberEmail])).rows[0].n);
  expect(left).toBe(1);
});
