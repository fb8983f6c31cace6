// The dashboard open in several tabs of one browser: the live job stream, sign-out in another tab.
import { expect, test, type Page } from '@playwright/test';
import { fixture, upgradeTo } from '../fixtures/e2e/paid-plan';
import { signUpAndVerify, uniqueEmail } from './helpers';

test('seven tabs on History all load and go live (the tabs share one event stream, not one connection each)', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page, { email: uniqueEmail('e2e-tabs-seven') });
  await upgradeTo(page, 'starter');
  const tabs: Page[] = [page];
  for (let i = 1; i < 7; i++) tabs.push(await context.newPage());
  for (const tab of tabs) {
    await tab.goto('/dashboard/history');
    // A browser opens at most six HTTP/1.1 connections to one host; a stream held open per tab
    // would leave the seventh tab's calls waiting for ever.
    await expect(tab.getByTestId('history-empty')).toBeVisible();
    await expect(tab.getByTestId('live-status')).toHaveAttribute('data-state', 'live');
  }
  // The seventh tab can still act: the Bulk Upload page loads its plan.
  await tabs[6]!.goto('/dashboard/bulk');
  await expect(tabs[6]!.getByRole('button', { name: 'Upload and Validate' })).toBeVisible();
});

test('a job uploaded in one tab completes live in another; when the tab holding the stream closes, another takes it over', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page, { email: uniqueEmail('e2e-tabs-relay') });
  await upgradeTo(page, 'starter');
  await page.goto('/dashboard/history');
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'live');
  const watcher = await context.newPage();
  await watcher.goto('/dashboard/history');
  await expect(watcher.getByTestId('live-status')).toHaveAttribute('data-state', 'live');
  // The first tab (the one holding the stream) goes away; the watcher opens its own.
  await page.close();
  await expect(watcher.getByTestId('live-status')).toHaveAttribute('data-state', 'live');
  const uploader = await context.newPage();
  await uploader.goto('/dashboard/bulk');
  await uploader.getByLabel('CSV file').setInputFiles(fixture('contacts.csv'));
  await uploader.getByRole('button', { name: 'Upload and Validate' }).click();
  await expect(uploader.getByText('Upload Successful')).toBeVisible();
  // No reload in the watcher, and it stays live (so no polling): the stream's events reach it.
  const row = watcher.getByTestId('job-row').filter({ hasText: 'contacts.csv' });
  await expect(row.getByTestId('job-status')).toHaveText('Completed', { timeout: 30_000 });
  await expect(watcher.getByTestId('live-status')).toHaveAttribute('data-state', 'live');
});
