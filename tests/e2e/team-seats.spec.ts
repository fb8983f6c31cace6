// A team larger than its plan (the plan fell: a refund, a cancelled period's end): the member past
// the team size is told on every dashboard page why they are in their own account, and the owner's
// Team page marks them "No seat", and its API Keys page says the member's keys are refused.
import { expect, test } from '@playwright/test';
import { withE2eDb } from './db';
import { SCREENSHOT_DIR, newUserOn } from './helpers';

test('a member without a seat sees why on the dashboard; the owner sees "No seat" on the Team page', async ({ browser }) => {
  test.setTimeout(90_000);
  const ownerPage = await (await browser.newContext()).newPage();
  const memberPage = await (await browser.newContext()).newPage();
  const ownerEmail = await newUserOn(ownerPage, '/dashboard', { tag: 'e2e-seat-owner', name: 'Olive Owner' });
  const memberEmail = await newUserOn(memberPage, '/dashboard', { tag: 'e2e-seat-member', name: 'Sam Seatless' });
  // The member joined while the team was on Pro; the plan has since fallen to Starter (1 seat: the owner's).
  await withE2eDb(async (c) => {
    const { rows } = await c.query(`select a.id, u2.id as member_id from account a join "user" u on u.id = a.owner_id, "user" u2 where u.email = $1 and u2.email = $2`, [ownerEmail, memberEmail]);
    await c.query(`insert into member (id, "organizationId", "userId", role, "createdAt") values ($1, $2, $3, 'member', now())`, [`m-${Date.now()}`, rows[0].id, rows[0].member_id]);
    await c.query(`update account set plan = 'starter', team_member_limit = 1 where id = $1`, [rows[0].id]);
    // A key the member created while they had a seat.
    await c.query(`insert into api_key (account_id, created_by, name, key_prefix, key_hash) values ($1, $2, 'Sam''s CRM sync', 'mv_live_Sam1', $3)`, [rows[0].id, rows[0].member_id, `e2e-seat-${Date.now()}`]);
  });

  await memberPage.goto('/dashboard');
  await expect(memberPage.getByTestId('seat-banner')).toContainText(/You no longer have a seat in .+: its plan allows 1 team member\(s\) total, so you are working in your own account\./);
  await memberPage.goto('/dashboard/history');
  await expect(memberPage.getByTestId('seat-banner')).toBeVisible();

  await ownerPage.goto('/dashboard/team');
  const row = ownerPage.getByTestId('member-row').filter({ hasText: memberEmail });
  await expect(row.getByText('No seat')).toBeVisible();
  await expect(ownerPage.getByTestId('member-row').filter({ hasText: ownerEmail }).getByText('No seat')).toHaveCount(0);
  await expect(ownerPage.getByTestId('seat-banner')).toHaveCount(0);

  await ownerPage.goto('/dashboard/api-keys');
  const key = ownerPage.getByTestId('api-key-row').filter({ hasText: "Sam's CRM sync" });
  await expect(key.getByText('Active')).toBeVisible();
  await expect(key.getByTestId('api-key-seatless')).toHaveText('Refused until its creator has a seat in this team');
  await ownerPage.screenshot({ path: `${SCREENSHOT_DIR}/api-keys-seatless-creator.png`, fullPage: true });

  // The member, who cannot open the team, leaves it from the banner.
  const banner = memberPage.getByTestId('seat-banner');
  await banner.getByRole('button', { name: /^Leave / }).click();
  const confirm = memberPage.getByRole('dialog', { name: 'Leave this team?' });
  await expect(confirm).toContainText('You will no longer be a member of');
  await confirm.getByRole('button', { name: 'Leave Team' }).click();
  await expect(memberPage.getByText(/You are no longer a member of /)).toBeVisible();
  await expect(memberPage.getByTestId('seat-banner')).toHaveCount(0);
  await ownerPage.goto('/dashboard/team');
  await expect(ownerPage.getByTestId('member-row')).toHaveCount(1);
  // Leaving revokes the keys they made there.
  await ownerPage.goto('/dashboard/api-keys');
  await expect(ownerPage.getByTestId('api-key-row').filter({ hasText: "Sam's CRM sync" }).getByText('Revoked')).toBeVisible();
});
