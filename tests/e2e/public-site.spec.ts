// The public site as a visitor meets it in a tab they keep using: pages opened by their address, by a
// link from a mail or another site, reloaded, or reached with Back and Forward.
import { expect, test, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from './helpers';

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
