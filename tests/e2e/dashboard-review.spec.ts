// Dashboard screens measured against the spec in a real browser: what an owner, admin or member
// sees on a free or paid plan, on a desktop and on a 375 px phone.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { fixture, upgradeTo } from '../fixtures/e2e/paid-plan';
import { withE2eDb } from './db';
import { followMailLink, inviteFromTeam, newUserOn, SCREENSHOT_DIR, signUpAndVerify, submitSignUp, uniqueEmail } from './helpers';

/** The colour of an element's top border, as the browser paints it. */
function borderColor(el: Locator): Promise<string> {
  return el.evaluate((e) => getComputedStyle(e).borderTopColor);
}

/** Follows a sidebar link (a client-side move, so the page keeps what it has loaded). */
async function sidebarTo(page: Page, label: string) {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: label, exact: true }).click();
}

test('the plan notices on API Keys and Integrations have a light brand border, not a black one', async ({ page }) => {
  await newUserOn(page, '/dashboard/api-keys', { tag: 'rv-dash-border' });
  const keysNotice = page.getByTestId('api-keys-plan-notice');
  await expect(keysNotice).toContainText('API access starts on the Starter plan');
  // brand-200 (#c7d2fe); an undefined theme colour left the border in the text colour (near black).
  expect(await borderColor(keysNotice)).toBe('rgb(199, 210, 254)');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-api-keys-free.png` });

  await page.goto('/dashboard/integrations');
  const banner = page.getByTestId('integrations-upgrade');
  await expect(banner).toContainText('Integrations are available on the Enterprise plan');
  expect(await borderColor(banner)).toBe('rgb(199, 210, 254)');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-integrations-free.png` });
});

test('after creating an API key and after upgrading, Overview shows the key step done and the new plan at once', async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv-dash-fresh' });
  await expect(page.getByTestId('stat-plan')).toContainText('Free');
  const keyStep = page.getByTestId('checklist-item').filter({ hasText: 'Generate an API key' });
  await expect(keyStep).toHaveAttribute('data-done', 'false');

  // Upgrade to Starter from Billing, then back to Overview by the sidebar.
  await sidebarTo(page, 'Billing');
  await page.getByRole('button', { name: 'Upgrade to Starter' }).click();
  await page.getByRole('dialog', { name: 'Mailvet checkout' }).getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
  await expect(page.getByText("You've been upgraded to the Starter plan.")).toBeVisible();
  await sidebarTo(page, 'Overview');
  await expect(page.getByTestId('stat-plan')).toContainText('Starter');
  await expect(page.getByTestId('stat-plan')).toContainText('10,000 / month');

  // Create a key, close its dialog, back to Overview: the checklist step is done.
  await sidebarTo(page, 'API Keys');
  await page.getByRole('button', { name: 'Create API Key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API Key' });
  await create.getByLabel('Key Name').fill('Fresh key');
  await create.getByLabel('Key Name').press('Enter');
  await expect(page.getByRole('dialog', { name: 'API Key Created' }).getByRole('button', { name: 'Done' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await sidebarTo(page, 'Overview');
  await expect(keyStep).toHaveAttribute('data-done', 'true');
  await expect(page.getByText('2 of 3 done')).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-overview-fresh.png`, fullPage: true });
});

test("the team upgrade dialog agrees with the seat rule: invitations take no seat until they are accepted", async ({ page }) => {
  await newUserOn(page, '/dashboard/team', { tag: 'rv-dash-seats' });
  await expect(page.getByTestId('seat-summary')).toContainText('An invitation takes a seat when it is accepted.');
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const upgrade = page.getByRole('dialog', { name: 'Upgrade to add team members' });
  await expect(upgrade).toContainText('Your current plan allows 1 team member(s) total');
  // The server counts members only (spec section 6); the dialog said pending invitations count too.
  await expect(upgrade).not.toContainText('pending invitations both count');
  await expect(upgrade).toContainText('an invitation takes one when it is accepted');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-team-upgrade.png` });
});

test('on a 320 px phone the webhook delivery filters fit inside their card, the status filter showing its whole label', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  await newUserOn(page, '/dashboard/api-keys', { tag: 'rv-dash-filters', plan: 'pro' });
  const card = page.getByTestId('webhook-deliveries');
  await card.scrollIntoViewIfNeeded();
  const box = (await card.boundingBox())!;
  for (const name of ['Filter by event', 'Filter by status']) {
    const filter = card.getByRole('combobox', { name });
    await expect(filter).toBeVisible();
    const f = (await filter.boundingBox())!;
    // The longest event name (schedule.run_completed) pushed the status filter past the card's edge.
    expect(f.x + f.width, `${name} ends inside the card`).toBeLessThanOrEqual(box.x + box.width);
  }
  // 'All statuses' read 'All statuse': each filter is at least as wide as the choice it shows needs (a
  // copy holding only that choice, free to take its own width, measures it).
  for (const name of ['Filter by event', 'Filter by status']) {
    const [shown, needed] = await card.getByRole('combobox', { name }).evaluate((el: HTMLSelectElement) => {
      const copy = el.cloneNode(true) as HTMLSelectElement;
      for (const o of [...copy.options]) if (o.value !== el.value) o.remove();
      copy.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;flex:none';
      el.parentElement!.appendChild(copy);
      const w = copy.getBoundingClientRect().width;
      copy.remove();
      return [el.getBoundingClientRect().width, w];
    });
    expect(shown, `${name} is wide enough for its label`).toBeGreaterThanOrEqual(needed - 0.5);
  }
  await card.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-webhook-filters-320.png` });
});

test('on a 375 px phone the navigation drawer is a named dialog that Escape closes, returning focus to its toggle', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await newUserOn(page, '/dashboard', { tag: 'rv-dash-drawer' });
  const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'Navigation' });
  await expect(drawer.getByRole('link', { name: 'Validate Email' })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-drawer-375.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(toggle).toBeFocused();
});

test('opening each dashboard page logs no console error or warning', async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv-dash-console', plan: 'pro' });
  const logged: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') logged.push(`${page.url()} ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => logged.push(`${page.url()} pageerror: ${e.message}`));
  for (const path of ['/dashboard', '/dashboard/validate', '/dashboard/bulk', '/dashboard/auto-revalidation', '/dashboard/history', '/dashboard/api-keys', '/dashboard/team', '/dashboard/integrations', '/dashboard/billing', '/dashboard/documentation', '/dashboard/settings']) {
    await page.goto(path);
    // One page title per page: the header's (a second h1 on Documentation confused screen readers' outline).
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  // React Router warned "No `HydrateFallback` element provided" on every page load.
  expect(logged).toEqual([]);
});

test("a new full name saved in Settings shows at once in Overview's greeting and on the Team list", async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv-dash-rename', name: 'Alice Old' });
  await expect(page.getByRole('heading', { name: 'Welcome back, Alice' })).toBeVisible();
  await sidebarTo(page, 'Team');
  await expect(page.getByTestId('member-row')).toContainText('Alice Old');
  await sidebarTo(page, 'Settings');
  await page.getByLabel('Full Name').fill('Bob New');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  await sidebarTo(page, 'Overview');
  await expect(page.getByRole('heading', { name: 'Welcome back, Bob' })).toBeVisible();
  await sidebarTo(page, 'Team');
  await expect(page.getByTestId('member-row')).toContainText('Bob New');
});

test('on a 375 px phone the Team tabs and the empty API keys table keep their text inside the card', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await newUserOn(page, '/dashboard/api-keys', { tag: 'rv-dash-phone-tables', plan: 'pro' });
  // The keys table is wider than the phone and scrolls sideways; its empty message was centred on
  // the whole table, so "Create a key to start validating from your own code." ran off the card.
  const table = page.getByRole('table', { name: 'API keys' });
  const message = table.getByText('Create a key to start validating from your own code.');
  await expect(message).toBeVisible();
  const card = (await table.locator('xpath=../..').boundingBox())!;
  const text = (await message.boundingBox())!;
  expect(text.x).toBeGreaterThanOrEqual(card.x);
  expect(text.x + text.width).toBeLessThanOrEqual(card.x + card.width);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-api-keys-empty-375.png` });

  // The Team tabs ran past the page's right padding; they now stay within the members table's width.
  await page.goto('/dashboard/team');
  const pending = page.getByRole('tab', { name: 'Pending Invitations (0)' });
  await expect(pending).toBeVisible();
  const list = (await page.getByRole('tablist', { name: 'Team' }).boundingBox())!;
  const members = (await page.getByRole('table').boundingBox())!;
  expect(list.x + list.width).toBeLessThanOrEqual(members.x + members.width + 1);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-team-375.png` });
});

test('on a 375 px phone a finished job\'s results open without console warnings (the donut is not drawn where it is hidden)', async ({ page }) => {
  await newUserOn(page, '/dashboard/bulk', { tag: 'rv-dash-results', plan: 'starter' });
  await page.getByLabel('CSV file').setInputFiles(fixture('contacts.csv'));
  await page.getByRole('button', { name: 'Upload and Validate' }).click();
  await page.waitForURL('**/dashboard/history');
  const row = page.getByTestId('job-row').filter({ hasText: 'contacts.csv' });
  await expect(row.getByTestId('job-status')).toHaveText('Completed', { timeout: 60_000 });

  const logged: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') logged.push(`${m.type()}: ${m.text()}`);
  });
  const results = page.getByRole('region', { name: 'Result breakdown' });
  // A desktop shows the tiles and the donut (its total in the middle)…
  await row.getByRole('button', { name: 'View Results' }).click();
  await expect(results.getByTestId('breakdown-valid')).toBeVisible();
  await expect(results.getByText('results', { exact: true })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // …a phone the tiles only.
  await page.setViewportSize({ width: 375, height: 800 });
  await row.getByRole('button', { name: 'View Results' }).click();
  await expect(results.getByTestId('breakdown-valid')).toBeVisible();
  await expect(results.getByText('results', { exact: true })).toBeHidden();
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-results-375.png` });
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // recharts warned "The width(0) and height(0) of chart should be greater than 0" twice: the donut
  // was drawn inside a box that phones hide.
  expect(logged).toEqual([]);
});

test('Getting Started does not promise 500 free validations to an account that started without them', async ({ page }) => {
  // Free validations are given once per person: after the account was deleted, the new one starts at 0.
  const email = await newUserOn(page, '/dashboard', { tag: 'rv-dash-no-free' });
  await withE2eDb(async (c) => {
    await c.query(`delete from organization where id in (select m."organizationId" from member m join "user" u on u.id = m."userId" where u.email = $1)`, [email]);
  });
  await page.goto('/dashboard');
  await page.getByRole('alert').filter({ hasText: 'Your account was deleted' }).getByRole('button', { name: 'Start a paid plan' }).click();
  await page.waitForURL('**/dashboard/billing');
  await sidebarTo(page, 'Overview');
  await expect(page.getByTestId('stat-credits')).toContainText('0');
  const created = page.getByTestId('checklist-item').filter({ hasText: 'Account created' });
  await expect(created).toHaveAttribute('data-done', 'true');
  await expect(created).not.toContainText('500 free validations');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-overview-no-free.png`, fullPage: true });
});

test("on a 1280 px desktop the Payments table shows each payment's Receipt link without scrolling sideways", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await newUserOn(page, '/dashboard/billing', { tag: 'rv-dash-receipt', plan: 'pro' });
  const table = page.getByTestId('payments');
  const receipt = table.getByRole('link', { name: 'Receipt' });
  await expect(receipt).toBeVisible();
  // The period ("November 24, 2026 – December 24, 2026") made the table wider than its card, so
  // the Receipt link sat past the card's right edge until the table was scrolled sideways.
  const scroller = table.locator('xpath=..');
  expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-payments-1280.png`, fullPage: true });
});

test('a subscribed owner is asked before a plan change is scheduled for the renewal, and Keep my plan or Escape schedules nothing', async ({ page }) => {
  await newUserOn(page, '/dashboard/billing', { tag: 'rv-dash-schedule-change', plan: 'pro' });
  await expect(page.getByTestId('renewal')).toContainText('Renews on');
  const upgrade = page.getByRole('button', { name: 'Upgrade to Business' });
  // One click scheduled the Business price from the renewal on, with nothing to confirm or undo.
  await upgrade.click();
  const ask = page.getByRole('dialog', { name: 'Change to the Business plan at renewal?' });
  await expect(ask).toContainText('Nothing is charged now. Your Pro plan runs until');
  await expect(ask).toContainText('from then on your subscription is the Business plan, billed monthly at its price.');
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-billing-change-at-renewal.png` });
  await ask.getByRole('button', { name: 'Keep my plan' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await upgrade.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Change to the Business plan at renewal?' }).getByRole('button', { name: 'Schedule change' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(upgrade).toBeFocused();
  await page.reload();
  await expect(page.getByTestId('renewal')).toContainText('Renews on');
  await expect(page.getByTestId('renewal')).not.toContainText('then changes');

  await upgrade.click();
  await page.getByRole('dialog', { name: 'Change to the Business plan at renewal?' }).getByRole('button', { name: 'Schedule change' }).click();
  await expect(page.getByText('Plan change scheduled')).toBeVisible();
  await expect(page.getByTestId('renewal')).toContainText('then changes to the Business plan');
});

test('an admin who removes themselves is told they leave, and the page then shows their own account, not the old plan', async ({ browser }) => {
  const owner = await (await browser.newContext()).newPage();
  await signUpAndVerify(owner, { email: uniqueEmail('rv-dash-leave-owner'), name: 'Olga Owner' });
  await upgradeTo(owner, 'pro');
  const adminEmail = uniqueEmail('rv-dash-leave-admin');
  await owner.goto('/dashboard/team');
  await inviteFromTeam(owner, adminEmail, 'admin');

  const page = await (await browser.newContext()).newPage();
  await followMailLink(page, adminEmail, "You're invited", /invitation=/);
  await submitSignUp(page, { name: 'Adam Admin', email: adminEmail });
  await expect(page.getByText('Check Your Email!')).toBeVisible();
  await followMailLink(page, adminEmail, 'Verify your email', /verify-email/);
  await page.waitForURL('**/dashboard/team**');
  await expect(page.getByText('Invitation Accepted')).toBeVisible();
  await expect(page.getByTestId('seat-summary')).toContainText('on the Pro plan');

  await page.getByRole('button', { name: `Remove ${adminEmail}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove team member?' });
  await expect(confirm).toContainText('You will leave this account straight away');
  await confirm.getByRole('button', { name: 'Remove Member' }).click();
  await expect(page.getByText('Member Removed')).toBeVisible();
  // The team list became their own account's while the plan line still read the old account's Pro.
  await expect(page.getByTestId('seat-summary')).toContainText('on the Free plan');
  await expect(page.getByTestId('member-row')).toHaveCount(1);
  await expect(page.getByTestId('member-row')).toContainText('Owner');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-dash-admin-left.png`, fullPage: true });
});
