import { expect, type Page } from '@playwright/test';

export const SCREENSHOT_DIR = 'tests/e2e/__screenshots__';

let counter = 0;
/** A unique address per test run (the e2e database lives for the whole run). */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}${counter}@example.com`;
}

/** Signs up through the UI and follows the verification link from /dev/outbox; ends on /dashboard. */
export async function signUpAndVerify(page: Page, o: { name?: string; email: string; password?: string }): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill(o.name ?? 'Test User');
  await page.getByLabel('Email').fill(o.email);
  await page.getByLabel('Password').fill(o.password ?? 'secret123');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Check Your Email!')).toBeVisible();

  await page.goto('/dev/outbox');
  const mail = page.locator('article', { hasText: o.email }).filter({ hasText: 'Verify your email' }).first();
  await mail.getByRole('link', { name: /verify-email/ }).click();
  await page.waitForURL('**/dashboard');
}

export async function signIn(page: Page, email: string, password = 'secret123'): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
}
