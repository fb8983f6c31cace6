// API Keys → Account webhooks when the endpoint list cannot be loaded: the card said nothing and
// showed no endpoint, as if the account had none (and one added then seemed to vanish). It now says
// the list could not be loaded and offers to try again.
import { expect, test } from '@playwright/test';
import { withE2eDb } from './db';
import { failProcedure, newUserOn, passesOnPageClock } from './helpers';

test('when the webhook endpoints cannot load, the card says so and Try again shows them', async ({ page }) => {
  const email = await newUserOn(page, '/dashboard', { tag: 'wh-load-fail' });
  // Account webhooks are Enterprise's (sales-led: no screen makes it); one endpoint already there.
  await withE2eDb(async (c) => {
    await c.query(`update account a set plan = 'enterprise' from "user" u where u.id = a.owner_id and u.email = $1`, [email]);
  });
  await page.goto('/dashboard/api-keys');
  const card = page.getByTestId('webhook-endpoints');
  const form = card.getByRole('form', { name: 'Add webhook endpoint' });
  await form.getByLabel('Endpoint URL').fill('https://93.184.215.14/hooks/load');
  await form.getByRole('button', { name: 'Add Endpoint' }).click();
  await expect(card.getByTestId('webhook-endpoint-row')).toHaveCount(1);

  await failProcedure(page, 'webhooks.endpoints');
  await page.clock.install();
  await page.goto('/dashboard/api-keys');
  const failed = card.getByRole('alert').filter({ hasText: 'Your webhook endpoints could not be loaded.' });
  // After the query's retries, their back-off jumped over on the page's clock.
  await passesOnPageClock(page, { stepMs: 4_000, withinMs: 40_000 }, () => expect(failed).toBeVisible({ timeout: 750 }));
  await page.unroute('**/api/trpc/*webhooks.endpoints*');
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(card.getByTestId('webhook-endpoint-row')).toHaveCount(1);
  await expect(failed).toHaveCount(0);
});
