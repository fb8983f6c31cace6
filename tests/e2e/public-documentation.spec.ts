// The public Documentation page as a reader moves through it: on a phone, by the links the API's
// errors carry, and within the API Reference with Back.
// (Split from public-site.spec.ts by concern, assertions unchanged.)
import { expect, test, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from './helpers';

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

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
