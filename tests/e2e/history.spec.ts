import fs from 'node:fs';
import { expect, test, type Page, type Route } from '@playwright/test';
import { fixture, upgradeTo } from '../fixtures/e2e/paid-plan';
import { passesOnPageClock, SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

const RESULT_COLUMNS = 'Email,Result,Deliverability Score,Syntax Valid,DNS Valid,MX Valid,SMTP Valid,Role Detected,Disposable Provider,Checked At';

async function uploadFile(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  await page.goto('/dashboard/bulk');
  await page.getByLabel('CSV file').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload and Validate' }).click();
  await expect(page.getByText('Upload Successful')).toBeVisible();
  await page.waitForURL('**/dashboard/history');
}

/**
 * A Starter user's upload of 2,000 addresses on slow domains (greylisted first attempts and tarpitted
 * banners keep the job busy for a while); returns the job's History row once it is Processing.
 */
async function startSlowJob(page: Page, o: { tag: string; file: string; prefix: string; domains: string[] }) {
  await signUpAndVerify(page, { email: uniqueEmail(o.tag) });
  await upgradeTo(page, 'starter');
  const lines = ['email', ...Array.from({ length: 2000 }, (_, i) => `${o.prefix}${i}@${o.domains[i % o.domains.length]}`)];
  await uploadFile(page, { name: o.file, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  const row = page.getByTestId('job-row').filter({ hasText: o.file });
  await expect(row.getByTestId('job-status')).toHaveText('Processing', { timeout: 30_000 });
  return row;
}

test('History shows an empty state, then a job that completes live, its results, breakdown and download', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page, { email: uniqueEmail('e2e-history') });
  await upgradeTo(page, 'starter');

  await page.goto('/dashboard/history');
  await expect(page.getByTestId('history-empty')).toBeVisible();
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'live');

  // A job created elsewhere (another tab) appears and finishes here without a reload.
  const other = await context.newPage();
  await uploadFile(other, fixture('contacts.csv'));
  await other.close();
  const row = page.getByTestId('job-row').filter({ hasText: 'contacts.csv' });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('job-total')).toHaveText('8');

  // While pending or processing, View Results is disabled and there is no Download.
  // Read in one go: the 8-address job may finish between two separate reads.
  const seen = await row.evaluate((el) => ({
    status: el.querySelector('[data-testid="job-status"]')?.textContent ?? '',
    viewDisabled: [...el.querySelectorAll('button')].find((b) => b.textContent?.includes('View Results'))?.disabled ?? null,
    downloads: el.querySelectorAll('button[aria-label="Download"]').length,
  }));
  if (/Pending|Processing/.test(seen.status)) {
    expect(seen.viewDisabled).toBe(true);
    expect(seen.downloads).toBe(0);
  }
  await expect(row.getByTestId('job-status')).toHaveText('Completed', { timeout: 60_000 });
  await expect(row.getByTestId('job-processed')).toHaveText('8');
  await expect(row.getByTestId('job-percent')).toHaveText('100%');
  await expect(row.getByRole('progressbar')).toHaveCount(0);
  await expect(row.getByTestId('job-created')).toContainText(/\d{4}/);
  // The table fits the page: no sideways scrolling at a laptop width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await expect(row.getByRole('button', { name: 'Download' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/history.png`, fullPage: true });

  await row.getByRole('button', { name: 'View Results' }).click();
  // (The dialog element itself has no box of its own: its panel is fixed-positioned inside it.)
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Validation Results')).toBeVisible();
  await expect(dialog.getByTestId('result-row')).toHaveCount(8);
  await expect(dialog.getByTestId('results-range')).toHaveText('Showing 1–8 of 8');
  const tile = (k: string) => dialog.getByTestId(`breakdown-${k}`).getByTestId('count');
  const counts = await Promise.all(['valid', 'invalid', 'risky'].map(async (k) => Number(await tile(k).textContent())));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
  expect(counts[0]).toBeGreaterThan(0);
  expect(counts[1]).toBeGreaterThan(0);
  const ghost = dialog.getByTestId('result-row').filter({ hasText: 'ghost@normal.mailworld.test' });
  await expect(ghost).toContainText('Invalid');
  await expect(ghost).toContainText('Mailbox not found');
  await expect(dialog.getByTestId('breakdown-reasons')).toContainText('Catch-all domain');
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0); // settled, not mid-fade
  await page.screenshot({ path: `${SCREENSHOT_DIR}/history-results.png` });
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Download: a CSV with the spec's columns, named with the job id.
  const jobId = await row.getAttribute('data-job-id');
  const downloadPromise = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download' }).click();
  const download = await downloadPromise;
  await expect(page.getByText('Download Started')).toBeVisible();
  expect(download.suggestedFilename()).toContain(jobId!);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const saved = fs.readFileSync(await download.path(), 'utf8');
  // UTF-8 with a byte-order mark, so that Excel reads it as UTF-8.
  expect(saved.startsWith('\uFEFF')).toBe(true);
  const csv = saved.slice(1).trim().split(/\r?\n/);
  expect(csv[0]).toBe(RESULT_COLUMNS);
  expect(csv).toHaveLength(9);
  expect(csv.some((l) => l.startsWith('ghost@normal.mailworld.test,invalid,'))).toBe(true);

  // On a phone the table scrolls inside its card; the page itself does not.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(row).toBeAttached();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/history-mobile.png`, fullPage: true });
});

test('the results table pages through a larger job', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page, { email: uniqueEmail('e2e-history-pages') });
  await upgradeTo(page, 'starter');
  const lines = ['email', ...Array.from({ length: 30 }, (_, i) => `user${i + 1}@normal.mailworld.test`)];
  const name = 'newsletter signups from the spring campaign landing page (thirty).csv';
  await uploadFile(page, { name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  const row = page.getByTestId('job-row').filter({ has: page.getByTitle(name) });
  await expect(row.getByTestId('job-status')).toHaveText('Completed', { timeout: 60_000 });
  // A long file name still leaves the row's actions in view (no sideways scrolling at 1280 px).
  await expect(row.getByRole('button', { name: 'Download' })).toBeInViewport({ ratio: 1 });
  await row.getByRole('button', { name: 'View Results' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('result-row')).toHaveCount(25);
  await expect(dialog.getByText('Page 1 of 2')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByTestId('result-row')).toHaveCount(5);
  await expect(dialog.getByTestId('results-range')).toHaveText('Showing 26–30 of 30');
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Previous' }).click();
  await expect(dialog.getByTestId('result-row')).toHaveCount(25);
});

test('while a job runs, History shows it processing with a live progress bar and View Results disabled', async ({ page }) => {
  test.setTimeout(150_000);
  const domains = ['greylist.mailworld.test', 'tarpit.mailworld.test', 'normal.mailworld.test', 'catch-all.mailworld.test'];
  const row = await startSlowJob(page, { tag: 'e2e-history-progress', file: 'slow.csv', prefix: 'p', domains });
  await expect(row.getByRole('progressbar')).toBeVisible();
  await expect(row.getByRole('button', { name: 'View Results' })).toBeDisabled();
  await expect(row.getByRole('button', { name: 'Download' })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/history-processing.png`, fullPage: true });
  await expect(row.getByTestId('job-status')).toHaveText('Completed', { timeout: 120_000 });
  await expect(row.getByTestId('job-processed')).toHaveText('2,000');
  await expect(row.getByTestId('job-percent')).toHaveText('100%');
});

/** Answers a batched tRPC GET for one procedure with `data` (or an error) for every call in the batch. */
/**
 * Answers `procedure` in a tRPC request with `body`; the other procedures batched with it (the
 * dashboard shell's own queries) get the server's real answers.
 */
function trpcReply(procedure: string, body: { data?: unknown; error?: string }) {
  return async (route: Route) => {
    const names = new URL(route.request().url()).pathname.split('/').pop()!.split(',');
    const one = body.error
      ? { error: { message: body.error, code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 } } }
      : { result: { data: body.data } };
    if (names.every((n) => n === procedure)) {
      await route.fulfill({ status: body.error ? 500 : 200, contentType: 'application/json', body: JSON.stringify(names.map(() => one)) });
      return;
    }
    const real = (await (await route.fetch()).json()) as unknown[];
    await route.fulfill({ status: 207, contentType: 'application/json', body: JSON.stringify(names.map((n, i) => (n === procedure ? one : real[i]))) });
  };
}

test('History reports load failures, a failed job with its reason, and an empty result set', async ({ page }) => {
  test.setTimeout(90_000);
  await signUpAndVerify(page, { email: uniqueEmail('e2e-history-errors') });
  await upgradeTo(page, 'starter');

  // The list cannot load (after the client's retries, their back-off jumped over on the page's
  // clock): 'Error' / 'Failed to load validation history'.
  await page.route('**/api/trpc/*jobs.list*', trpcReply('jobs.list', { error: 'database unavailable' }));
  await page.clock.install();
  await page.goto('/dashboard/history');
  const loadToast = page.locator('[data-sonner-toast]', { hasText: 'Failed to load validation history' });
  await passesOnPageClock(page, { stepMs: 4_000, withinMs: 40_000 }, () => expect(loadToast).toContainText('Error', { timeout: 750 }));
  await page.unroute('**/api/trpc/*jobs.list*');

  // A failed job shows its stored reason; a completed one without rows says No Results.
  const now = new Date().toISOString();
  const job = (id: string, filename: string, status: string, error: string | null) => ({
    id, filename, source: 'upload', status, total_emails: 3, processed_emails: status === 'failed' ? 1 : 3, progress: status === 'failed' ? 33 : 100,
    valid_count: 0, invalid_count: 0, risky_count: 0, error, schedule_id: null, replay_of: null, created_at: now, started_at: now, completed_at: now,
  });
  const failedId = '00000000-0000-4000-8000-000000000001';
  const emptyId = '00000000-0000-4000-8000-000000000002';
  await page.route('**/api/trpc/*jobs.list*', trpcReply('jobs.list', { data: { jobs: [job(failedId, 'broken.csv', 'failed', 'The probe was unreachable for too long. No credits were taken for unchecked addresses.'), job(emptyId, 'empty-results.csv', 'completed', null)], nextCursor: null } }));
  await page.route('**/api/trpc/*jobs.results*', trpcReply('jobs.results', { data: { rows: [], total: 0, page: 1, pageSize: 25 } }));
  await page.reload();
  const failed = page.getByTestId('job-row').filter({ hasText: 'broken.csv' });
  await expect(failed.getByTestId('job-status')).toHaveText('Failed');
  await expect(page.locator(`[data-testid="job-failure"][data-job-id="${failedId}"]`).getByTestId('job-error')).toHaveText(
    'This job failed: The probe was unreachable for too long. No credits were taken for unchecked addresses.',
  );
  await expect(failed.getByRole('button', { name: 'View Results' })).toBeEnabled();
  await expect(failed.getByRole('button', { name: 'Download' })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/history-failed-job.png`, fullPage: true });

  await page.getByTestId('job-row').filter({ hasText: 'empty-results.csv' }).getByRole('button', { name: 'View Results' }).click();
  await expect(page.locator('[data-sonner-toast]', { hasText: 'No Results' })).toContainText('No validation results found for this job');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Results that cannot load: 'Failed to load validation results'. A download that fails: 'Download Failed'.
  await page.route('**/api/trpc/*jobs.results*', trpcReply('jobs.results', { error: 'boom' }));
  await failed.getByRole('button', { name: 'View Results' }).click();
  await passesOnPageClock(page, { stepMs: 4_000, withinMs: 40_000 }, () =>
    expect(page.locator('[data-sonner-toast]', { hasText: 'Failed to load validation results' })).toContainText('Error', { timeout: 750 }),
  );
  await page.route('**/api/jobs/*/export*', (route) =>
    route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'CONFLICT', message: 'Results can be downloaded once the job has completed.' } }) }),
  );
  await page.getByTestId('job-row').filter({ hasText: 'empty-results.csv' }).getByRole('button', { name: 'Download' }).click();
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Download Failed' })).toContainText('Results can be downloaded once the job has completed.', { timeout: 30_000 });
});

test('History says when a running job waits for the verification service, and stops saying it once the job moves again', async ({ page }) => {
  test.setTimeout(60_000);
  await signUpAndVerify(page, { email: uniqueEmail('e2e-history-stalled') });
  await upgradeTo(page, 'starter');
  const now = new Date().toISOString();
  const id = '00000000-0000-4000-8000-000000000003';
  const job = (stalled: boolean, processed: number) => ({
    id, filename: 'big-list.csv', source: 'upload', status: 'processing', total_emails: 100000, processed_emails: processed, progress: Math.round(processed / 1000),
    valid_count: processed, invalid_count: 0, risky_count: 0, error: null, schedule_id: null, replay_of: null, is_sandbox: false, stalled, created_at: now, started_at: now, completed_at: null,
  });
  await page.route('**/api/trpc/*jobs.list*', trpcReply('jobs.list', { data: { jobs: [job(true, 4000)], nextCursor: null } }));
  await page.goto('/dashboard/history');
  const row = page.getByTestId('job-row').filter({ hasText: 'big-list.csv' });
  await expect(row.getByTestId('job-status')).toHaveText('Processing');
  await expect(page.locator(`[data-testid="job-stalled"][data-job-id="${id}"]`)).toHaveText(
    'The verification service is not answering right now. This job is retried automatically and continues where it stopped; no address is checked or charged twice.',
  );
  await page.unroute('**/api/trpc/*jobs.list*');
  await page.route('**/api/trpc/*jobs.list*', trpcReply('jobs.list', { data: { jobs: [job(false, 9000)], nextCursor: null } }));
  await page.reload();
  await expect(row.getByTestId('job-processed')).toHaveText('9,000');
  await expect(page.getByTestId('job-stalled')).toHaveCount(0);
});

test('History cancels a running job (with a confirmation) and downloads one verdict at a time', async ({ page }) => {
  test.setTimeout(150_000);
  // A quarter answered at once (no such domain: something done, some of it invalid), three quarters
  // behind one tarpit's slow greeting, at most 5 connections at a time: the job runs long enough
  // (~10 s) to be cancelled through its dialog twice even on a loaded machine.
  const domains = ['nxdomain.mailworld.test', 'tarpit.mailworld.test'];
  const row = await startSlowJob(page, { tag: 'e2e-history-cancel', file: 'to-cancel.csv', prefix: 'c', domains: [domains[0]!, domains[1]!, domains[1]!, domains[1]!] });
  await expect.poll(async () => Number(((await row.getByTestId('job-processed').textContent()) ?? '0').replace(/,/g, '')), { timeout: 60_000 }).toBeGreaterThan(0);

  // Cancel asks first; "Keep Running" leaves the job alone.
  await row.getByRole('button', { name: 'Cancel' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel this job?' });
  await expect(confirm).toContainText('addresses not yet checked will not be checked or charged');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/history-cancel-confirm.png`, fullPage: true });
  await confirm.getByRole('button', { name: 'Keep Running' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(row.getByTestId('job-status')).toHaveText('Processing');

  await row.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog', { name: 'Cancel this job?' }).getByRole('button', { name: 'Cancel Job' }).click();
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Job Cancelled' })).toContainText('not checked and not charged');
  await expect(row.getByTestId('job-status')).toHaveText('Cancelled');
  await expect(row.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  const kept = Number(((await row.getByTestId('job-processed').textContent()) ?? '0').replace(/,/g, ''));
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(2000);
  // Nothing more is processed after the cancel.
  await page.waitForTimeout(3_000);
  await expect(row.getByTestId('job-processed')).toHaveText(kept.toLocaleString('en-US'));

  // The results done so far download, whole or one verdict at a time.
  await row.getByRole('button', { name: 'One verdict only' }).click();
  await expect(page.getByRole('menuitem', { name: 'Invalid only' })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/history-filtered-download.png`, fullPage: true });
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Invalid only' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/-invalid\.csv$/);
  const csv = fs.readFileSync(await download.path(), 'utf8').trim().split(/\r?\n/);
  expect(csv[0]).toBe(RESULT_COLUMNS);
  expect(csv.length).toBeGreaterThan(1);
  expect(csv.slice(1).every((l) => l.split(',')[1] === 'invalid')).toBe(true);
  const all = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download' }).click();
  const whole = fs.readFileSync(await (await all).path(), 'utf8').trim().split(/\r?\n/);
  expect(whole).toHaveLength(kept + 1);
});

test('with the live stream blocked (a proxy that buffers or drops server-sent events), History still shows a job reach Completed', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-history-nolive') });
  await upgradeTo(page, 'starter');
  await page.route('**/api/trpc/*jobs.onChange*', (route) => route.abort('connectionreset'));
  // The page's clock jumps over the waits below that are the app's own timers (its grace before it
  // says it is polling, its idle poll), not the job's work.
  await page.clock.install();
  await uploadFile(page, fixture('contacts.csv'));
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'offline');
  const row = page.getByTestId('job-row').filter({ hasText: 'contacts.csv' });
  await expect(row.getByTestId('job-status')).toHaveText('Completed', { timeout: 30_000 });
  await expect(row.getByTestId('job-percent')).toHaveText('100%');
  await expect(row.getByRole('button', { name: 'Download', exact: true })).toBeVisible();

  // It says the list is being refreshed, not "Connecting..." for ever, and a job started elsewhere
  // (here the upload door called directly, as another browser would) still appears, every job shown being finished.
  await passesOnPageClock(page, { stepMs: 4_000, withinMs: 15_000 }, () => expect(page.getByTestId('live-status')).toHaveText('Refreshing every few seconds', { timeout: 1_000 }));
  const origin = new URL(page.url()).origin;
  const elsewhere = await page.request.post(`${origin}/api/jobs/upload?filename=elsewhere.csv`, { headers: { 'content-type': 'text/csv', origin }, data: Buffer.from('email\nsomeone@example.com\n') });
  expect(elsewhere.status()).toBe(200);
  await passesOnPageClock(page, { stepMs: 5_000, withinMs: 30_000 }, () => expect(page.getByTestId('job-row').filter({ hasText: 'elsewhere.csv' })).toBeVisible({ timeout: 1_000 }));
});
