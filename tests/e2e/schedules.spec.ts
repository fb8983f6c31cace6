import { expect, test, type Page } from '@playwright/test';
import { fixture, upgradeTo } from '../fixtures/e2e/paid-plan';
import { newUserOn, openDialog, passesOnPageClock, SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';
import { runCronTaskNow, withE2eDb } from './db';

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).first(); // newest first

test('below Pro, New Schedule opens the upgrade dialog', async ({ page }) => {
  await newUserOn(page, '/dashboard/auto-revalidation', { tag: 'e2e-sched-free', plan: 'starter' });
  await expect(page.getByTestId('upgrade-banner')).toContainText('Pro, Business and Enterprise');
  await expect(page.getByTestId('schedules-empty')).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/schedules-locked.png`, fullPage: true });
  await page.getByRole('button', { name: 'New Schedule' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Upgrade to Pro');
  await expect(dialog.getByLabel('Name')).toHaveCount(0);
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/schedules-upgrade-dialog.png` });
  await dialog.getByRole('link', { name: 'View Plans' }).click();
  await page.waitForURL('**/dashboard/billing');
});

test('on Pro a schedule is created (typed or from CSV), toggled and deleted', async ({ page }) => {
  await newUserOn(page, '/dashboard/auto-revalidation', { tag: 'e2e-sched-pro', plan: 'pro' });
  await expect(page.getByTestId('upgrade-banner')).toHaveCount(0);
  const dialog = await openDialog(page, 'New Schedule');
  await expect(dialog.getByLabel('Name')).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Weekly' })).toBeChecked();

  const create = dialog.getByRole('button', { name: 'Create Schedule' });
  await create.click();
  await expect(toast(page, 'Please enter a schedule name')).toBeVisible();
  await dialog.getByLabel('Name').fill('Newsletter subscribers');
  await create.click();
  await expect(toast(page, 'Please enter email addresses or upload a CSV file')).toBeVisible();
  await dialog.getByLabel('Email addresses').fill('not an address\n  \nstill-not-one');
  await create.click();
  await expect(toast(page, 'No valid email addresses found')).toBeVisible();

  // CSV loading and its messages.
  const csv = dialog.getByLabel('Load emails from CSV');
  await csv.setInputFiles(fixture('not-a-csv.txt'));
  await expect(toast(page, 'Please upload a CSV file')).toBeVisible();
  await csv.setInputFiles({ name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') });
  await expect(toast(page, 'Maximum file size is 10MB')).toBeVisible();
  await csv.setInputFiles(fixture('empty.csv'));
  await expect(toast(page, 'CSV file is empty')).toContainText('Error Parsing CSV');
  await csv.setInputFiles(fixture('no-email-column.csv'));
  await expect(toast(page, "CSV must contain an 'email' column")).toContainText('Error Parsing CSV');
  await csv.setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from('email\n"unterminated\n') });
  await expect(toast(page, 'the quote that starts a cell on line 2 is never closed')).toContainText('Error Parsing CSV');
  // Excel's "Unicode Text" (UTF-16 with a byte-order mark) and a Windows-1252 file read as Bulk
  // Upload reads them: the dialog hands the server the file's bytes, not the browser's UTF-8 reading.
  await csv.setInputFiles({ name: 'excel-unicode.csv', mimeType: 'text/csv', buffer: Buffer.from('\uFEFFName\tEmail\r\nZoë\tzoe@normal.mailworld.test\r\nBo\tbo@normal.mailworld.test\r\n', 'utf16le') });
  await expect(toast(page, 'Found 2 email addresses')).toBeVisible();
  await expect(dialog.getByLabel('Email addresses')).toHaveValue('zoe@normal.mailworld.test\nbo@normal.mailworld.test');
  await csv.setInputFiles({ name: 'latin1.csv', mimeType: 'text/csv', buffer: Buffer.from('Nom;Courriel\r\nJos\xe9;jos\xe9@normal.mailworld.test\r\n', 'latin1') });
  await expect(toast(page, 'Found 1 email addresses')).toBeVisible();
  await expect(dialog.getByLabel('Email addresses')).toHaveValue('jos\u00e9@normal.mailworld.test');
  await csv.setInputFiles(fixture('schedule-list.csv'));
  await expect(toast(page, 'Found 3 email addresses')).toBeVisible();
  await expect(dialog.getByLabel('Email addresses')).toHaveValue('alice@normal.mailworld.test\nghost@normal.mailworld.test\nbob@normal.mailworld.test');
  await expect(dialog.getByTestId('email-count')).toHaveText('3 addresses');

  await dialog.getByLabel('Description').fill('Monthly newsletter list');
  await dialog.getByText('Daily', { exact: true }).click();
  await expect(dialog.getByRole('radio', { name: 'Daily' })).toBeChecked();
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/schedules-new-dialog.png` });

  // The worker's cron ticks every minute and runs a new schedule at once: keep clear of the tick
  // so that the card is seen before its first run.
  const second = new Date().getSeconds();
  if (second >= 45) await page.waitForTimeout((62 - second) * 1000);
  await create.click();
  await expect(toast(page, 'Schedule Created')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const card = page.getByTestId('schedule-card').filter({ hasText: 'Newsletter subscribers' });
  await expect(card.getByTestId('schedule-status')).toHaveText('Active');
  await expect(card.getByTestId('schedule-description')).toHaveText('Monthly newsletter list');
  await expect(card.getByTestId('schedule-frequency')).toHaveText('Daily');
  await expect(card.getByTestId('schedule-emails')).toHaveText('3');
  await expect(card.getByTestId('schedule-runs')).toHaveText('0');
  await expect(card.getByTestId('schedule-last-run')).toHaveText('Never');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/schedules.png`, fullPage: true });

  // A typed list, weekly by default.
  await page.getByRole('button', { name: 'New Schedule' }).click();
  await dialog.getByLabel('Name').fill('Typed list');
  await dialog.getByLabel('Email addresses').fill('alice@normal.mailworld.test\n\n  bob@normal.mailworld.test  \n');
  await create.click();
  await expect(toast(page, 'Schedule Created')).toBeVisible();
  const typed = page.getByTestId('schedule-card').filter({ hasText: 'Typed list' });
  await expect(typed.getByTestId('schedule-frequency')).toHaveText('Weekly');
  await expect(typed.getByTestId('schedule-emails')).toHaveText('2');

  // Toggle.
  await card.getByRole('switch').click();
  await expect(toast(page, 'Schedule Deactivated')).toBeVisible();
  await expect(card.getByTestId('schedule-status')).toHaveText('Inactive');
  await card.getByRole('switch').click();
  await expect(toast(page, 'Schedule Activated')).toBeVisible();
  await expect(card.getByTestId('schedule-status')).toHaveText('Active');

  // Delete asks first; dismissing keeps the schedule.
  let asked = '';
  page.once('dialog', (d) => {
    asked = d.message();
    void d.dismiss();
  });
  await typed.getByRole('button', { name: 'Delete Typed list' }).click();
  expect(asked).toBe('Are you sure you want to delete this schedule?');
  await expect(typed).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await typed.getByRole('button', { name: 'Delete Typed list' }).click();
  await expect(toast(page, 'Schedule Deleted')).toBeVisible();
  await expect(typed).toHaveCount(0);
  await expect(page.getByTestId('schedule-card')).toHaveCount(1);
});

test('an active schedule runs on the worker: the run shows on the card and in History', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-sched-run') });
  await upgradeTo(page, 'pro');
  await page.goto('/dashboard/auto-revalidation');
  const dialog = await openDialog(page, 'New Schedule');
  await dialog.getByLabel('Name').fill('Runs soon');
  await dialog.getByLabel('Email addresses').fill('alice@normal.mailworld.test\nghost@normal.mailworld.test');
  await dialog.getByRole('button', { name: 'Create Schedule' }).click();
  await expect(toast(page, 'Schedule Created')).toBeVisible();
  const card = page.getByTestId('schedule-card').filter({ hasText: 'Runs soon' });
  // The cron's next tick (at most a minute away) would queue the run; it is asked for now instead.
  await runCronTaskNow('schedule-tick');
  // Live: no reload; the card follows the run's job.
  await expect(card.getByTestId('schedule-runs')).toHaveText('1', { timeout: 30_000 });
  await expect(card.getByTestId('schedule-last-run')).not.toHaveText('Never');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/schedules-after-run.png`, fullPage: true });
  await page.getByRole('link', { name: 'Last run in History' }).click();
  await page.waitForURL('**/dashboard/history');
  const run = page.getByTestId('job-row');
  await expect(run).toHaveCount(1);
  await expect(run).toContainText('Scheduled run');
  await expect(run.getByTestId('job-total')).toHaveText('2');
  await expect(run.getByTestId('job-status')).toHaveText('Completed', { timeout: 60_000 });
  // A long run name still leaves the row's actions in view (no sideways scrolling at 1280 px).
  await expect(run.getByRole('button', { name: 'Download' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/history-scheduled-run.png`, fullPage: true });
});

test("a run refused for want of credits says so on the schedule's card, not only in History", async ({ page }) => {
  const email = uniqueEmail('e2e-sched-broke');
  await signUpAndVerify(page, { email });
  await upgradeTo(page, 'pro');
  await page.goto('/dashboard/auto-revalidation');
  const dialog = await openDialog(page, 'New Schedule');
  await dialog.getByLabel('Name').fill('Broke list');
  await dialog.getByLabel('Email addresses').fill('alice@normal.mailworld.test\nghost@normal.mailworld.test');
  await dialog.getByRole('button', { name: 'Create Schedule' }).click();
  await expect(toast(page, 'Schedule Created')).toBeVisible();
  // The balance spent elsewhere: one credit left for a list of two.
  await withE2eDb((c) => c.query('update account set credits_balance = 1 where id = (select m."organizationId" from member m join "user" u on u.id = m."userId" where u.email = $1)', [email]));
  await runCronTaskNow('schedule-tick');
  const card = page.getByTestId('schedule-card').filter({ hasText: 'Broke list' });
  await expect(card.getByTestId('schedule-runs')).toHaveText('1', { timeout: 30_000 });
  await expect(card.getByTestId('schedule-last-run-failed')).toHaveText(
    'The last run failed: Not enough credits: this list needs 2 credits (one per unique address) and your balance is 1.',
  );
});

test('a refused schedule call shows Error with the server message', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-sched-error') });
  await upgradeTo(page, 'pro');
  await page.goto('/dashboard/auto-revalidation');
  // The server answers 'User account not found' when the caller has no membership row.
  await page.route('**/api/trpc/*schedules.create*', (route) =>
    route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify([{ error: { message: 'User account not found', code: -32003, data: { code: 'FORBIDDEN', httpStatus: 403, appCode: 'NOT_A_MEMBER' } } }]),
    }),
  );
  const dialog = await openDialog(page, 'New Schedule');
  await dialog.getByLabel('Name').fill('Will fail');
  await dialog.getByLabel('Email addresses').fill('alice@normal.mailworld.test');
  await dialog.getByRole('button', { name: 'Create Schedule' }).click();
  await expect(toast(page, 'User account not found')).toContainText('Error');
  // The dialog stays open with what was typed, so nothing is lost.
  await expect(dialog.getByLabel('Name')).toHaveValue('Will fail');
});

test("a schedule call that gets no answer from the server (a proxy's error page) does not claim 'User account not found'", async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-sched-noanswer') });
  await upgradeTo(page, 'pro');
  await page.goto('/dashboard/auto-revalidation');
  await page.route('**/api/trpc/*schedules.create*', (route) => route.fulfill({ status: 504, contentType: 'text/html', body: '<html><body>504 Gateway Time-out</body></html>' }));
  const dialog = await openDialog(page, 'New Schedule');
  await dialog.getByLabel('Name').fill('No answer');
  await dialog.getByLabel('Email addresses').fill('alice@normal.mailworld.test');
  await dialog.getByRole('button', { name: 'Create Schedule' }).click();
  const error = page.locator('[data-sonner-toast]', { hasText: 'Error' }).first();
  await expect(error).toContainText('Mailvet did not answer. Check your connection and try again.');
  await expect(error).not.toContainText('User account not found');
  await expect(error).not.toContainText('JSON');
  await expect(dialog.getByLabel('Name')).toHaveValue('No answer');
});

test('a double-click on Create Schedule creates one schedule', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-sched-dblclick') });
  await upgradeTo(page, 'pro');
  await page.goto('/dashboard/auto-revalidation');
  const dialog = await openDialog(page, 'New Schedule');
  await dialog.getByLabel('Name').fill('Clicked twice');
  await dialog.getByLabel('Email addresses').fill('alice@normal.mailworld.test');
  await dialog.getByRole('button', { name: 'Create Schedule' }).dblclick();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Clicked twice' })).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Clicked twice' })).toHaveCount(1);
});

test('with the live stream blocked (a proxy that buffers or drops server-sent events), an active schedule\'s run still shows on its card', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-sched-nolive') });
  await upgradeTo(page, 'pro');
  await page.route('**/api/trpc/*jobs.onChange*', (route) => route.abort('connectionreset'));
  await page.clock.install();
  await page.goto('/dashboard/auto-revalidation');
  const dialog = await openDialog(page, 'New Schedule');
  await dialog.getByLabel('Name').fill('Runs unseen');
  await dialog.getByLabel('Email addresses').fill('alice@normal.mailworld.test');
  await dialog.getByRole('button', { name: 'Create Schedule' }).click();
  await expect(toast(page, 'Schedule Created')).toBeVisible();
  const card = page.getByTestId('schedule-card').filter({ hasText: 'Runs unseen' });
  await runCronTaskNow('schedule-tick');
  // Without the stream, the page reloads the schedules every 10 s while one is active (the page's
  // clock jumps over those 10 s rather than the test waiting them out).
  await passesOnPageClock(page, { stepMs: 5_000, withinMs: 45_000 }, () => expect(card.getByTestId('schedule-runs')).toHaveText('1', { timeout: 2_000 }));
  await expect(card.getByTestId('schedule-last-run')).not.toHaveText('Never');
});
