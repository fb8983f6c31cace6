// Validate Email end to end: the browser, the server, the probe daemon and the simulated mail
// internet (tests/mailworld), on a paid plan (full SMTP) and on Free (syntax + MX only).
import { expect, test, type Page } from '@playwright/test';
import { upgradeTo } from '../fixtures/e2e/paid-plan';
import { withE2eDb } from './db';
import { SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

/** Screenshots show the page, not the toasts floating over it. */
const HIDE_TOASTS = '[data-sonner-toaster] { display: none !important; }';

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).last();

async function validate(page: Page, email: string) {
  await page.getByRole('textbox', { name: 'Email address' }).fill(email);
  await page.getByRole('button', { name: 'Validate Email' }).click();
  const card = page.getByTestId('validation-result');
  await expect(card.getByRole('heading', { name: email })).toBeVisible({ timeout: 20_000 });
  return card;
}

const check = (page: Page, name: string) => page.getByTestId(`check-${name}`);

test('on a paid plan valid, invalid and risky addresses are each shown right, with the reason', async ({ page }) => {
  test.setTimeout(90_000);
  await signUpAndVerify(page, { email: uniqueEmail('e2e-validate') });
  await upgradeTo(page, 'starter');
  await page.goto('/dashboard/validate');
  // 500 free credits plus the Starter plan's 10,000.
  await expect(page.getByTestId('credits-left')).toContainText('10,500 credits left');

  // The empty-input message, without a request.
  await page.getByRole('button', { name: 'Validate Email' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter an email address');
  await expect(page.getByRole('textbox', { name: 'Email address' })).toBeFocused();

  // Valid: every tick, a high score, the MX hosts and the domain age.
  let card = await validate(page, 'alice@normal.mailworld.test');
  await expect(toast(page, 'Email is valid')).toContainText('Validation Complete');
  await expect(card.getByTestId('result-badge')).toHaveText('Valid');
  for (const c of ['syntax', 'dns', 'mx-records', 'smtp']) await expect(check(page, c)).toHaveAttribute('data-state', 'pass');
  await expect(card.getByRole('img', { name: /Deliverability score (7\d|8\d|9\d|100)%/ })).toBeVisible();
  await expect(card.getByRole('list', { name: 'MX hosts' })).toContainText('normal.mailworld.test');
  await expect(card.getByTestId('domain-age')).toHaveText(/^[\d,]+ days?$/);
  await expect(card.getByTestId('result-explanation')).toContainText('accepted this mailbox');
  await expect(page.getByTestId('smtp-not-checked')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/validate-valid.png`, fullPage: true, style: HIDE_TOASTS });

  // Invalid: the server's own words and code.
  card = await validate(page, 'ghost@normal.mailworld.test');
  await expect(toast(page, 'Email is invalid')).toContainText('Validation Complete');
  await expect(card.getByTestId('result-badge')).toHaveText('Invalid');
  await expect(check(page, 'smtp')).toHaveAttribute('data-state', 'fail');
  await expect(card.getByTestId('result-explanation')).toContainText('said this mailbox does not exist (550 5.1.1)');
  await expect(card.getByRole('img', { name: 'Deliverability score 0%' })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/validate-invalid.png`, fullPage: true, style: HIDE_TOASTS });

  // Risky: a catch-all domain.
  card = await validate(page, 'alice@catch-all.mailworld.test');
  await expect(toast(page, 'Email is risky')).toContainText('Validation Complete');
  await expect(card.getByTestId('result-badge')).toHaveText('Risky');
  await expect(card).toContainText('Catch-all domain');
  await expect(card.getByTestId('result-explanation')).toContainText('accepts every address');

  // Role-based and disposable warnings.
  card = await validate(page, 'info@normal.mailworld.test');
  await expect(card).toContainText('Role-based address');
  card = await validate(page, 'alice@mailinator.com');
  await expect(card.getByTestId('result-badge')).toHaveText('Risky');
  await expect(card).toContainText('Disposable email provider');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/validate-risky.png`, fullPage: true, style: HIDE_TOASTS });

  // Not an address at all: invalid on syntax, nothing else asked.
  card = await validate(page, 'not-an-email');
  await expect(card.getByTestId('result-badge')).toHaveText('Invalid');
  await expect(check(page, 'syntax')).toHaveAttribute('data-state', 'fail');
  await expect(check(page, 'smtp')).toHaveAttribute('data-state', 'skipped');
  await expect(page.getByTestId('credits-left')).toContainText('10,494 credits left');

  // The Overview counts them and lists them newest first.
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByTestId('stat-month')).toContainText('6');
  const activity = page.getByTestId('recent-activity');
  await expect(activity.getByRole('listitem').first()).toContainText('not-an-email');
  await expect(activity).toContainText('alice@mailinator.com');
  await expect(page.locator('[data-testid="checklist-item"][data-done="true"]')).toHaveCount(2);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/dashboard-overview-active.png`, fullPage: true, style: HIDE_TOASTS });
});

test('on the Free plan the mailbox is not checked, which the page says, and a typo is suggested', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-validate-free') });
  await page.goto('/dashboard/validate');
  await expect(page.getByText('The mailbox itself (SMTP) is not checked.')).toBeVisible();

  const card = await validate(page, 'alice@normal.mailworld.test');
  await expect(card.getByTestId('result-badge')).toHaveText('Risky');
  await expect(check(page, 'mx-records')).toHaveAttribute('data-state', 'pass');
  await expect(check(page, 'smtp')).toHaveAttribute('data-state', 'skipped');
  await expect(check(page, 'smtp')).toContainText('Not checked on your plan');
  await expect(page.getByTestId('smtp-not-checked')).toContainText('The mailbox (SMTP) was not checked.');
  await expect(page.getByTestId('smtp-not-checked').getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/dashboard/billing');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/validate-free.png`, fullPage: true, style: HIDE_TOASTS });

  // "Did you mean …?" fills the field when clicked.
  const typo = await validate(page, 'someone@gmial.com');
  await expect(typo.getByTestId('result-badge')).toHaveText('Invalid');
  await typo.getByRole('button', { name: 'someone@gmail.com' }).click();
  await expect(page.getByRole('textbox', { name: 'Email address' })).toHaveValue('someone@gmail.com');
  await expect(page.getByRole('textbox', { name: 'Email address' })).toBeFocused();
});

test('with no credits left the check is refused with a clear message', async ({ page }) => {
  const email = uniqueEmail('e2e-validate-empty');
  await signUpAndVerify(page, { email });
  // The dashboard's checks are rate-limited per account (30 per 10 s on Free), so 500 checks take
  // minutes: leave one credit in the database and spend it through the product.
  await withE2eDb((c) => c.query(`update account set credits_balance = 1 from "user" u where u.id = account.owner_id and u.email = $1`, [email]));
  const spend = await page.evaluate(async () => {
    const run = (address: string) => fetch('/api/trpc/validation.check', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: address }) }).then((r) => r.status);
    return Promise.all(['user1@nxdomain.mailworld.test', 'user2@nxdomain.mailworld.test'].map(run));
  });
  expect(spend.sort()).toEqual([200, 402]);
  await page.goto('/dashboard/validate');
  await expect(page.getByTestId('credits-left')).toContainText('0 credits left');
  await page.getByRole('textbox', { name: 'Email address' }).fill('alice@normal.mailworld.test');
  await page.getByRole('button', { name: 'Validate Email' }).click();
  await expect(toast(page, 'Validation Failed')).toContainText('You have no validation credits left');
  await expect(page.getByTestId('validation-result')).toHaveCount(0);
});

test("when no answer comes from the server (a proxy's HTML error page, no connection) Validation Failed says 'An error occurred during validation'", async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-validate-noanswer') });
  await page.goto('/dashboard/validate');
  const field = page.getByRole('textbox', { name: 'Email address' });
  await field.fill('alice@normal.mailworld.test');

  // A gateway in front of the app answers with its own HTML page (deploy, timeout).
  await page.route('**/api/trpc/*validation.check*', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }));
  await page.getByRole('button', { name: 'Validate Email' }).click();
  await expect(toast(page, 'Validation Failed')).toContainText('An error occurred during validation');
  await expect(toast(page, 'Validation Failed')).not.toContainText('JSON');
  await page.unroute('**/api/trpc/*validation.check*');

  // The connection drops.
  await page.route('**/api/trpc/*validation.check*', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Validate Email' }).click();
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Validation Failed' })).toHaveCount(2);
  await expect(toast(page, 'Validation Failed')).toContainText('An error occurred during validation');
  await expect(toast(page, 'Validation Failed')).not.toContainText('Failed to fetch');
  await expect(page.getByTestId('validation-result')).toHaveCount(0);
});
