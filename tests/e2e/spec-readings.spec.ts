// Texts, dates and layouts read against the spec's exact wording, on paths earlier specs did not
// take: the schedule CSV toast (section 5: 'Found N email addresses', counting what the schedule
// keeps), Analytics dates written as every other page writes them, the collapsed sidebar's labels
// for keyboard users, and the public pages on a 320 px phone.
import { expect, test, type Page } from '@playwright/test';
import { failProcedure, newUserOn, openDialog, passesOnPageClock, SCREENSHOT_DIR } from './helpers';

const toastTitle = (page: Page, title: string) => page.locator('[data-sonner-toast] [data-title]').filter({ hasText: new RegExp(`^${title}$`) });

test("the schedule CSV toast counts the addresses the schedule keeps, in the spec's words", async ({ page }) => {
  await newUserOn(page, '/dashboard/auto-revalidation', { tag: 'rv14-found', plan: 'pro' });
  const dialog = await openDialog(page, 'New Schedule');
  const csv = dialog.getByLabel('Load emails from CSV');
  // Two addresses and two cells that are none ('n/a', 'unknown'): the schedule keeps two.
  await csv.setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from('email\nalice@normal.mailworld.test\nn/a\nunknown\nbob@normal.mailworld.test\n') });
  await expect(toastTitle(page, 'Found 2 email addresses')).toBeVisible();
  await expect(dialog.getByTestId('email-count')).toHaveText('2 addresses · 2 skipped (not an address)');
  // Section 5 writes the text as 'Found N email addresses' for every N.
  await csv.setInputFiles({ name: 'one.csv', mimeType: 'text/csv', buffer: Buffer.from('email\nzoe@normal.mailworld.test\n') });
  await expect(toastTitle(page, 'Found 1 email addresses')).toBeVisible();
});

test("a schedule CSV whose email column holds no address says the spec's 'No valid email addresses found', not a green 'Found 0 email addresses'", async ({ page }) => {
  await newUserOn(page, '/dashboard/auto-revalidation', { tag: 'rv16-found0', plan: 'pro' });
  const dialog = await openDialog(page, 'New Schedule');
  await dialog.getByLabel('Load emails from CSV').setInputFiles({ name: 'none.csv', mimeType: 'text/csv', buffer: Buffer.from('email\nn/a\nunknown\n') });
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'No valid email addresses found' });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveAttribute('data-type', 'error');
  await expect(toastTitle(page, 'Found 0 email addresses')).toHaveCount(0);
});

test('Analytics writes its dates as the other pages do (Nov 24, 2026), not 2026-11-24', async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv14-dates', plan: 'pro' });
  const res = await page.request.post('/api/trpc/validation.check', { data: { email: 'alice@normal.mailworld.test' }, headers: { 'content-type': 'application/json' } });
  expect(res.ok()).toBeTruthy();
  await page.goto('/dashboard/analytics');
  await expect(page.getByTestId('credits-used')).toContainText('1');
  const today = await page.evaluate(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date()));
  const main = page.getByRole('main');
  await expect(main).toContainText(today);
  await expect(main).not.toContainText(/\b\d{4}-\d{2}-\d{2}\b/);
  for (const title of await main.locator('[title]').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''))) expect(title).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
});

test("Validate Email's result and Overview's activity write their time as the other pages do (Nov 24, 2026, 7:38 PM), not 11/24/2026, 7:38:39 PM", async ({ page }) => {
  await newUserOn(page, '/dashboard/validate', { tag: 'rv16-dates' });
  await page.getByLabel('Email address').fill('alice@normal.mailworld.test');
  await page.getByRole('button', { name: 'Validate Email' }).click();
  const today = await page.evaluate(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date()));
  const checked = page.getByText(/^Checked /);
  await expect(checked).toContainText(today);
  await expect(checked).not.toContainText(/\d+\/\d+\/\d{4}/);
  await page.goto('/dashboard');
  const time = page.locator('time[title]').first();
  await expect(time).toBeVisible();
  expect(await time.getAttribute('title')).toContain(today);
});

test('in the collapsed sidebar a keyboard user sees the label of the link in focus', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await newUserOn(page, '/dashboard', { tag: 'rv14-sidebar' });
  const sidebar = page.locator('aside[data-state]');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await page.locator('body').click({ position: { x: 900, y: 500 } });
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement?.getAttribute('href'))) === '/dashboard/history') break;
  }
  const history = sidebar.getByRole('link', { name: 'History' });
  await expect(history).toBeFocused();
  const tip = page.getByRole('tooltip');
  await expect(tip).toHaveText('History');
  await expect(tip).toBeInViewport({ ratio: 1 });
  await expect(history).toHaveAttribute('aria-describedby', (await tip.getAttribute('id'))!);
  // Beside the icon, whole (the rail clips what overflows it).
  const icon = (await history.boundingBox())!;
  expect((await tip.boundingBox())!.x).toBeGreaterThanOrEqual(icon.x + icon.width);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/sidebar-collapsed-focus.png` });
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tooltip')).toHaveText('API Keys');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip')).toHaveCount(0);
});

test('no public page scrolls sideways on a 320 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 720 });
  const wide: string[] = [];
  // Two tabs at once, each loading half of the pages afresh.
  const walk = async (tab: Page, paths: string[]) => {
    for (const path of paths) {
      await tab.goto(path);
      await tab.waitForLoadState('networkidle');
      const overflow = await tab.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) wide.push(`${path} (${overflow}px)`);
    }
  };
  const other = await page.context().newPage();
  await other.setViewportSize({ width: 320, height: 720 });
  await Promise.all([walk(page, ['/', '/features', '/pricing', '/documentation', '/about', '/contact']), walk(other, ['/privacy', '/terms', '/security', '/auth', '/no-such-page'])]);
  await other.close();
  await page.goto('/about');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/about-320.png`, fullPage: true });
  expect(wide, 'pages that scroll sideways at 320 px').toEqual([]);
});

test("on a 320 px phone Settings' buttons sit beside or under their text, never over it", async ({ page }) => {
  await newUserOn(page, '/dashboard/settings', { tag: 'rv14-settings-320' });
  await page.setViewportSize({ width: 320, height: 720 });
  const rows: Array<[string, string]> = [
    ['Change it regularly; changing it signs out your other devices.', 'Change Password'],
    ['Add a code from an authenticator app to every sign-in.', 'Enable 2FA'],
    ['End your session on this device.', 'Sign Out'],
    ['Permanently delete your account and its data. This cannot be undone.', 'Delete Account'],
  ];
  const main = page.getByRole('main');
  for (const [text, button] of rows) {
    const t = (await main.getByText(text, { exact: true }).boundingBox())!;
    const b = (await main.getByRole('button', { name: button, exact: true }).boundingBox())!;
    const overlap = t.x < b.x + b.width && b.x < t.x + t.width && t.y < b.y + b.height && b.y < t.y + t.height;
    expect(overlap, `'${button}' covers '${text}'`).toBe(false);
    // Words are not cut one a line: the text keeps at least 10rem.
    expect(t.width, `width of '${text}'`).toBeGreaterThanOrEqual(160);
  }
  await page.getByRole('heading', { name: 'Security' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-320.png` });
});

test('a key created from the keyboard leaves focus in the dialog, on Copy, not on the page behind', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await newUserOn(page, '/dashboard/api-keys', { tag: 'rv14-key-focus', plan: 'starter' });
  await page.getByRole('button', { name: 'Create API Key' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Create API Key' }).getByLabel('Key Name').fill('Keyboard key');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'API Key Created' });
  await expect(dialog.getByLabel('API key', { exact: true })).toHaveValue(/^mv_live_/);
  await expect(dialog.getByRole('button', { name: 'Copy API key' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toastTitle(page, 'API Key Copied')).toBeVisible();
});

test("when Overview cannot load, it does not claim 'No recent activity yet' (silent: no toast) and offers to try again", async ({ page }) => {
  test.setTimeout(90_000);
  await newUserOn(page, '/dashboard/validate', { tag: 'rv14-overview-fail' });
  await page.getByRole('main').getByRole('textbox').first().fill('alice@normal.mailworld.test');
  await page.getByRole('button', { name: 'Validate Email' }).click();
  await expect(toastTitle(page, 'Validation Complete')).toBeVisible();
  await failProcedure(page, 'account.overview');
  await page.clock.install();
  await page.goto('/dashboard');
  const recent = page.getByRole('main').getByRole('alert').filter({ hasText: 'Could not load your recent activity.' });
  // After the query's retries, their back-off jumped over on the page's clock.
  await passesOnPageClock(page, { stepMs: 4_000, withinMs: 40_000 }, () => expect(recent).toBeVisible({ timeout: 750 }));
  await expect(page.getByText('No recent activity yet')).toHaveCount(0);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await page.unroute('**/api/trpc/*account.overview*');
  await recent.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('recent-activity')).toContainText('alice@normal.mailworld.test');
});

test('when the profile cannot load, Settings says so and offers to try again instead of empty fields', async ({ page }) => {
  test.setTimeout(90_000);
  await newUserOn(page, '/dashboard', { tag: 'rv14-profile-fail', name: 'Grace Hopper' });
  await failProcedure(page, 'account.profile.get');
  await page.clock.install();
  await page.goto('/dashboard/settings');
  const form = page.getByRole('form', { name: 'Profile' });
  const failed = form.getByRole('alert').filter({ hasText: 'Could not load your profile.' });
  // After the query's retries, their back-off jumped over on the page's clock.
  await passesOnPageClock(page, { stepMs: 4_000, withinMs: 40_000 }, () => expect(failed).toBeVisible({ timeout: 750 }));
  await expect(form.getByLabel('Full Name')).toHaveCount(0);
  await page.unroute('**/api/trpc/*account.profile.get*');
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(form.getByLabel('Full Name')).toHaveValue('Grace Hopper');
  await expect(form.getByLabel('Full Name')).toBeEnabled();
});

test("when the team cannot load, its tabs do not count 'Team Members (0)'", async ({ page }) => {
  test.setTimeout(90_000);
  await newUserOn(page, '/dashboard', { tag: 'rv14-team-fail', plan: 'pro' });
  await failProcedure(page, 'team.members', 'team.invitations');
  await page.clock.install();
  await page.goto('/dashboard/team');
  // After the query's retries, their back-off jumped over on the page's clock.
  await passesOnPageClock(page, { stepMs: 4_000, withinMs: 40_000 }, () => expect(page.getByText('Failed to load team data').first()).toBeVisible({ timeout: 750 }));
  await expect(page.getByRole('tab', { name: 'Team Members', exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending Invitations', exact: true })).toBeVisible();
  await page.unrouteAll();
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Team Members (1)' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending Invitations (0)' })).toBeVisible();
});

test('a Documentation tab is a link: reload keeps it, Back returns to the previous one', async ({ page }) => {
  await page.goto('/documentation');
  const tabs = page.getByRole('tablist', { name: 'Documentation sections' });
  await expect(tabs.getByRole('tab', { name: 'Quick Start' })).toHaveAttribute('aria-selected', 'true');
  await tabs.getByRole('tab', { name: 'Examples' }).click();
  await tabs.getByRole('tab', { name: 'Best Practices' }).click();
  await expect(page).toHaveURL(/\/documentation#best-practices$/);
  await page.reload();
  await expect(tabs.getByRole('tab', { name: 'Best Practices' })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expect(page).toHaveURL(/\/documentation#examples$/);
  await expect(tabs.getByRole('tab', { name: 'Examples' })).toHaveAttribute('aria-selected', 'true');
  await page.goForward();
  await expect(tabs.getByRole('tab', { name: 'Best Practices' })).toHaveAttribute('aria-selected', 'true');
  // A section's own link still opens its tab (the API Reference's errors).
  await page.goto('/documentation#error-invalid_api_key');
  await expect(tabs.getByRole('tab', { name: 'API Reference' })).toHaveAttribute('aria-selected', 'true');
});

test("Billing's Payments table writes its Date as its Period and the other tables do (Nov 24, 2026)", async ({ page }) => {
  await newUserOn(page, '/dashboard/billing', { tag: 'rv14-payments-date', plan: 'pro' });
  const row = page.getByTestId('payments').getByRole('row').nth(1);
  await expect(row.getByRole('cell').nth(2)).toBeVisible();
  const [date, , period] = await row.getByRole('cell').allInnerTexts();
  expect(period).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4} – [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  expect(date).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
});

test.describe('in a browser set to German', () => {
  test.use({ locale: 'de-DE' });
  test('Team and API Keys write their dates as the other pages do (Nov 24, 2026), not half in German (24. Nov. 2026)', async ({ page }) => {
    await newUserOn(page, '/dashboard', { tag: 'rv18-locale', plan: 'starter' });
    const res = await page.request.post('/api/trpc/apiKeys.create', { data: { name: 'CRM sync' }, headers: { 'content-type': 'application/json' } });
    expect(res.ok()).toBeTruthy();
    const usDate = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;
    // Billing (as every page writing a day) says "Nov 24, 2026" whatever the browser's language.
    await page.goto('/dashboard/billing');
    await expect(page.getByText(/Renews on [A-Z][a-z]+ \d{1,2}, \d{4}/)).toBeVisible();
    await page.goto('/dashboard/team');
    await expect(page.getByTestId('member-row').first().locator('td').nth(3)).toHaveText(usDate);
    await page.goto('/dashboard/api-keys');
    await expect(page.getByTestId('api-key-row').first().locator('td').nth(3)).toHaveText(usDate);
  });
});
