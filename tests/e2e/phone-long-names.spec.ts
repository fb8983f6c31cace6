// A schedule's name is the user's own text: on a 390 px phone a long one ('Newsletter subscribers who
// opened a campaign in the last ninety days…') stretched its card to ~720 px, so the whole Auto
// Revalidation page scrolled sideways with the toggle and Delete off screen. The name and the
// description now wrap inside the card, and the full name stays readable.
import { expect, test } from '@playwright/test';
import { inviteFromTeam, newUserOn, SCREENSHOT_DIR } from './helpers';

const LONG_NAME = 'Newsletter subscribers who opened a campaign in the last ninety days (EU and UK regions)';
const LONG_DESCRIPTION = 'Exported nightly from crm.example.com/exports/newsletter_subscribers_opened_last_90_days_eu_uk_regions_full.csv';

test('on a 390 px phone a schedule with a long name and description fits the page; the name wraps, its controls stay in view', async ({ page }) => {
  await newUserOn(page, '/dashboard/auto-revalidation', { tag: 'rv-phone-sched', plan: 'pro' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'New Schedule' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Schedule' });
  await dialog.getByLabel('Name').fill(LONG_NAME);
  await dialog.getByLabel('Description').fill(LONG_DESCRIPTION);
  await dialog.getByLabel('Email addresses').fill('alice@normal.mailworld.test\nbob@normal.mailworld.test');
  await dialog.getByRole('button', { name: 'Create Schedule' }).click();
  await expect(page.getByText('Schedule Created')).toBeVisible();
  const card = page.getByTestId('schedule-card');
  await expect(card).toHaveCount(1);

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the page scrolls sideways by').toBeLessThanOrEqual(1);
  const box = (await card.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  // The whole name is shown (wrapped), and the toggle and Delete are on screen.
  const name = card.getByTestId('schedule-name');
  await expect(name).toHaveText(LONG_NAME);
  expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  await expect(card.getByRole('switch', { name: `Active: ${LONG_NAME}` })).toBeInViewport();
  await expect(card.getByRole('button', { name: `Delete ${LONG_NAME}` })).toBeInViewport();
  const description = card.getByTestId('schedule-description');
  const d = (await description.boundingBox())!;
  expect(d.x + d.width).toBeLessThanOrEqual(box.x + box.width);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-schedule-long-name.png`, fullPage: true });
});

// The same on Bulk Upload (the chosen file's name) and on Overview (Recent Activity lists file names
// and checked addresses): a long one made the page ~450-540 px wider than a 390 px phone.
test('on a 390 px phone a long file name on Bulk Upload and long names in Overview\'s Recent Activity stay inside the page', async ({ page }) => {
  await newUserOn(page, '/dashboard/bulk', { tag: 'rv-phone-bulk', plan: 'pro' });
  await page.setViewportSize({ width: 390, height: 844 });
  const name = 'customer_export_newsletter_subscribers_all_regions_2026_11_24_final_v2_deduplicated.csv';
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from('email\nalice@normal.mailworld.test\n') });
  await expect(page.getByTestId('selected-file')).toContainText('customer_export');
  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await sideways(), 'Bulk Upload scrolls sideways by').toBeLessThanOrEqual(1);
  await expect(page.getByRole('button', { name: 'Upload and Validate' })).toBeInViewport();
  await page.getByRole('button', { name: 'Upload and Validate' }).click();
  await page.waitForURL('**/dashboard/history');

  await page.goto('/dashboard/validate');
  await page.getByLabel('Email address').fill('averyveryverylongmailboxnamethatkeepsgoingandgoing.for.testing@normal.mailworld.test');
  await page.getByRole('button', { name: 'Validate Email' }).click();
  await expect(page.getByText('Validation Complete')).toBeVisible();

  await page.goto('/dashboard');
  const activity = page.getByTestId('recent-activity');
  await expect(activity.getByRole('listitem')).toHaveCount(2);
  expect(await sideways(), 'Overview scrolls sideways by').toBeLessThanOrEqual(1);
  for (const item of await activity.getByRole('listitem').all()) {
    const b = (await item.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(390);
  }
  await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-overview-long-names.png`, fullPage: true });
});

// A confirmation that names a long address ran past the dialog's edge on a phone, cutting the address
// the user was asked to confirm ('The invitation to someone.with.a.really.long.addr…').
test('on a 390 px phone a confirmation naming a long address wraps it inside the dialog', async ({ page }) => {
  await newUserOn(page, '/dashboard/team', { tag: 'rv-phone-confirm', plan: 'business' });
  await page.setViewportSize({ width: 390, height: 844 });
  const invitee = `someone.with.a.really.long.address.for.testing.purposes.${Date.now()}@subdomain.example-company-name.com`;
  await inviteFromTeam(page, invitee);
  await page.getByRole('button', { name: `Cancel invitation to ${invitee}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel invitation?' });
  const text = confirm.getByText(`The invitation to ${invitee}`);
  await expect(text).toBeVisible();
  expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), 'the text fits its dialog').toBe(true);
  const b = (await text.boundingBox())!;
  expect(b.x + b.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-confirm-long-address.png` });
});
