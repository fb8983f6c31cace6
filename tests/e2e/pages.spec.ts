// Every public route and every dashboard route: each carries the spec's key texts, has no console
// errors, and gets a full-page screenshot in tests/e2e/__screenshots__/<name>.png to look at.
import { expect, test, type Page } from '@playwright/test';
import { SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

/** Screenshots show the page, not the toasts floating over it. */
const HIDE_TOASTS = '[data-sonner-toaster] { display: none !important; }';

interface PageCheck {
  name: string;
  path: string;
  /** Texts the spec requires on the page (substring, case-sensitive). */
  texts: string[];
  /** Links the spec requires: [accessible name, href]. */
  links?: Array<[string | RegExp, string]>;
}

const PUBLIC: PageCheck[] = [
  {
    name: 'landing',
    path: '/',
    texts: ['Enterprise-Grade Email Validation', 'Start Free with 500 Validations', 'View Documentation', 'No credit card required', 'Most Popular'],
    links: [
      ['Features', '/features'],
      ['Pricing', '/pricing'],
      ['Docs', '/documentation'],
      ['Sign In', '/auth'],
      ['Start Free', '/auth'],
      ['API Docs', '/documentation'],
      ['About', '/about'],
      ['Contact', '/contact'],
      ['Integrations', '/dashboard/integrations'],
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['Security', '/security'],
    ],
  },
  { name: 'features', path: '/features', texts: ['SMTP', 'Disposable', 'Role-based', 'Catch-all', 'Domain age', 'Deliverability score'] },
  { name: 'pricing', path: '/pricing', texts: ['Free', 'Starter', 'Pro', 'Business', 'Enterprise', '$19', '$79', '$199', 'Contact Sales', '20%'] },
  { name: 'documentation', path: '/documentation', texts: ['Quick Start', 'API Reference', 'Examples', 'Best Practices', '/v1/validate'] },
  { name: 'about', path: '/about', texts: ['2024', '10,000+', 'six continents', '99.9%'] },
  { name: 'contact', path: '/contact', texts: ['Mon-Fri 9am-6pm EST', 'Contact Sales', '24 hours'] },
  { name: 'privacy', path: '/privacy', texts: ['90 days', 'GDPR', 'CCPA'] },
  { name: 'terms', path: '/terms', texts: ['14 days', '30 days', 'One free account', '99.9%', 'renew automatically', 'suspend'] },
  { name: 'security', path: '/security', texts: ['TLS 1.3', 'AES-256', 'SOC 2', 'GDPR', 'CCPA', 'hash'] },
  { name: 'not-found', path: '/no/such/page', texts: ['Oops! Page not found'] },
];

const DASHBOARD: PageCheck[] = [
  {
    name: 'dashboard-overview',
    path: '/dashboard',
    texts: ['Credits Balance', '500', 'Current Plan', 'Free', '500 validations, one-time', 'This Month', '0.0% of quota used', 'Quick Action', 'Recent Activity', 'No recent activity yet', 'Getting Started', 'Account created', 'Validate your first email', 'Generate an API key'],
    links: [['Validate Email', '/dashboard/validate']],
  },
  { name: 'dashboard-validate', path: '/dashboard/validate', texts: ['Validate Email', 'Email address', 'The mailbox itself (SMTP) is not checked'] },
  { name: 'dashboard-bulk', path: '/dashboard/bulk', texts: ['CSV Upload Not Available', 'View Plans'] },
  { name: 'dashboard-auto-revalidation', path: '/dashboard/auto-revalidation', texts: ['Auto Revalidation', 'New Schedule'] },
  { name: 'dashboard-history', path: '/dashboard/history', texts: ['History'] },
  { name: 'dashboard-api-keys', path: '/dashboard/api-keys', texts: ['API Keys'] },
  { name: 'dashboard-team', path: '/dashboard/team', texts: ['Team Members'] },
  { name: 'dashboard-integrations', path: '/dashboard/integrations', texts: ['Webhooks', 'Zapier', 'Custom API', 'More Coming Soon'] },
  { name: 'dashboard-billing', path: '/dashboard/billing', texts: ['Free', 'Starter', 'Pro', 'Business', 'Enterprise', 'Most Popular', 'Current'] },
  { name: 'dashboard-documentation', path: '/dashboard/documentation', texts: ['Quick Start', 'API Reference', 'Examples', 'Best Practices'] },
  { name: 'dashboard-settings', path: '/dashboard/settings', texts: ['Profile', 'Full Name', 'Company Name', 'Change Password', 'Enable 2FA', 'Sign Out', 'Delete Account'] },
];

/** Collects uncaught page errors and console errors while a page is visited. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // The geolocation fake and aborted prefetches may log network noise; real script errors do not look like this.
    if (m.type() === 'error' && !/Failed to load resource|net::ERR_/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  return errors;
}

async function visit(page: Page, c: PageCheck): Promise<void> {
  await page.goto(c.path);
  await page.waitForLoadState('networkidle');
  const body = page.locator('body');
  for (const text of c.texts) await expect(body, `${c.path} should show "${text}"`).toContainText(text);
  for (const [name, href] of c.links ?? []) {
    await expect(page.getByRole('link', { name, exact: typeof name === 'string' }).first(), `${c.path} should link ${String(name)} to ${href}`).toHaveAttribute('href', href);
  }
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${c.name}.png`, fullPage: true, style: HIDE_TOASTS });
}

test('the landing footer has a support contact link', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('contentinfo').locator('a[href^="mailto:"]').first()).toBeVisible();
});

/** Visits `checks` in two tabs of the page's session at once, half each (every page loaded afresh); `after` runs after each visit. */
async function visitInTwoTabs(page: Page, checks: PageCheck[], errors: string[], after?: (tab: Page) => Promise<void>): Promise<void> {
  const other = await page.context().newPage();
  const otherErrors = watchErrors(other);
  const half = Math.ceil(checks.length / 2);
  const walk = async (tab: Page, list: PageCheck[]) => {
    for (const c of list) {
      await visit(tab, c);
      await after?.(tab);
    }
  };
  await Promise.all([walk(page, checks.slice(0, half)), walk(other, checks.slice(half))]);
  await other.close();
  errors.push(...otherErrors);
}

test('every public page carries the spec texts', async ({ page }) => {
  const errors = watchErrors(page);
  await visitInTwoTabs(page, PUBLIC, errors);
  expect(errors).toEqual([]);
});

test('every dashboard page carries the spec texts for a new Free account', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page, { email: uniqueEmail('e2e-pages'), name: 'Page Tour' });
  const errors = watchErrors(page);
  await visitInTwoTabs(page, DASHBOARD, errors, (tab) => expect(tab.getByRole('link', { name: 'Overview' })).toBeVisible());
  expect(errors).toEqual([]);
});

test('dashboard pages send a signed-out visitor to /auth', async ({ page }) => {
  for (const c of DASHBOARD) {
    await page.goto(c.path);
    await page.waitForURL('**/auth');
  }
});

test('the public pages work on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const c of [PUBLIC[0]!, PUBLIC[2]!, PUBLIC[5]!]) {
    await page.goto(c.path);
    await expect(page.locator('body')).toContainText(c.texts[0]!);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${c.path} scrolls sideways on a phone`).toBeLessThanOrEqual(1);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${c.name}-mobile.png`, fullPage: true, style: HIDE_TOASTS });
  }
});
