// Overview on a slow connection: Getting Started said '1 of 3 done' with 'Validate your first email'
// and 'Generate an API key' still to do before the account's progress had arrived, then jumped to
// the truth (here 2 of 3). Until it is known the card now says it is loading it.
import { expect, test } from '@playwright/test';
import { newUserOn } from './helpers';

test("Getting Started says it is loading the progress, not a guessed '1 of 3 done', until the overview arrives", async ({ page }) => {
  await newUserOn(page, '/dashboard/api-keys', { tag: 'rv-overview-slow', plan: 'starter' });
  const created = await page.request.post('/api/trpc/apiKeys.create', { data: { name: 'ci' } });
  expect(created.ok()).toBeTruthy();
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/api\/trpc\/[^?]*account\.overview/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/dashboard');
  const card = page.getByTestId('getting-started');
  await expect(card.getByRole('status').filter({ hasText: 'Loading your progress…' })).toBeVisible();
  await expect(card.getByText(/of 3 done/)).toHaveCount(0);
  await expect(card.getByRole('list', { name: 'Getting started checklist' })).toHaveCount(0);

  release();
  await expect(card.getByText('2 of 3 done')).toBeVisible();
  await expect(card.getByTestId('checklist-item').filter({ hasText: 'Generate an API key' })).toHaveAttribute('data-done', 'true');
  await expect(card.getByText('Loading your progress…')).toHaveCount(0);
});
