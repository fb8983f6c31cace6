// The sign-in page of the public site in a tab the visitor keeps using: a signed-in visitor, a reset
// link opened while signed in, and switching between Sign In and Sign Up.
// (Split from public-site.spec.ts by concern, assertions unchanged.)
import { expect, test } from '@playwright/test';
import { followMailLink, newUserOn, submitSignIn, submitSignUp, uniqueEmail } from './helpers';

test('a signed-in visitor opening /auth goes to the dashboard without the sign-in form showing first, even on a slow session check', async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv-auth-flash' });
  // Records whether the sign-in card was ever on screen while /auth was the page.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (location.pathname === '/auth' && document.body?.innerText.includes('Sign in to your account')) sessionStorage.setItem('signin-form-shown', '1');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.route('**/api/auth/get-session*', async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page.goto('/auth');
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('link', { name: 'Overview' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('signin-form-shown')), 'the sign-in form flashed before the redirect').toBeNull();
  // A signed-out visitor still gets the form once the (slow) check answers.
  await page.context().clearCookies();
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In', selected: true })).toBeVisible();
  // ...and keeps it through the checks that follow (a sign-up asks again): the note stays, on Sign Up.
  const email = uniqueEmail('rv-auth-flash2');
  await submitSignUp(page, { email });
  await expect(page.getByText('Check Your Email!')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `We sent a verification link to ${email}` })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Sign Up', selected: true })).toBeVisible();
});

test('a password reset link opened in a browser that is still signed in shows the new-password form (it went straight to the dashboard), and the new password works', async ({ page, browser }) => {
  const email = await newUserOn(page, '/dashboard', { tag: 'rv-reset-signed-in', password: 'first-password' });
  // The reset is asked for elsewhere (another device where the password is forgotten).
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await elsewhere.goto('/auth');
  await elsewhere.getByRole('button', { name: 'Forgot password?' }).click();
  await elsewhere.getByRole('form', { name: 'Reset password' }).getByLabel('Email').fill(email);
  await elsewhere.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(elsewhere.getByText("If an account exists for that address, we've sent a link to reset your password.")).toBeVisible();
  await other.close();

  // The mail is opened in the browser that is still signed in.
  await followMailLink(page, email, 'Reset your Mailvet password');
  await expect(page.getByRole('form', { name: 'Choose a new password' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\?.*step=reset/);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('second-password');
  await page.getByLabel('Confirm new password').fill('second-password');
  const visited: string[] = [];
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) visited.push(new URL(f.url()).pathname);
  });
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page.getByText('You can now sign in with your new password.')).toBeVisible();
  // Resetting signs every session out (the server revokes them): the sign-in form, then the new password.
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  expect(visited, 'pages passed through after the reset').not.toContain('/dashboard');
  await submitSignIn(page, email, 'second-password');
  await page.waitForURL('**/dashboard');
});

test('switching between Sign In and Sign Up (arrow keys or clicks) keeps the email typed, never the password', async ({ page }) => {
  await page.goto('/auth');
  const email = uniqueEmail('rv-tab-switch');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not-my-account');
  await page.getByRole('tab', { name: 'Sign In' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Sign Up', selected: true })).toBeFocused();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Password')).toHaveValue('');
  await expect(page.getByLabel('Full Name')).toHaveValue('');
  const changed = uniqueEmail('rv-tab-switch2');
  await page.getByLabel('Email').fill(changed);
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await expect(page.getByLabel('Email')).toHaveValue(changed);
  await expect(page.getByLabel('Password')).toHaveValue('');
});
