// The Contact form (spec: all fields required, 'Sending...', then 'Message Sent!' with the 24-hour
// promise, the form cleared, nothing sent to a server).
// (Split from public-site.spec.ts by concern, assertions unchanged.)
import { expect, test } from '@playwright/test';

test('Contact from the keyboard: Send shows Sending..., then Message Sent! with the 24-hour promise, clears the form, sends nothing to a server, and keeps the keyboard user\'s place', async ({ page }) => {
  await page.goto('/contact');
  await page.getByLabel('Name').focus();
  await page.keyboard.type('Jane Cooper');
  await page.keyboard.press('Tab');
  await page.keyboard.type('jane@example.com');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Volumes');
  await page.keyboard.press('Tab');
  await page.keyboard.type('About 2 million addresses a month.');
  await page.keyboard.press('Tab');
  const send = page.getByRole('button', { name: 'Send Message' });
  await expect(send).toBeFocused();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
  await page.keyboard.press('Enter');
  const sending = page.getByRole('button', { name: 'Sending...' });
  await expect(sending).toBeVisible();
  await expect(sending, 'focus fell off the page while sending').toBeFocused();
  await page.keyboard.press('Enter'); // a second press while sending sends nothing twice
  await expect(page.getByText('Message Sent!')).toHaveCount(1);
  await expect(page.getByText("We'll get back to you within 24 hours.", { exact: true })).toBeVisible();
  for (const field of ['Name', 'Email', 'Subject', 'Message']) await expect(page.getByLabel(field)).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeFocused();
  expect(requests).toEqual([]);
});

test('Contact: a field of spaces only is not filled in; nothing is "sent", the field says so and everything typed stays', async ({ page }) => {
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Jane Cooper');
  await page.getByLabel('Email').fill('jane@example.com');
  await page.getByLabel('Subject').fill('   ');
  await page.getByLabel('Message').fill('About 2 million addresses a month.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByLabel('Subject')).toBeFocused();
  expect(await page.getByLabel('Subject').evaluate((el: HTMLInputElement) => el.validationMessage)).not.toBe('');
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveValue('About 2 million addresses a month.');
  // Once filled in, it sends.
  await page.getByLabel('Subject').fill('Volumes');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Message Sent!')).toBeVisible();
});
