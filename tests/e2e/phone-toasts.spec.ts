// On a phone, dialogs sit at the bottom of the screen and toasts came up there too: the 'Invitation
// Sent' toast lay over the 'Cancel invitation?' confirmation's buttons for four seconds, hiding
// 'Keep Invitation' (a tap on the toast went through to the hidden button). On a phone toasts now
// come down from the top, clear of a dialog's buttons; on a laptop they stay bottom right.
import { expect, test, type Page } from '@playwright/test';
import { inviteFromTeam, newUserOn } from './helpers';

async function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const toasts = [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.getBoundingClientRect());
    const out: string[] = [];
    for (const b of document.querySelectorAll('[role=dialog] button')) {
      const r = b.getBoundingClientRect();
      if (toasts.some((t) => t.left < r.right && r.left < t.right && t.top < r.bottom && r.top < t.bottom)) out.push(b.textContent?.trim() || b.getAttribute('aria-label') || '?');
    }
    return out;
  });
}

test("on a 390 px phone a toast never lies over an open dialog's buttons", async ({ page }) => {
  await newUserOn(page, '/dashboard/team', { tag: 'rv-phone-toast', plan: 'business' });
  await page.setViewportSize({ width: 390, height: 844 });
  await inviteFromTeam(page, `toast-${Date.now()}@example.com`);
  await page.getByRole('button', { name: /Cancel invitation to/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel invitation?' });
  await expect(confirm.getByRole('button', { name: 'Keep Invitation' })).toBeVisible();
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await expect(page.getByText('Invitation Sent')).toBeVisible();
  expect(await overlaps(page), 'dialog buttons under a toast').toEqual([]);
  await confirm.getByRole('button', { name: 'Keep Invitation' }).click();

  // A laptop keeps them bottom right.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Invite Member' }).click();
  await page.getByRole('dialog', { name: 'Invite Team Member' }).getByRole('button', { name: 'Send Invitation' }).click();
  const toast = page.locator('[data-sonner-toast]').first();
  await expect(toast).toBeVisible();
  const box = (await toast.boundingBox())!;
  expect(box.y).toBeGreaterThan(400);
  expect(box.x).toBeGreaterThan(640);
});

test("on a 390 px phone a toast leaves the dashboard header's menu and Sign Out buttons usable", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await newUserOn(page, '/dashboard/team', { tag: 'rv16-phone-toast-header', plan: 'business' });
  await inviteFromTeam(page, `toast-header-${Date.now()}@example.com`);
  // The toast comes as the invitation is sent; the dialog closes once the lists are reloaded. Both settled
  // (the dialog gone, the toast done sliding in from above its place): what stays on screen is measured.
  await expect(page.getByRole('dialog', { name: 'Invite Team Member' })).toHaveCount(0);
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  const toast = page.locator('[data-sonner-toast]').first();
  await expect(toast).toBeVisible();
  await toast.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
  // What a tap at each header button's centre reaches: the button, not the toast over it.
  const hit = await page.evaluate(() =>
    ['Toggle sidebar', 'Sign Out'].map((name) => {
      const b = [...document.querySelectorAll('header button')].find((e) => (e.getAttribute('aria-label') ?? e.textContent?.trim()) === name)!;
      const r = b.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { name, reached: !!top && b.contains(top) };
    }),
  );
  expect(hit).toEqual([
    { name: 'Toggle sidebar', reached: true },
    { name: 'Sign Out', reached: true },
  ]);
  await page.screenshot({ path: `tests/e2e/__screenshots__/phone-toast-below-header.png` });
  // A tap on the menu button while the toast shows opens the navigation.
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await expect(page.getByTestId('sidebar-drawer')).toBeVisible();
});
