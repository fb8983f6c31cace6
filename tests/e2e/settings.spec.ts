// Settings end to end: the profile form, Change Password, TOTP two-factor (QR code, verification,
// backup codes, then a sign-in that asks for the code), Sign Out and Delete Account.
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { expect, test, type Page } from '@playwright/test';
import { expectSignedOut, openDialog, SCREENSHOT_DIR, signIn, signUpAndVerify, submitSignIn, submitSignUp, uniqueEmail } from './helpers';

/** Screenshots show the page, not the toasts floating over it. */
const HIDE_TOASTS = '[data-sonner-toaster] { display: none !important; }';

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).last();

/** The TOTP code an authenticator app would show for this Base32 secret (stepOffset 1 = the next 30 s window). */
async function totp(secretBase32: string, stepOffset = 0): Promise<string> {
  const otp = createOTP(base32.decode(secretBase32.replace(/\s/g, '')));
  return stepOffset === 0 ? otp.totp() : otp.hotp(Math.floor(Date.now() / 30_000) + stepOffset);
}

/** Signs out with the Settings page's own button (Danger Zone). */
async function signOut(page: Page) {
  await page.goto('/dashboard/settings');
  await page.getByRole('main').getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  await expect(toast(page, 'Signed Out')).toBeVisible();
}

test('the profile saves full name and company; the email stays read-only', async ({ page }) => {
  const email = uniqueEmail('e2e-profile');
  // A name holding a text-direction character (U+202E RIGHT-TO-LEFT OVERRIDE) would draw the text after
  // it backwards wherever teammates see it (the Team list, the invitation notice's account name): refused
  // at sign-up, and the form keeps what was typed.
  await page.goto('/auth');
  await submitSignUp(page, { email, name: 'Mary \u202Etxt.exe' });
  await expect(toast(page, 'Signup Failed')).toContainText('text-direction');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await signUpAndVerify(page, { email, name: 'Mary Jackson' });
  await page.goto('/dashboard/settings');
  const emailField = page.getByLabel('Email', { exact: true });
  await expect(emailField).toHaveValue(email);
  await expect(emailField).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Full Name')).toHaveValue('Mary Jackson');
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/settings.png`, fullPage: true, style: HIDE_TOASTS });

  await page.getByLabel('Full Name').fill('Mary W. Jackson');
  await page.getByLabel('Company Name').fill('Langley Research Center');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Success')).toContainText('Profile updated successfully');

  await page.reload();
  await expect(page.getByLabel('Full Name')).toHaveValue('Mary W. Jackson');
  await expect(page.getByLabel('Company Name')).toHaveValue('Langley Research Center');

  // A blank name is refused by the server with the spec's toast.
  await page.getByLabel('Full Name').fill('   ');
  await page.getByLabel('Full Name').evaluate((el) => el.removeAttribute('required'));
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Error')).toContainText('Failed to update profile');
  await expect(page.getByRole('alert')).toContainText('Full name is required.');

  // So does a name or company with a text-direction character, whichever it is.
  await page.getByLabel('Full Name').fill('Mary \u2067Jackson');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('alert')).toContainText('Full name cannot contain');
  await page.getByLabel('Full Name').fill('Mary W. Jackson');
  await page.getByLabel('Company Name').fill('Langley \u202ERC');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('alert')).toContainText('Company name cannot contain');
  await expect(page.getByLabel('Company Name')).toHaveValue('Langley \u202ERC');
});

test('Change Password needs the current one; afterwards only the new one signs in', async ({ page }) => {
  const email = uniqueEmail('e2e-password');
  await signUpAndVerify(page, { email, password: 'first-secret' });
  await page.goto('/dashboard/settings');
  const dialog = await openDialog(page, 'Change Password');
  await dialog.getByLabel('Current password').fill('wrong-secret');
  await dialog.getByLabel(/^New password/).fill('second-secret');
  await dialog.getByLabel('Confirm new password').fill('second-secret');
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Your current password is not correct.');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-change-password.png`, style: HIDE_TOASTS });

  await dialog.getByLabel('Current password').fill('first-secret');
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await expect(toast(page, 'Password Changed')).toBeVisible();
  await expect(dialog).toBeHidden();

  await signOut(page);
  await page.goto('/auth');
  await submitSignIn(page, email, 'first-secret');
  await expect(toast(page, 'Login Failed')).toBeVisible();
  await signIn(page, email, 'second-secret');
});

test('2FA: enable with a QR code and a code, then sign-in asks for the code; it can be turned off', async ({ page }) => {
  test.setTimeout(90_000);
  const email = uniqueEmail('e2e-2fa');
  await signUpAndVerify(page, { email, password: 'twofa-secret' });
  await page.goto('/dashboard/settings');
  await expect(page.getByTestId('twofa-status')).toHaveText('Disabled');

  await page.getByRole('button', { name: 'Enable 2FA' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Password').fill('twofa-secret');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('img', { name: 'QR code to add Mailvet to your authenticator app' })).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-2fa-qr.png`, style: HIDE_TOASTS });

  await dialog.getByLabel('Verification code').fill('000000' === (await totp(secret)) ? '111111' : '000000');
  await dialog.getByRole('button', { name: 'Verify and Enable' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await dialog.getByLabel('Verification code').fill(await totp(secret));
  await dialog.getByLabel('Verification code').press('Enter');
  await expect(dialog.getByRole('heading', { name: 'Save your backup codes' })).toBeVisible();
  await expect(dialog.getByTestId('backup-codes').getByRole('listitem')).toHaveCount(10);
  // The code field that had the focus is gone: Copy codes takes it, not the page behind the dialog.
  const copyCodes = dialog.getByRole('button', { name: 'Copy codes' });
  await expect(copyCodes).toBeFocused();
  // A browser that refuses the copy (no clipboard permission, no fallback) is told so, never 'Copied'.
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('denied')) } });
    document.execCommand = () => false;
  });
  await copyCodes.click();
  await expect(toast(page, 'Could not copy. Select the codes and copy them manually.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-2fa-backup.png`, style: HIDE_TOASTS });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(toast(page, 'Two-Factor Enabled')).toBeVisible();
  await expect(page.getByTestId('twofa-status')).toHaveText('Enabled');

  // Signing in now takes the password and then a code from the app.
  await signOut(page);
  await page.goto('/auth');
  await submitSignIn(page, email, 'twofa-secret');
  await expect(page.getByLabel('Verification code')).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/auth-2fa.png`, style: HIDE_TOASTS });
  await page.getByLabel('Verification code').fill(await totp(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/dashboard');

  // And off again, with the password.
  await page.goto('/dashboard/settings');
  dialog = await openDialog(page, 'Disable 2FA');
  await dialog.getByLabel('Password').fill('twofa-secret');
  await dialog.getByRole('button', { name: 'Disable 2FA' }).click();
  await expect(toast(page, 'Two-Factor Disabled')).toBeVisible();
  await expect(page.getByTestId('twofa-status')).toHaveText('Disabled');
  await signOut(page);
  await signIn(page, email, 'twofa-secret');
});

test('Sign Out in Settings ends the session', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-settings-signout') });
  await page.goto('/dashboard/settings');
  await page.getByRole('main').getByRole('button', { name: 'Sign Out' }).click();
  await expect(toast(page, 'Signed Out')).toContainText('You have been successfully signed out.');
  await expectSignedOut(page, '/dashboard/settings');
});

test('Delete Account needs DELETE typed and the password, then signs out and the account is gone', async ({ page }) => {
  const email = uniqueEmail('e2e-delete');
  await signUpAndVerify(page, { email, password: 'delete-secret' });
  await page.goto('/dashboard/settings');
  const dialog = await openDialog(page, 'Delete Account');
  await expect(dialog).toContainText('the whole account is deleted');
  const confirm = dialog.getByRole('button', { name: 'Delete Account' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type DELETE to confirm/).fill('delete');
  await dialog.getByLabel('Password').fill('delete-secret');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type DELETE to confirm/).fill('DELETE');
  await dialog.getByLabel('Password').fill('wrong-secret');
  await confirm.click();
  await expect(dialog.getByRole('alert')).toHaveText('That password is not correct.');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-delete.png`, style: HIDE_TOASTS });

  await dialog.getByLabel('Password').fill('delete-secret');
  await confirm.click();
  await expect(toast(page, 'Account Deleted')).toBeVisible();
  await expectSignedOut(page, '/dashboard');
  await submitSignIn(page, email, 'delete-secret');
  await expect(toast(page, 'Login Failed')).toBeVisible();
});

test("Delete Account that gets no answer from the server (a gateway's error page) says 'Failed to delete account', keeps the user signed in and the account there", async ({ page }) => {
  const email = uniqueEmail('e2e-delete-noanswer');
  await signUpAndVerify(page, { email, password: 'delete-secret' });
  await page.goto('/dashboard/settings');
  await page.route('**/api/trpc/*account.deleteAccount*', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>502 Bad Gateway</body></html>' }));
  const dialog = await openDialog(page, 'Delete Account');
  await dialog.getByLabel(/Type DELETE to confirm/).fill('DELETE');
  await dialog.getByLabel('Password').fill('delete-secret');
  await dialog.getByRole('button', { name: 'Delete Account' }).click();
  await expect(toast(page, 'Error')).toContainText('Failed to delete account');
  await expect(toast(page, 'Error')).not.toContainText('JSON');
  await expect(dialog.getByRole('alert')).toHaveText('Failed to delete account');
  await page.unrouteAll();
  await page.reload();
  await expect(page.getByTestId('user-email')).toHaveText(email);
});
