// The public site's menu on a phone, by keyboard: opened with Enter on its button, it could only be
// closed by going back to that button; Escape did nothing, so a keyboard user inside the menu stayed
// with it covering the page. Escape now closes it and puts the focus back on the menu button.
import { expect, test } from '@playwright/test';

test('on a phone, Escape closes the open site menu and returns the focus to its button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const toggle = page.getByRole('button', { name: 'Toggle navigation menu' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const menuFeatures = page.locator('header').getByRole('link', { name: 'Features' }).last();
  await expect(menuFeatures).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(menuFeatures).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(menuFeatures).toBeHidden();
  await expect(toggle).toBeFocused();
  // Escape on the button itself closes it too.
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});
