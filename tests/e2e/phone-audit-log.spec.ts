// Settings → Audit Log on a 360 px phone: the table was wider than its card and scrolled sideways
// inside it, cutting each entry's action and category off at the card's edge ('Checkout start',
// 'Account & setti') while its Details column, squeezed off screen, stretched every row to hundreds
// of pixels of blank card. On a phone an entry's details now sit under its action, in view.
import { expect, test } from '@playwright/test';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

test('on a 360 px phone the audit log fits its card: each action, its category and its details are in view', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await newUserOn(page, '/dashboard/settings', { tag: 'rv-audit-phone', plan: 'pro' });
  const log = page.getByTestId('audit-log');
  const charge = log.getByTestId('audit-row').filter({ has: page.getByTestId('audit-action').getByText('Subscription charged', { exact: true }) });
  await expect(charge).toBeVisible();
  const table = log.getByRole('table', { name: 'Audit log entries' });
  expect(await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth), 'the table does not scroll sideways').toBeLessThanOrEqual(0);
  const card = (await log.boundingBox())!;
  for (const part of [charge.getByTestId('audit-action'), charge.getByText('Plan & billing'), charge.getByText('$79.00').filter({ visible: true })]) {
    await expect(part).toBeVisible();
    const box = (await part.boundingBox())!;
    expect(box.x + box.width, 'inside the card').toBeLessThanOrEqual(card.x + card.width);
  }
  // No row taller than the phone's screen (the squeezed Details column made them so).
  const tallest = await log.getByTestId('audit-row').evaluateAll((rows) => Math.max(...rows.map((r) => r.getBoundingClientRect().height)));
  expect(tallest).toBeLessThan(400);
  await log.screenshot({ path: `${SCREENSHOT_DIR}/rv-audit-log-360.png`, style: '[data-sonner-toaster] { display: none !important; }' });
});
