// Regression: History must list every job of the account (spec "History": a list of jobs; section 7: validation_jobs
// by account, newest first). It showed the newest 100 only; it now loads a page at a time with "Load more".
import { expect, test } from '@playwright/test';
import { withE2eDb } from './db';
import { newUserOn } from './helpers';

test('History lets the user reach the oldest of 101 jobs', async ({ page }) => {
  test.setTimeout(90_000);
  const email = await newUserOn(page, '/dashboard', { tag: 'rv-hist', plan: 'starter' });
  await withE2eDb(async (c) => {
    const { rows } = await c.query(`select a.id from account a join "user" u on u.id = a.owner_id where u.email = $1`, [email]);
    const accountId = rows[0].id as string;
    // 101 finished one-address jobs, one a minute apart: job-000.csv is the oldest.
    await c.query(
      `insert into validation_job (account_id, filename, status, total_emails, processed_emails, valid_count, created_at, updated_at, completed_at)
       select $1, 'job-' || lpad(i::text, 3, '0') || '.csv', 'completed', 1, 1, 1, now() - ((200 - i) || ' minutes')::interval, now(), now()
       from generate_series(0, 100) as i`,
      [accountId],
    );
  });
  await page.goto('/dashboard/history');
  await expect(page.getByTestId('job-filename').first()).toHaveText('job-100.csv');
  
  // Whatever the paging control, the oldest job must be reachable from the History screen.
  const oldest = page.getByTestId('job-filename').filter({ hasText: 'job-000.csv' });
  for (let i = 0; i < 5 && (await oldest.count()) === 0; i++) {
    const more = page.getByRole('button', { name: /^(Next|Load more|Show more|Older)/ });
    if ((await more.count()) === 0 || !(await more.first().isEnabled())) break;
    await more.first().click();
    await page.waitForTimeout(500);
  }
  await expect(oldest).toHaveCount(1);
  await expect(page.getByTestId('job-filename')).toHaveCount(101); // every job once, none twice
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await page.screenshot({ path: '/tmp/fix-ui/history-load-more.png' });
});
