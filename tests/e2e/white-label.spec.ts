import { chromium, expect, test, type Page } from '@playwright/test';
import { withE2eDb } from './db';
import { newUserOn, SCREENSHOT_DIR, signOut, submitSignIn, submitSignUp, uniqueEmail } from './helpers';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64" rx="12" fill="#0f766e"/><circle cx="32" cy="32" r="14" fill="#fff"/></svg>';

/** A new Business owner on Settings who uploaded the SVG logo and saved the brand colour; returns the address and the White-label card. */
async function brandedBusiness(page: Page, tag: string) {
  const email = await newUserOn(page, '/dashboard/settings', { tag, plan: 'business' });
  const card = page.getByTestId('white-label');
  await card.getByLabel('Logo (PNG or SVG, up to 256 KB)').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SVG) });
  await expect(card.getByRole('img', { name: 'Current logo' })).toBeVisible();
  await card.getByLabel('Brand colour').fill('#0f766e');
  await card.getByRole('button', { name: 'Save colour' }).click();
  await expect(page.getByText('Branding saved')).toBeVisible();
  return { email, card };
}

test('white-label is locked below Business with the upgrade dialog', async ({ page }) => {
  await newUserOn(page, '/dashboard/settings', { tag: 'e2e-wl-free' });
  await page.getByTestId('white-label-locked').getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('dialog')).toContainText('White-label is available on the Business and Enterprise plans.');
});

test('Business: logo (SVG rasterised), brand colour and custom domain record; the dashboard carries the brand', async ({ page }) => {
  const { card } = await brandedBusiness(page, 'e2e-wl-biz');
  await card.getByLabel('Custom domain').fill('app.acme-e2e.test');
  await card.getByRole('button', { name: 'Save domain' }).click();
  await expect(page.getByTestId('domain-record')).toContainText('TXT _mailvet-verify.app.acme-e2e.test "mailvet-verify=');
  await expect(page.getByTestId('brand').locator('img')).toBeVisible();
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/white-label-settings.png`, fullPage: true });
});

test('the sign-in page served on a verified custom domain carries its logo, colour and (Enterprise) product name', async ({ page }, testInfo) => {
  const { email, card } = await brandedBusiness(page, 'e2e-wl-host');
  const domain = `signin-${Date.now()}.acme-e2e.test`;
  await card.getByLabel('Custom domain').fill(domain);
  await card.getByRole('button', { name: 'Save domain' }).click();
  await expect(page.getByTestId('domain-record')).toBeVisible();
  // The arrangements no screen makes here: the DNS proof (the e2e server has no DNS world) and the
  // Enterprise deal (sales-led), then the product name through the product's own API.
  await withE2eDb(async (db) => {
    await db.query(`update account_branding set domain_verified_at = now() where custom_domain = $1`, [domain]);
    await db.query(`update account set plan = 'enterprise' where id = (select account_id from account_branding where custom_domain = $1)`, [domain]);
  });
  const named = await page.request.post('/api/trpc/branding.update', { data: { productName: 'Acme Verify' }, headers: { 'content-type': 'application/json' } });
  expect(named.ok()).toBeTruthy();

  // A browser that reaches the custom domain (resolved to this machine, as its CNAME would).
  const port = new URL(testInfo.project.use.baseURL ?? page.url()).port;
  const launch = testInfo.project.use.launchOptions ?? {};
  const browser = await chromium.launch({ ...launch, args: [...(launch.args ?? []), `--host-resolver-rules=MAP ${domain} 127.0.0.1`] });
  try {
    const branded = await browser.newPage();
    await branded.goto(`http://${domain}:${port}/auth`);
    await expect(branded.getByRole('heading', { name: 'Welcome to Acme Verify' })).toBeVisible();
    const brand = branded.getByTestId('auth-brand');
    await expect(brand).toContainText('Acme Verify');
    const logo = brand.getByRole('img', { name: 'Acme Verify logo' });
    await expect(logo).toBeVisible();
    expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(branded.getByRole('button', { name: 'Sign In' })).toHaveCSS('background-color', 'rgb(15, 118, 110)');
    await expect(branded).toHaveTitle('Acme Verify');
    await expect(branded.getByText('Back to home')).toHaveCount(0);
    await branded.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
    await branded.screenshot({ path: `${SCREENSHOT_DIR}/white-label-signin-custom-domain.png`, fullPage: true });

    // Signing in works on the custom domain (its origin is trusted for requests to it).
    await branded.locator('#signin-email').fill(email);
    await branded.locator('#signin-password').fill('secret123');
    await branded.getByRole('button', { name: 'Sign In' }).click();
    await expect(branded).toHaveURL(new RegExp(`^http://${domain.replace(/\./g, '\\.')}:${port}/dashboard`));

    // The app's own host keeps Mailvet's sign-in page.
    const plain = await browser.newPage();
    await plain.goto(`http://127.0.0.1:${port}/auth`);
    await expect(plain.getByRole('heading', { name: 'Welcome to Mailvet' })).toBeVisible();
    await expect(plain.getByTestId('auth-brand')).toHaveCount(0);
  } finally {
    await browser.close();
  }
});

test("signed up and reset through a verified custom domain: the mails' links open on the app's own origin, where the user signs in", async ({ page }, testInfo) => {
  const { card } = await brandedBusiness(page, 'e2e-wl-links');
  const domain = `links-${Date.now()}.acme-e2e.test`;
  await card.getByLabel('Custom domain').fill(domain);
  await card.getByRole('button', { name: 'Save domain' }).click();
  await expect(page.getByTestId('domain-record')).toBeVisible();
  await withE2eDb((db) => db.query(`update account_branding set domain_verified_at = now() where custom_domain = $1`, [domain]));

  const app = new URL(testInfo.project.use.baseURL ?? page.url()).origin;
  const port = new URL(app).port;
  const launch = testInfo.project.use.launchOptions ?? {};
  const browser = await chromium.launch({ ...launch, args: [...(launch.args ?? []), `--host-resolver-rules=MAP ${domain} 127.0.0.1`] });
  try {
    const visitor = await browser.newPage();
    const email = uniqueEmail('e2e-wl-via-domain');
    // Signs up on the tenant's domain: the verification mail keeps its brand, its link is on the app.
    await visitor.goto(`http://${domain}:${port}/auth`);
    await submitSignUp(visitor, { email, password: 'first-pass-1' });
    await expect(visitor.getByText('Check Your Email!')).toBeVisible();
    const mailLink = async (subject: string, name: RegExp) => {
      await visitor.goto(`${app}/dev/outbox`);
      const link = visitor.locator('article', { hasText: email }).filter({ hasText: subject }).first().getByRole('link', { name });
      const href = (await link.getAttribute('href')) ?? '';
      expect(new URL(href).origin).toBe(app);
      expect(href).not.toContain(domain);
      await link.click();
    };
    await mailLink('Verify your email', /verify-email/);
    // Verified on the app (another host than the sign-up's: nobody signed in); the password signs in there.
    await visitor.waitForURL((u) => u.origin === app && u.pathname === '/auth');
    await submitSignIn(visitor, email, 'first-pass-1');
    await visitor.waitForURL((u) => u.origin === app && u.pathname === '/dashboard');
    await signOut(visitor);

    // Forgot password on the tenant's domain: the reset link opens the app's reset step.
    await visitor.goto(`http://${domain}:${port}/auth?step=forgot`);
    await visitor.locator('#forgot-email').fill(email);
    await visitor.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(visitor.getByText("If an account exists for that address, we've sent a link to reset your password.")).toBeVisible();
    await mailLink('Reset your Mailvet password', /reset-password/);
    await visitor.waitForURL((u) => u.origin === app && u.pathname === '/auth' && u.searchParams.get('step') === 'reset');
    await visitor.locator('#reset-password').fill('second-pass-2');
    await visitor.locator('#reset-confirm').fill('second-pass-2');
    await visitor.getByRole('button', { name: 'Set New Password' }).click();
    await expect(visitor.getByText('Password Updated')).toBeVisible();
    await visitor.waitForURL((u) => u.origin === app && u.pathname === '/auth' && !u.searchParams.has('step'));
    await submitSignIn(visitor, email, 'second-pass-2');
    await visitor.waitForURL((u) => u.origin === app && u.pathname === '/dashboard');
  } finally {
    await browser.close();
  }
});
