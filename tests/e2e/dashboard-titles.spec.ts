// Every dashboard page was titled 'Mailvet — Email Validation': a user with Team, History and Billing
// open in three tabs saw three identical tabs, the history menu and bookmarks listed them alike, and a
// screen reader announced no page name on navigation (the public pages got their own titles in f1c3d7b).
// An Enterprise account's full rebranding still put 'Mailvet' in every tab.
import { expect, test } from '@playwright/test';
import { withE2eDb } from './db';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

const PAGES: [string, string][] = [
  ['Validate Email', '/dashboard/validate'],
  ['Bulk Upload', '/dashboard/bulk'],
  ['Auto Revalidation', '/dashboard/auto-revalidation'],
  ['History', '/dashboard/history'],
  ['API Keys', '/dashboard/api-keys'],
  ['Team', '/dashboard/team'],
  ['Integrations', '/dashboard/integrations'],
  ['Billing', '/dashboard/billing'],
  ['Documentation', '/dashboard/documentation'],
  ['Settings', '/dashboard/settings'],
  ['Overview', '/dashboard'],
];

test('each dashboard page names its browser tab; reload and Back keep the right name; leaving restores the app title', async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv-titles' });
  await expect(page).toHaveTitle('Overview — Mailvet');
  const nav = page.getByRole('navigation').first();
  for (const [label, path] of PAGES) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await page.waitForURL((u) => u.pathname === path);
    await expect(page).toHaveTitle(`${label} — Mailvet`);
  }
  await page.goto('/dashboard/team');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Team — Mailvet');
  await page.goBack();
  await page.waitForURL((u) => u.pathname === '/dashboard');
  await expect(page).toHaveTitle('Overview — Mailvet');
  await page.goto('/dashboard/analytics');
  await expect(page).toHaveTitle('Analytics — Mailvet');

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  await expect(page).toHaveTitle('Mailvet — Email Validation');
});

test("an Enterprise account's product name, not Mailvet, names the dashboard's tabs", async ({ page }) => {
  const email = await newUserOn(page, '/dashboard/settings', { tag: 'rv-titles-ent', plan: 'business' });
  // The Enterprise deal is sales-led: no screen makes it.
  await withE2eDb((db) => db.query(`update account set plan = 'enterprise' where owner_id = (select id from "user" where email = $1)`, [email]));
  const named = await page.request.post('/api/trpc/branding.update', { data: { productName: 'Acme Verify' }, headers: { 'content-type': 'application/json' } });
  expect(named.ok()).toBeTruthy();
  await page.goto('/dashboard/history');
  await expect(page.getByTestId('brand')).toContainText('Acme Verify');
  await expect(page).toHaveTitle('History — Acme Verify');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/dashboard-title-branded.png` });
});
