// The public site as a visitor meets it in a tab they keep using: pages opened by their address, by a
// link from a mail or another site, reloaded, or reached with Back and Forward; their titles; a new release.
// (Split from public-site.spec.ts by concern, assertions unchanged.)
import { expect, test, type Page } from '@playwright/test';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

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
