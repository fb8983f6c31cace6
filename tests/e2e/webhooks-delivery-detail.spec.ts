// The delivery log's details (owner, Enterprise): a failing webhook is debugged from its attempts
// (each one's answer, time and error) and the exact body sent, on the API Keys page. And the
// Documentation page states the retry window the dashboard and the server use.
import { expect, test } from '@playwright/test';
import { WEBHOOK_RETRY_WINDOW_HOURS } from '../../server/contracts/webhooks';
import { withE2eDb } from './db';
import { SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

test('a delivery opens with each attempt and the exact body sent', async ({ page }) => {
  const email = uniqueEmail('e2e-hook-detail');
  await signUpAndVerify(page, { email });
  const body = '{"event":"job.failed","job_id":"0b8c2d1e-4f5a-4b6c-8d7e-9f0a1b2c3d4e","status":"failed","total_emails":3}';
  await withE2eDb(async (c) => {
    const r = await c.query(`update account a set plan = 'enterprise' from "user" u where u.id = a.owner_id and u.email = $1 returning a.id`, [email]);
    const accountId = r.rows[0].id as string;
    const d = await c.query(
      `insert into webhook_delivery (account_id, event, url, body, status, attempts, last_status_code, last_latency_ms, last_error, created_at)
       values ($1, 'job.failed', 'https://93.184.215.14/hooks/detail', $2, 'pending', 3, null, 10000, 'no complete answer within 10000 ms', now() - interval '2 minutes') returning id`,
      [accountId, body],
    );
    const deliveryId = d.rows[0].id as string;
    await c.query(
      `insert into webhook_attempt (delivery_id, account_id, attempt, status_code, latency_ms, error, created_at)
       values ($1, $2, 1, 503, 91, 'receiver answered HTTP 503', now() - interval '110 seconds'),
              ($1, $2, 2, 302, 48, 'receiver answered HTTP 302', now() - interval '100 seconds'),
              ($1, $2, 3, null, 10000, 'no complete answer within 10000 ms', now() - interval '80 seconds')`,
      [deliveryId, accountId],
    );
  });

  await page.goto('/dashboard/api-keys');
  const row = page.getByTestId('webhook-deliveries').getByTestId('webhook-delivery-row');
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /Details of delivery/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Webhook delivery' });
  await expect(dialog).toContainText('job.failed');
  await expect(dialog).toContainText('https://93.184.215.14/hooks/detail');
  const attempts = dialog.getByTestId('webhook-attempt-row');
  await expect(attempts).toHaveCount(3);
  await expect(attempts.nth(0)).toContainText('1');
  await expect(attempts.nth(0)).toContainText('HTTP 503');
  await expect(attempts.nth(0)).toContainText('receiver answered HTTP 503');
  await expect(attempts.nth(1)).toContainText('HTTP 302');
  await expect(attempts.nth(2)).toContainText('10,000 ms');
  await expect(attempts.nth(2)).toContainText('no complete answer within 10000 ms');
  await expect(dialog.getByTestId('webhook-delivery-body')).toHaveText(JSON.stringify(JSON.parse(body), null, 2));
  await page.screenshot({ path: `${SCREENSHOT_DIR}/webhooks-delivery-detail.png` });
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(dialog).toHaveCount(0);
});

test('the Documentation page states the retry window the dashboard shows', async ({ page }) => {
  await page.goto('/documentation');
  await page.getByRole('tab', { name: 'API Reference' }).click();
  const section = page.locator('section[aria-labelledby="webhooks"]');
  await section.scrollIntoViewIfNeeded();
  await expect(section).toContainText(`retried with exponential backoff for about ${WEBHOOK_RETRY_WINDOW_HOURS} hours (10 attempts)`);
});
