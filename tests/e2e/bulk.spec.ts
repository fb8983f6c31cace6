import { expect, test, type Page } from '@playwright/test';
import { fixture } from '../fixtures/e2e/paid-plan';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).first(); // newest first

test('on the free plan Bulk Upload says CSV Upload Not Available and leads to the plans', async ({ page }) => {
  await newUserOn(page, '/dashboard/bulk', { tag: 'e2e-bulk-free' });
  await expect(page.getByRole('heading', { name: 'CSV Upload Not Available' })).toBeVisible();
  await expect(page.getByLabel('CSV file')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/bulk-free.png`, fullPage: true });
  await page.getByRole('link', { name: 'View Plans' }).click();
  await page.waitForURL('**/dashboard/billing');
});

test('a paid account picks a CSV: wrong type and size are refused, a good file becomes a job in History', async ({ page }) => {
  await newUserOn(page, '/dashboard/bulk', { tag: 'e2e-bulk-paid', plan: 'starter' });

  // Format notes and the 3-step explanation.
  await expect(page.getByText('CSV Upload Not Available')).toHaveCount(0);
  const rules = page.getByRole('list', { name: 'CSV format requirements' });
  await expect(rules).toContainText('email column (case-insensitive)');
  await expect(rules).toContainText('One email address per row');
  await expect(rules).toContainText('At most 10,000 emails per file');
  await expect(page.getByRole('list', { name: 'How bulk validation works' }).getByRole('listitem')).toHaveCount(3);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/bulk-paid.png`, fullPage: true });

  const picker = page.getByLabel('CSV file');
  const upload = page.getByRole('button', { name: 'Upload and Validate' });
  await expect(upload).toBeDisabled();

  await picker.setInputFiles(fixture('not-a-csv.txt'));
  await expect(toast(page, 'Invalid File Type')).toContainText('Please upload a CSV file');
  await expect(upload).toBeDisabled();

  await picker.setInputFiles({ name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') });
  await expect(toast(page, 'File Too Large')).toContainText('Maximum file size is 10MB');
  await expect(upload).toBeDisabled();

  // The server refuses a file without an email column before any credit is taken.
  await picker.setInputFiles(fixture('no-email-column.csv'));
  await expect(page.getByTestId('selected-file')).toContainText('no-email-column.csv');
  await upload.click();
  await expect(toast(page, 'Upload Failed')).toContainText("CSV must contain an 'email' column");
  await expect(page).toHaveURL(/\/dashboard\/bulk$/);

  // More than 10,000 addresses is refused with the limit.
  const many = ['email', ...Array.from({ length: 10_001 }, (_, i) => `u${i}@normal.mailworld.test`)].join('\n');
  await picker.setInputFiles({ name: 'too-many.csv', mimeType: 'text/csv', buffer: Buffer.from(many) });
  await expect(page.getByTestId('selected-file')).toContainText('too-many.csv');
  await upload.click();
  await expect(toast(page, 'Upload Failed')).toContainText('10,000');

  // 9 rows, one a duplicate in another case: 8 addresses.
  await picker.setInputFiles(fixture('contacts.csv'));
  await expect(page.getByTestId('selected-file')).toContainText('contacts.csv');
  await upload.click();
  const success = toast(page, 'Upload Successful');
  await expect(success).toBeVisible();
  await expect(success).toContainText('8 emails');
  await expect(success).toContainText(/Job ID: [0-9a-f-]{36}/);
  await page.waitForURL('**/dashboard/history');
  const row = page.getByTestId('job-row').filter({ hasText: 'contacts.csv' });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('job-total')).toHaveText('8');
});

test('the upload toast says what of the file is not checked (a value too long to be an address), and an Outlook export gives every contact its addresses', async ({ page }) => {
  await newUserOn(page, '/dashboard/bulk', { tag: 'e2e-bulk-left-out', plan: 'starter' });
  const long = `${'x'.repeat(1100)}@normal.mailworld.test`;
  const outlook = `First Name,E-mail Address,E-mail 2 Address\r\nAnn,ann@normal.mailworld.test,${long}\r\nBo,,bo@normal.mailworld.test\r\n`;
  await page.getByLabel('CSV file').setInputFiles({ name: 'outlook.csv', mimeType: 'text/csv', buffer: Buffer.from(outlook) });
  await page.getByRole('button', { name: 'Upload and Validate' }).click();
  const success = toast(page, 'Upload Successful');
  await expect(success).toContainText('2 emails queued for validation');
  await expect(success).toContainText('1 value was left out: longer than 1,024 characters, too long to be an email address.');
  await page.waitForURL('**/dashboard/history');
  await expect(page.getByTestId('job-row').filter({ hasText: 'outlook.csv' }).getByTestId('job-total')).toHaveText('2');
});

test('Bulk Upload: a wrong file chosen after a good one is refused and the good one stays chosen', async ({ page }) => {
  await newUserOn(page, '/dashboard/bulk', { tag: 'rv-dbl-upload', plan: 'starter' });
  const picker = page.getByLabel('CSV file');
  await picker.setInputFiles(fixture('contacts.csv'));
  await expect(page.getByTestId('selected-file')).toContainText('contacts.csv');
  await picker.setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
  await expect(page.getByText('Please upload a CSV file')).toBeVisible();
  await expect(page.getByTestId('selected-file'), 'the file chosen before is still the one to upload').toContainText('contacts.csv');

  await page.getByRole('button', { name: 'Upload and Validate' }).click();
  await page.waitForURL('**/dashboard/history');
  await expect(page.getByTestId('job-row').filter({ hasText: 'contacts.csv' })).toHaveCount(1);
});
