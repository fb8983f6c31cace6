// A schedule paused because the team member who created it left (server: pauseSchedulesOfLeavingUser)
// says so on its card, where the owner and admins look for it; switched back on, the note goes.
import { expect, test } from '@playwright/test';
import { newUserOn, openDialog } from './helpers';
import { withE2eDb } from './db';

test('a schedule paused because its creator left says why, until it is switched on again', async ({ page }) => {
  await newUserOn(page, '/dashboard/auto-revalidation', { tag: 'e2e-sched-left', plan: 'pro' });
  const dialog = await openDialog(page, 'New Schedule');
  await dialog.getByLabel('Name').fill('Departed admin’s list');
  await dialog.getByLabel('Email addresses').fill('a@normal.mailworld.test\nb@normal.mailworld.test');
  await dialog.getByRole('button', { name: 'Create Schedule' }).click();
  const card = page.getByTestId('schedule-card').filter({ hasText: 'Departed admin’s list' });
  await expect(card.getByTestId('schedule-status')).toHaveText('Active');

  // As the team removal leaves it (the creator was an admin who is gone): paused, with its reason.
  await withE2eDb((c) => c.query("update schedule set is_active = false, paused_reason = 'creator_left' where name = $1", ['Departed admin’s list']));
  await page.reload();
  await expect(card.getByTestId('schedule-status')).toHaveText('Inactive');
  await expect(card.getByTestId('schedule-paused-reason')).toHaveText('Paused because the team member who created it left the team. Switch it on to keep it running for this account.');
  await card.screenshot({ path: '/tmp/leftover20/schedule-creator-left.png' });

  await card.getByRole('switch', { name: 'Active: Departed admin’s list' }).click();
  await expect(card.getByTestId('schedule-status')).toHaveText('Active');
  await expect(card.getByTestId('schedule-paused-reason')).toHaveCount(0);
});
