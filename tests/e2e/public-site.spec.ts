// The public site as a visitor meets it in a tab they keep using: pages opened by their address, by a
// link from a mail or another site, reloaded, or reached with Back and Forward.
import { expect, test, type Page } from '@playwright/test';
import { followMailLink, newUserOn, SCREENSHOT_DIR, submitSignIn, submitSignUp, uniqueEmail } from './helpers';

/** Tells the geolocation fake which country the browser is in (its URL comes from /api/public-config). */
async function setCountry(page: Page, country: string) {
  const config = (await (await page.request.get('/api/public-config')).json()) as { geoUrl: string };
  await page.request.post(new URL(`/country/${country}`, config.geoUrl).toString());
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** The element's top edge is below the sticky top navigation and inside the window. */
async function expectInView(page: Page, heading: string): Promise<void> {
  const el = page.getByRole('heading', { name: heading });
  await expect(el).toBeInViewport();
  const headerBottom = await page.getByRole('banner').evaluate((h) => h.getBoundingClientRect().bottom);
  const top = await el.evaluate((h) => h.getBoundingClientRect().top);
  expect(top, `"${heading}" is hidden under the top navigation`).toBeGreaterThanOrEqual(headerBottom);
}

test('a page opened by its address opens at its top (or at its #section), not where the previous page of the tab was scrolled', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Simple, transparent pricing' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 2500));
  await expect.poll(() => scrollY(page)).toBeGreaterThan(2000);

  // Typed in the address bar (or a link from a mail): a new page, read from its top.
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeInViewport();
  expect(await scrollY(page)).toBe(0);

  // With a #section: that section, below the sticky navigation.
  await page.goto('/pricing#faq-heading');
  await expectInView(page, 'Frequently asked questions');
  await page.goto('/#pricing');
  await expectInView(page, 'Simple, transparent pricing');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/landing-hash-pricing.png` });

  // Back returns to where the reader was on each of those pages; a reload keeps the place too.
  await page.goBack();
  await expectInView(page, 'Frequently asked questions');
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeInViewport();
  await page.evaluate(() => window.scrollTo(0, 900));
  await expect.poll(() => scrollY(page)).toBe(900);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeAttached();
  await expect.poll(() => scrollY(page)).toBe(900);
  await page.goBack();
  await expect.poll(() => scrollY(page)).toBeGreaterThan(2000);
});

test('a signed-in visitor opening /auth goes to the dashboard without the sign-in form showing first, even on a slow session check', async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv-auth-flash' });
  // Records whether the sign-in card was ever on screen while /auth was the page.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (location.pathname === '/auth' && document.body?.innerText.includes('Sign in to your account')) sessionStorage.setItem('signin-form-shown', '1');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.route('**/api/auth/get-session*', async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page.goto('/auth');
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('link', { name: 'Overview' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('signin-form-shown')), 'the sign-in form flashed before the redirect').toBeNull();
  // A signed-out visitor still gets the form once the (slow) check answers.
  await page.context().clearCookies();
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In', selected: true })).toBeVisible();
  // ...and keeps it through the checks that follow (a sign-up asks again): the note stays, on Sign Up.
  const email = uniqueEmail('rv-auth-flash2');
  await submitSignUp(page, { email });
  await expect(page.getByText('Check Your Email!')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `We sent a verification link to ${email}` })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Sign Up', selected: true })).toBeVisible();
});

test('the legal pages\' "On this page" links jump to their section below the top bar, and Back walks back through them', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/privacy');
  const toc = page.getByRole('navigation', { name: 'On this page' });
  /** The section heading sits just below the sticky top bar (not under it, not half a screen down). */
  const expectAtTop = async (heading: string) => {
    await expectInView(page, heading);
    const headerBottom = await page.getByRole('banner').evaluate((h) => h.getBoundingClientRect().bottom);
    await expect.poll(() => page.getByRole('heading', { name: heading }).evaluate((h) => h.getBoundingClientRect().top)).toBeLessThan(headerBottom + 100);
  };
  await toc.getByRole('link', { name: 'Data retention' }).click();
  await expect(page).toHaveURL(/\/privacy#retention$/);
  await expectAtTop('4.Data retention');
  await toc.getByRole('link', { name: 'Cookies' }).click();
  await expect(page).toHaveURL(/\/privacy#cookies$/);
  await expectAtTop('8.Cookies');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/privacy-toc-cookies.png` });
  await page.goBack();
  await expect(page).toHaveURL(/\/privacy#retention$/);
  await expectAtTop('4.Data retention');
  await page.goBack();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect.poll(() => scrollY(page)).toBe(0);

  // From the keyboard: Enter on an entry, then Tab goes on inside that section.
  await page.goto('/terms');
  await page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: 'Refunds' }).focus();
  await page.keyboard.press('Enter');
  await expectAtTop('6.Refunds');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('region', { name: '6.Refunds' }).getByRole('link', { name: 'support@mailvet.io' })).toBeFocused();
});

test('a visitor from India sees rupee prices on the landing page and /pricing without dollar prices showing first; elsewhere, or when the lookup fails, dollars', async ({ page }) => {
  // Records every price the Starter card showed while the page was open.
  await page.addInitScript(() => {
    const seen = new Set<string>();
    new MutationObserver(() => {
      const price = document.querySelector('[data-testid="price-starter"]')?.textContent;
      if (price) seen.add(price);
      sessionStorage.setItem('starter-prices', JSON.stringify([...seen]));
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  // A lookup that takes its time, as a third-party geolocation service can.
  await page.route('**/api/public-config', async (route) => {
    await new Promise((r) => setTimeout(r, 600));
    await route.continue();
  });
  const shown = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('starter-prices') ?? '[]') as string[]);
  try {
    await setCountry(page, 'IN');
    for (const path of ['/', '/pricing']) {
      await page.goto(path);
      await expect(page.getByTestId('price-starter')).toHaveText('₹999');
      await expect(page.getByTestId('price-pro')).toHaveText('₹2,999');
      await expect(page.getByTestId('currency-note')).toContainText('INR');
      expect(await shown(), `${path}: prices a visitor from India saw`).toEqual(['₹999']);
    }
    await page.getByRole('radio', { name: /Annual/ }).click();
    await expect(page.getByTestId('billed-starter')).toContainText('₹');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/pricing-inr.png` });
    for (const country of ['US', 'FAIL']) {
      await setCountry(page, country);
      await page.goto('/pricing');
      await expect(page.getByTestId('price-starter')).toHaveText('$19');
      await expect(page.getByTestId('currency-note')).toHaveText('Prices in USD ($)');
      expect(await shown(), `${country}: prices shown`).toEqual(['$19']);
    }
  } finally {
    await setCountry(page, 'US');
  }
});

test('the Monthly / Annual switch works from the keyboard like the radio group it is announced as: one Tab stop, arrow keys choose', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByTestId('price-starter')).toHaveText('$19');
  const monthly = page.getByRole('radio', { name: 'Monthly' });
  const annual = page.getByRole('radio', { name: /Annual/ });
  await page.getByTestId('currency-note').click(); // a place just before the switch
  await page.keyboard.press('Tab');
  await expect(monthly).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(annual).toBeFocused();
  await expect(annual).toBeChecked();
  await expect(page.getByTestId('billed-starter')).toHaveText('$182.40 billed yearly');
  await expect(page.getByTestId('price-starter')).toHaveText('$15.20');
  // Tab leaves the group (to the first plan's button) instead of stopping on Monthly again.
  await page.keyboard.press('Shift+Tab');
  await expect(monthly).not.toBeFocused();
  await page.keyboard.press('Tab');
  await expect(annual).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Start Free' }).last()).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('ArrowLeft');
  await expect(monthly).toBeChecked();
  await expect(page.getByTestId('price-starter')).toHaveText('$19');
});

test('on a 375 px phone all four Documentation tabs are on screen (Best Practices was hidden past the edge of the tab bar)', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/documentation');
  const tabs = page.getByRole('tablist', { name: 'Documentation sections' });
  await expect(tabs.getByRole('tab')).toHaveText(['Quick Start', 'API Reference', 'Examples', 'Best Practices']);
  for (const tab of await tabs.getByRole('tab').all()) await expect(tab).toBeInViewport({ ratio: 1 });
  expect(await tabs.evaluate((t) => t.scrollWidth - t.clientWidth), 'the tab bar scrolls sideways').toBeLessThanOrEqual(1);
  await tabs.screenshot({ path: `${SCREENSHOT_DIR}/documentation-tabs-phone.png` });
  await tabs.getByRole('tab', { name: 'Best Practices' }).click();
  await expect(tabs.getByRole('tab', { name: 'Best Practices' })).toHaveAttribute('aria-selected', 'true');
});

test('on a 375 px phone the Examples tab does not scroll the page sideways and every language of an example is on screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/documentation');
  await page.getByRole('tab', { name: 'Examples' }).click();
  const langs = page.getByRole('tablist', { name: /: language$/ }).first();
  await expect(langs.getByRole('tab', { name: 'PHP' })).toBeAttached();
  for (const tab of await langs.getByRole('tab').all()) {
    await tab.scrollIntoViewIfNeeded();
    await expect(tab).toBeInViewport({ ratio: 1 });
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, '/documentation Examples scrolls sideways on a phone').toBeLessThanOrEqual(1);
  await langs.getByRole('tab', { name: 'PHP' }).click();
  await expect(page.getByRole('tabpanel').filter({ hasText: '<?php' }).first()).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/documentation-examples-phone.png` });
});

test('the documentation links every API error carries (type: …/documentation#error-CODE) open that error on the API Reference tab; #example-… opens Examples', async ({ page, request }) => {
  // A real /v1 error and the link it gives the developer.
  const problem = (await (await request.post('/v1/validate', { data: { email: 'a@example.com' } })).json()) as { type: string };
  const link = new URL(problem.type);
  expect(link.pathname).toBe('/documentation');
  await page.goto(`${link.pathname}${link.hash}`);
  await expect(page.getByRole('tab', { name: 'API Reference' })).toHaveAttribute('aria-selected', 'true');
  const row = page.locator(link.hash);
  await expect(row).toBeInViewport();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/documentation-error-link.png` });
  // An endpoint of the API Reference (rendered from the OpenAPI document once it has loaded) and an example.
  await page.goto('/documentation#jobs-get');
  await expect(page.getByRole('tab', { name: 'API Reference' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#jobs-get')).toBeInViewport();
  await page.goto('/dashboard/no-such-page'); // a page of another kind in between
  await page.goto('/documentation#example-bulk-csv');
  await expect(page.getByRole('tab', { name: 'Examples' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#example-bulk-csv')).toBeInViewport();
  // Without a #section: Quick Start, at the top.
  await page.goto('/documentation');
  await expect(page.getByRole('tab', { name: 'Quick Start' })).toHaveAttribute('aria-selected', 'true');
});

test('every public page has its own title (browser tab, history, bookmarks, screen readers), and the dashboard does not inherit one', async ({ page }) => {
  const titles: Array<[string, string]> = [
    ['/', 'Mailvet — Email Validation'],
    ['/features', 'Features — Mailvet'],
    ['/pricing', 'Pricing — Mailvet'],
    ['/documentation', 'API Documentation — Mailvet'],
    ['/about', 'About — Mailvet'],
    ['/contact', 'Contact — Mailvet'],
    ['/privacy', 'Privacy Policy — Mailvet'],
    ['/terms', 'Terms of Service — Mailvet'],
    ['/security', 'Security — Mailvet'],
    ['/auth', 'Sign In — Mailvet'],
    ['/no/such/page', 'Page not found — Mailvet'],
  ];
  for (const [path, title] of titles) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(title);
  }
  // Moving inside the app (no reload) changes it too.
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveTitle('Pricing — Mailvet');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveTitle('Privacy Policy — Mailvet');
  await page.goBack();
  await expect(page).toHaveTitle('Pricing — Mailvet');
  // Signing in from /auth: the dashboard is not titled 'Sign In' but by its own page.
  await newUserOn(page, '/dashboard', { tag: 'rv-titles' });
  await expect(page.getByRole('link', { name: 'Overview' })).toBeVisible();
  await expect(page).toHaveTitle('Overview — Mailvet');
});

test('in the API Reference, the Endpoints list and a field\'s object link jump there, and Back returns to where the reader was', async ({ page }) => {
  await page.goto('/documentation');
  await page.getByRole('tab', { name: 'API Reference' }).click();
  const endpoints = page.getByRole('navigation', { name: 'Endpoints' });
  // An endpoint further down whose fields link to an object.
  const first = '#jobs-list';
  const withObject = page.locator(first);
  await endpoints.getByRole('link', { name: '/v1/jobs', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${first}$`));
  await expect(page.locator(first)).toBeInViewport();
  const objectLink = withObject.locator('a[href*="#object-"]').first();
  await objectLink.scrollIntoViewIfNeeded();
  const firstY = await scrollY(page); // where the reader is when following the link
  expect(firstY).toBeGreaterThan(0);
  await objectLink.click();
  const second = new URL(page.url()).hash;
  expect(second).toMatch(/^#object-/);
  await expect(page.locator(second)).toBeInViewport();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${first}$`));
  await expect.poll(() => scrollY(page)).toBe(firstY);
  await page.goBack();
  // Choosing the tab wrote its own link: Back lands on it, then on the page as first opened.
  await expect(page).toHaveURL(/\/documentation#api-reference$/);
  await expect(page.getByRole('tab', { name: 'API Reference' })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expect(page).toHaveURL(/\/documentation$/);
  await expect(page.getByRole('tab', { name: 'Quick Start' })).toHaveAttribute('aria-selected', 'true');
});

test('after a new release (the page\'s code files replaced), the next link a visitor follows in an open tab loads the page instead of an error screen; a page that still cannot load shows the error screen once', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Enterprise-Grade Email Validation' })).toBeVisible();
  // The tab's old build asks for a Pricing chunk the server no longer has (once: the reloaded page gets the current one).
  let refused = 0;
  await page.route(/\/assets\/pricing-[^/]+\.js$/, async (route) => {
    if (refused++ === 0) await route.fulfill({ status: 404, body: 'Not found' });
    else await route.continue();
  });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page.getByRole('heading', { name: 'Pricing that scales with your lists' })).toBeVisible();
  await expect(page).toHaveURL(/\/pricing$/);
  expect(refused).toBeGreaterThanOrEqual(2);

  // A chunk that stays missing: the default error screen (after one reload), not a reload loop.
  let loads = 0;
  page.on('load', () => loads++);
  await page.unroute(/\/assets\/pricing-[^/]+\.js$/);
  await page.route(/\/assets\/features-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Features' }).click();
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByText(/Failed to fetch dynamically imported module/)).toBeVisible();
  await page.waitForTimeout(1000);
  expect(loads).toBeLessThanOrEqual(1);
});

test('a password reset link opened in a browser that is still signed in shows the new-password form (it went straight to the dashboard), and the new password works', async ({ page, browser }) => {
  const email = await newUserOn(page, '/dashboard', { tag: 'rv-reset-signed-in', password: 'first-password' });
  // The reset is asked for elsewhere (another device where the password is forgotten).
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await elsewhere.goto('/auth');
  await elsewhere.getByRole('button', { name: 'Forgot password?' }).click();
  await elsewhere.getByRole('form', { name: 'Reset password' }).getByLabel('Email').fill(email);
  await elsewhere.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(elsewhere.getByText("If an account exists for that address, we've sent a link to reset your password.")).toBeVisible();
  await other.close();

  // The mail is opened in the browser that is still signed in.
  await followMailLink(page, email, 'Reset your Mailvet password');
  await expect(page.getByRole('form', { name: 'Choose a new password' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\?.*step=reset/);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('second-password');
  await page.getByLabel('Confirm new password').fill('second-password');
  const visited: string[] = [];
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) visited.push(new URL(f.url()).pathname);
  });
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page.getByText('You can now sign in with your new password.')).toBeVisible();
  // Resetting signs every session out (the server revokes them): the sign-in form, then the new password.
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  expect(visited, 'pages passed through after the reset').not.toContain('/dashboard');
  await submitSignIn(page, email, 'second-password');
  await page.waitForURL('**/dashboard');
});

test('Contact from the keyboard: Send shows Sending..., then Message Sent! with the 24-hour promise, clears the form, sends nothing to a server, and keeps the keyboard user\'s place', async ({ page }) => {
  await page.goto('/contact');
  await page.getByLabel('Name').focus();
  await page.keyboard.type('Jane Cooper');
  await page.keyboard.press('Tab');
  await page.keyboard.type('jane@example.com');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Volumes');
  await page.keyboard.press('Tab');
  await page.keyboard.type('About 2 million addresses a month.');
  await page.keyboard.press('Tab');
  const send = page.getByRole('button', { name: 'Send Message' });
  await expect(send).toBeFocused();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
  await page.keyboard.press('Enter');
  const sending = page.getByRole('button', { name: 'Sending...' });
  await expect(sending).toBeVisible();
  await expect(sending, 'focus fell off the page while sending').toBeFocused();
  await page.keyboard.press('Enter'); // a second press while sending sends nothing twice
  await expect(page.getByText('Message Sent!')).toHaveCount(1);
  await expect(page.getByText("We'll get back to you within 24 hours.", { exact: true })).toBeVisible();
  for (const field of ['Name', 'Email', 'Subject', 'Message']) await expect(page.getByLabel(field)).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeFocused();
  expect(requests).toEqual([]);
});

test('Contact: a field of spaces only is not filled in; nothing is "sent", the field says so and everything typed stays', async ({ page }) => {
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Jane Cooper');
  await page.getByLabel('Email').fill('jane@example.com');
  await page.getByLabel('Subject').fill('   ');
  await page.getByLabel('Message').fill('About 2 million addresses a month.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByLabel('Subject')).toBeFocused();
  expect(await page.getByLabel('Subject').evaluate((el: HTMLInputElement) => el.validationMessage)).not.toBe('');
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveValue('About 2 million addresses a month.');
  // Once filled in, it sends.
  await page.getByLabel('Subject').fill('Volumes');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Message Sent!')).toBeVisible();
});

test('switching between Sign In and Sign Up (arrow keys or clicks) keeps the email typed, never the password', async ({ page }) => {
  await page.goto('/auth');
  const email = uniqueEmail('rv-tab-switch');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not-my-account');
  await page.getByRole('tab', { name: 'Sign In' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Sign Up', selected: true })).toBeFocused();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Password')).toHaveValue('');
  await expect(page.getByLabel('Full Name')).toHaveValue('');
  const changed = uniqueEmail('rv-tab-switch2');
  await page.getByLabel('Email').fill(changed);
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await expect(page.getByLabel('Email')).toHaveValue(changed);
  await expect(page.getByLabel('Password')).toHaveValue('');
});
