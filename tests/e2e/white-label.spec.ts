import { expect, test } from '@playwright/test';
import { upgradeTo } from '../fixtures/e2e/paid-plan';
import { SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64" rx="12" fill="#0f766e"/><circle cx="32" cy="32" r="14" fill="#fff"/></svg>';

test('white-label is locked below Business with the upgrade dialog', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-wl-free') });
  await page.goto('/dashboard/settings');
  await page.getByTestId('white-label-locked').getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('dialog')).toContainText('White-label is available on the Business and Enterprise plans.');
});

test('Business: logo (SVG rasterised), brand colour and custom domain record; the dashboard carries the brand', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-wl-biz') });
  await upgradeTo(page, 'business');
  await page.goto('/dashboard/settings');
  const card = page.getByTestId('white-label');
  await card.getByLabel('Logo (PNG or SVG, up to 256 KB)').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SVG) });
  await expect(card.getByRole('img', { name: 'Current logo' })).toBeVisible();
  await card.getByLabel('Brand colour').fill('#0f766e');
  await card.getByRole('button', { name: 'Save colour' }).click();
  await expect(page.getByText('Branding saved')).toBeVisible();
  await card.getByLabel('Custom domain').fill('app.acme-e2e.test');
  await card.getByRole('button', { name: 'Save domain' }).click();
  await expect(page.getByTestId('domain-record')).toContainText('TXT _mailvet-verify.app.acme-e2e.test "mailvet-verify=');
  await expect(page.getByTestId('brand').locator('img')).toBeVisible();
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/white-label-settings.png`, fullPage: true });
});
