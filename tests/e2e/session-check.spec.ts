// The dashboard's first session check failing (a 5xx, a dropped connection) is not "signed out":
// a signed-in user is told the check failed and can try again, never sent to the sign-in page.
import { expect, test } from '@playwright/test';
import { SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

test('a signed-in user whose session check fails is offered to try again, not sent to sign in', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-session-check') });
  await expect(page.getByText('Credits Balance')).toBeVisible();

  let failing = true;
  await page.route('**/api/auth/get-session*', (route) => (failing ? route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' }) : route.fallback()));
  await page.goto('/dashboard/history');
  const alert = page.getByRole('alert').filter({ hasText: 'Could not check your sign-in.' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('You have not been signed out.');
  expect(new URL(page.url()).pathname).toBe('/dashboard/history');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/session-check-failed.png`, fullPage: true });

  failing = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'History' }).first()).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/dashboard/history');
});
