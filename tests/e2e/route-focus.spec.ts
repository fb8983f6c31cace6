// After a sidebar link, focus stayed on that link: a screen reader announced nothing of the new page
// and the next Tab went on down the sidebar. Focus now moves to the new page's main region (named
// by its heading), with no focus ring after a mouse click; a tab change (?tab=) moves nothing.
import { expect, test, type Page } from '@playwright/test';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

async function focusedIsMain(page: Page) {
  return page.evaluate(() => document.activeElement?.id === 'main');
}

test('a sidebar link moves focus to the new page (keyboard and mouse); the main region is named by its heading', async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'e2e-route-focus' });
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  // Keyboard: Enter on the sidebar link.
  await nav.getByRole('link', { name: 'Validate Email' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/validate$/);
  await expect(page.getByRole('main', { name: 'Validate Email' })).toBeFocused();
  // The next Tab is inside the page, not the next sidebar link.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);

  // Mouse: a click lands there too, with no focus ring drawn round the page.
  await nav.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  await expect(page.getByRole('main', { name: 'History' })).toBeFocused();
  const ring = await page.locator('#main').evaluate((el) => {
    const s = getComputedStyle(el);
    return { outline: s.outlineStyle, shadow: s.boxShadow };
  });
  expect(ring).toEqual({ outline: 'none', shadow: 'none' });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/route-focus-history.png` });

  // A tab inside a page is not a new page: focus stays on the tab.
  await nav.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('main', { name: 'Team' })).toBeFocused();
  const pending = page.getByRole('tab', { name: /^Pending Invitations/ });
  await pending.click();
  await expect(page).toHaveURL(/\?tab=invitations$/);
  await expect(pending).toBeFocused();
  // Back to Team Members is the same page: focus is not pulled away either.
  await page.goBack();
  await expect(page.getByRole('tab', { name: /^Team Members/ })).toHaveAttribute('aria-selected', 'true');
  expect(await focusedIsMain(page)).toBe(false);
  // Back to another page is a new page.
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  await expect(page.getByRole('main', { name: 'History' })).toBeFocused();
});

test('on a phone, a link in the navigation drawer lands on the new page, not back on the menu button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await newUserOn(page, '/dashboard', { tag: 'e2e-route-focus-phone' });
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  const drawer = page.getByTestId('sidebar-drawer');
  await drawer.getByRole('link', { name: 'Bulk Upload' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard\/bulk$/);
  await expect(page.getByRole('main', { name: 'Bulk Upload' })).toBeFocused();
  // Keyboard: open the drawer with Enter, move to a link, Enter.
  await page.getByRole('button', { name: 'Toggle sidebar' }).focus();
  await page.keyboard.press('Enter');
  await drawer.getByRole('link', { name: 'API Keys' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/api-keys$/);
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('main', { name: 'API Keys' })).toBeFocused();
  // A page whose code is already loaded (Bulk Upload again): the drawer closes and the page changes at once.
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await drawer.getByRole('link', { name: 'Bulk Upload' }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('main', { name: 'Bulk Upload' })).toBeFocused();
  await page.getByRole('button', { name: 'Toggle sidebar' }).focus();
  await page.keyboard.press('Enter');
  await drawer.getByRole('link', { name: 'Overview' }).focus();
  await page.keyboard.press('Enter');
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('main', { name: 'Overview' })).toBeFocused();
});
