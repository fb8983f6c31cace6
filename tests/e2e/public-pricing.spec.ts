// The public prices: rupees for a visitor from India (dollars elsewhere or when the lookup fails), and
// the Monthly / Annual switch from the keyboard.
// (Split from public-site.spec.ts by concern, assertions unchanged.)
import { expect, test, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from './helpers';

/** Tells the geolocation fake which country the browser is in (its URL comes from /api/public-config). */
async function setCountry(page: Page, country: string) {
  const config = (await (await page.request.get('/api/public-config')).json()) as { geoUrl: string };
  await page.request.post(new URL(`/country/${country}`, config.geoUrl).toString());
}

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
