// Settings on a slow connection: until the profile has arrived the page says it is loading it. It
// showed an empty Email field and an empty, greyed-out Full Name with no word why, and a 'Disabled'
// two-factor badge that was only a guess (a user with 2FA on read 'Disabled' until the answer came).
import { expect, test } from '@playwright/test';
import { newUserOn, SCREENSHOT_DIR } from './helpers';

test('Settings says it is loading the profile, not empty fields and a guessed 2FA state, until the profile arrives', async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv-settings-slow' });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/api\/trpc\/[^?]*account\.profile\.get/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('link', { name: 'Settings' }).click();
  const form = page.getByRole('form', { name: 'Profile' });
  await expect(form.getByRole('status').filter({ hasText: 'Loading your profile…' })).toBeVisible();
  await expect(form.getByLabel('Full Name')).toHaveCount(0);
  await expect(form.getByLabel('Email')).toHaveCount(0);
  await expect(page.getByTestId('twofa-status')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rv-settings-loading.png` });

  release();
  await expect(form.getByLabel('Full Name')).toHaveValue('Test User');
  await expect(form.getByLabel('Email')).toHaveValue(/rv-settings-slow/);
  await expect(form.getByText('Loading your profile…')).toHaveCount(0);
  await expect(page.getByTestId('twofa-status')).toHaveText('Disabled');
});
