// The dashboard header on a 768 px tablet (sidebar shown): the user's email took the room and the
// page's title was cut to 'Te…' (Team) or 'Auto Re…'. The email now gives way first; the title stays whole.
import { expect, test } from '@playwright/test';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

test('on a 768 px tablet the header shows each page title whole, the long email shortened instead', async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 900 });
  await newUserOn(page, '/dashboard', { tag: 'rv-tablet-header-with-a-rather-long-address', plan: 'pro' });
  for (const [link, title] of [
    ['Team', 'Team'],
    ['Auto Revalidation', 'Auto Revalidation'],
    ['Validate Email', 'Validate Email'],
    ['Documentation', 'Documentation'],
  ] as const) {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: link }).click();
    const h1 = page.getByRole('banner').getByRole('heading', { level: 1 });
    await expect(h1).toHaveText(title);
    expect(await h1.evaluate((e) => e.scrollWidth - e.clientWidth), `${title} is not cut off`).toBeLessThanOrEqual(0);
    await expect(page.getByTestId('user-email')).toBeVisible();
  }
  await page.getByRole('banner').screenshot({ path: `${SCREENSHOT_DIR}/rv-tablet-header-768.png` });
});
