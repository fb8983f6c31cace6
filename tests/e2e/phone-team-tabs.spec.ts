// On a 360 px phone (and a 320 px one) the Team tabs show their whole labels: the tab bar scrolled
// sideways inside its box, so 'Pending Invitations (0)' ended at 'Pending Invitations (0' with its
// count cut off and no sign that the bar scrolls.
import { expect, test } from '@playwright/test';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

for (const width of [360, 320]) {
  test(`on a ${width} px phone both Team tabs show their whole label inside the tab bar`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await newUserOn(page, '/dashboard/team', { tag: 'rv-team-tabs-phone', plan: 'pro' });
    const list = page.getByRole('tablist', { name: 'Team' });
    await expect(list.getByRole('tab', { name: 'Pending Invitations (0)' })).toBeVisible();
    const box = (await list.boundingBox())!;
    for (const name of ['Team Members (1)', 'Pending Invitations (0)']) {
      const tab = (await list.getByRole('tab', { name }).boundingBox())!;
      expect(tab.x, `${name} starts inside the bar`).toBeGreaterThanOrEqual(box.x);
      expect(tab.x + tab.width, `${name} ends inside the bar`).toBeLessThanOrEqual(box.x + box.width + 0.5);
    }
    expect(await list.evaluate((e) => e.scrollWidth - e.clientWidth), 'the bar does not scroll sideways').toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'nor does the page').toBeLessThanOrEqual(0);
    await list.screenshot({ path: `${SCREENSHOT_DIR}/rv-team-tabs-${width}.png` });
  });
}
