// API Keys page, webhook settings (owner, Enterprise): rotate the signing secret (shown once),
// add an account webhook with its events, read the delivery log and replay a delivery.
import { expect, test } from '@playwright/test';
import { withE2eDb } from './db';
import { SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

test('webhooks: rotate the secret (shown once), add an endpoint per event, read the log, replay', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = uniqueEmail('e2e-hooks');
  await signUpAndVerify(page, { email });
  const accountId = await withE2eDb(async (c) => {
    const r = await c.query(`update account a set plan = 'enterprise' from "user" u where u.id = a.owner_id and u.email = $1 returning a.id`, [email]);
    const id = r.rows[0].id as string;
    // Two logged deliveries to show. The one replayed below points at loopback, which the network
    // guard refuses before connecting: the test never reaches the internet. It is a job's own
    // webhook_url call (a delivery naming neither an endpoint nor its job's URL is one whose
    // endpoint was deleted, and is not replayed).
    await c.query(
      `with job as (insert into validation_job (account_id, filename, status, webhook_url, created_at, completed_at)
                    values ($1, 'hooked.csv', 'failed', 'https://127.0.0.1/hooks/mailvet', now() - interval '4 minutes', now() - interval '3 minutes') returning id)
       insert into webhook_delivery (account_id, job_id, event, url, body, status, attempts, last_status_code, last_latency_ms, last_error, created_at, completed_at)
       values ($1, null, 'job.completed', 'https://93.184.215.14/hooks/mailvet', '{"event":"job.completed"}', 'delivered', 1, 200, 184, null, now() - interval '5 minutes', now() - interval '5 minutes'),
              ($1, (select id from job), 'job.failed', 'https://127.0.0.1/hooks/mailvet', '{"event":"job.failed"}', 'failed', 10, 503, 92, 'receiver answered HTTP 503', now() - interval '3 minutes', now() - interval '2 minutes')`,
      [id],
    );
    return id;
  });
  expect(accountId).toBeTruthy();

  await page.goto('/dashboard/api-keys');
  const legacy = page.getByLabel('Webhook signing secret', { exact: true });
  await expect(legacy).toHaveValue(/^whsec_/);
  const legacyValue = await legacy.inputValue();

  // Rotate: confirm, the new secret once, then only its first characters.
  await page.getByRole('button', { name: 'Rotate Secret' }).click();
  const confirm = page.getByRole('dialog', { name: 'Rotate signing secret?' });
  await expect(confirm).toContainText('stops working immediately');
  await confirm.getByRole('button', { name: 'Rotate Secret' }).click();
  const shown = page.getByRole('dialog', { name: 'New signing secret' });
  await expect(shown).toContainText("won't be shown again");
  const field = shown.getByLabel('New webhook signing secret', { exact: true });
  const secret = await field.inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  expect(secret).not.toBe(legacyValue);
  await shown.getByRole('button', { name: 'Copy New webhook signing secret' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await shown.getByRole('button', { name: 'Show New webhook signing secret' }).click();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/webhooks-rotated.png` });
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toHaveCount(0);
  await expect(page.getByLabel('Webhook signing secret', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('webhook-secret-hint')).toContainText(secret.slice(0, 10));
  await page.reload();
  await expect(page.getByTestId('webhook-secret-hint')).toContainText(secret.slice(0, 10));
  await expect(page.getByText(secret)).toHaveCount(0);

  // An endpoint: no events is refused on the page; a bad URL by the server; then it is added.
  const endpoints = page.getByTestId('webhook-endpoints');
  const form = endpoints.getByRole('form', { name: 'Add webhook endpoint' });
  await form.getByLabel('Endpoint URL').fill('http://93.184.215.14/hooks/mailvet');
  await form.getByRole('button', { name: 'Add Endpoint' }).click();
  await expect(form.getByRole('alert')).toHaveText('webhook_url must use https.');
  await form.getByLabel('Endpoint URL').fill('https://93.184.215.14/hooks/mailvet');
  await form.getByLabel('job.completed').uncheck();
  await form.getByLabel('job.failed').uncheck();
  await form.getByRole('button', { name: 'Add Endpoint' }).click();
  await expect(form.getByRole('alert')).toHaveText('Choose at least one event.');
  await form.getByLabel('job.completed').check();
  await form.getByLabel('schedule.run_completed').check();
  await form.getByRole('button', { name: 'Add Endpoint' }).click();
  await expect(page.getByText('Webhook endpoint added')).toBeVisible();
  const row = endpoints.getByTestId('webhook-endpoint-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('https://93.184.215.14/hooks/mailvet');
  await expect(row.getByLabel('job.completed')).toBeChecked();
  await expect(row.getByLabel('job.failed')).not.toBeChecked();
  await expect(row.getByLabel('schedule.run_completed')).toBeChecked();

  // The delivery log, filtered, and a replay.
  const log = page.getByTestId('webhook-deliveries');
  await expect(log.getByTestId('webhook-delivery-row')).toHaveCount(2);
  const failedRow = log.getByTestId('webhook-delivery-row').filter({ hasText: 'job.failed' });
  await expect(failedRow).toContainText('Failed');
  await expect(failedRow).toContainText('HTTP 503 · 92 ms');
  await expect(failedRow).toContainText('receiver answered HTTP 503');
  await expect(log.getByTestId('webhook-delivery-row').filter({ hasText: 'job.completed' })).toContainText('Delivered');
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('failed');
  await expect(log.getByTestId('webhook-delivery-row')).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('');
  await failedRow.getByRole('button', { name: /Replay delivery/ }).click();
  await expect(page.getByText('Delivery queued again')).toBeVisible();
  await expect(log.getByTestId('webhook-delivery-row')).toHaveCount(3);
  const replayed = log.getByTestId('webhook-delivery-row').first();
  await expect(replayed).toContainText('Replay');
  await expect(replayed).toContainText('Failed', { timeout: 15_000 });
  await expect(replayed).toContainText('public internet address');
  await endpoints.screenshot({ path: `${SCREENSHOT_DIR}/webhooks-endpoints.png` });
  await log.screenshot({ path: `${SCREENSHOT_DIR}/webhooks-deliveries.png` });
});

test('Documentation explains webhook events, signatures and delivery', async ({ page }) => {
  await page.goto('/documentation');
  await page.getByRole('tab', { name: 'API Reference' }).click();
  const section = page.locator('section[aria-labelledby="webhooks"]');
  await section.scrollIntoViewIfNeeded();
  for (const text of ['job.completed', 'job.failed', 'schedule.run_completed', 'X-Mailvet-Signature: sha256=<hex>', 'X-Mailvet-Signature-V2: t=<timestamp>,v1=<hex>', '<timestamp>.<X-Mailvet-Delivery>.<raw body>', 'more than 5 minutes from your clock', 'rotate it there', 'read at most 64 KB', 'Webhook request (schedule.run_completed)']) {
    await expect(section.getByText(text, { exact: false }).first()).toBeVisible();
  }
  await section.screenshot({ path: `${SCREENSHOT_DIR}/docs-webhooks.png` });
});
