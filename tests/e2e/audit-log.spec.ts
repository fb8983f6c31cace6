// Settings → Audit Log for an owner: plan change, API key, schedule and profile entries, newest
// first, with a category filter and pages.
import { expect, test, type Page } from '@playwright/test';
import { upgradeTo } from '../fixtures/e2e/paid-plan';
import { SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

const HIDE_TOASTS = '[data-sonner-toaster] { display: none !important; }';

async function call(page: Page, path: string, input: unknown) {
  const res = await page.request.post(`/api/trpc/${path}`, { data: input, headers: { 'content-type': 'application/json' } });
  expect(res.ok(), `${path}: ${res.status()}`).toBeTruthy();
}

test('an owner reads the audit log in Settings, filters it and pages through it', async ({ page }) => {
  const email = uniqueEmail('e2e-audit');
  await signUpAndVerify(page, { email, name: 'Audrey Owner' });
  await upgradeTo(page, 'pro');
  await call(page, 'apiKeys.create', { name: 'CRM sync' });
  await call(page, 'schedules.create', { name: 'Newsletter list', emails: ['a@example.com', 'b@example.com'] });
  await call(page, 'account.profile.update', { full_name: 'Audrey Owner', company_name: 'Acme Inc.' });

  await page.goto('/dashboard/settings');
  const log = page.getByTestId('audit-log');
  await expect(log.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  const actions = log.getByTestId('audit-action');
  await expect(actions.first()).toHaveText('Profile updated');
  await expect(log).toContainText('Schedule created');
  await expect(log).toContainText('API key created');
  // The upgrade is a subscription now: its first charge (a Razorpay webhook, done by the system) is logged.
  await expect(log).toContainText('Subscription charged');
  // Its facts read as money and dates: $79.00 (not 7900, the amount in cents) and the period's days, not ISO text.
  const charge = log.getByTestId('audit-row').filter({ has: page.getByTestId('audit-action').getByText('Subscription charged', { exact: true }) });
  await expect(charge).toContainText('$79.00');
  await expect(charge).not.toContainText('7900');
  await expect(charge).not.toContainText(/\d{4}-\d{2}-\d{2}T/);
  await expect(log).not.toContainText('Deleted user');
  await expect(log).toContainText(email);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-audit-log.png`, fullPage: true, style: HIDE_TOASTS });
  await log.screenshot({ path: `${SCREENSHOT_DIR}/settings-audit-log-card.png`, style: HIDE_TOASTS });

  await log.getByLabel('Category').selectOption('keys');
  await expect(actions).toHaveCount(1);
  await expect(actions.first()).toHaveText('API key created');
  await log.getByLabel('Category').selectOption('');
  await expect(log.getByTestId('audit-page')).toContainText('Page 1 of 1');
});
