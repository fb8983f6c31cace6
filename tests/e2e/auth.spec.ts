import { expect, test } from '@playwright/test';
import { expectSignedOut, followMailLink, pressAndSee, SCREENSHOT_DIR, signOut, signUpAndVerify, submitSignIn, submitSignUp, uniqueEmail } from './helpers';

test('a visitor signs up, verifies by mail, stays signed in across a reload and signs out', async ({ page }) => {
  const email = uniqueEmail('e2e-auth');
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In', selected: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/auth.png`, fullPage: true });

  // Signing in before verifying is refused with the server's reason.
  await submitSignUp(page, { name: 'Ada Lovelace', email, password: 'engine42' });
  await expect(page.getByText('Check Your Email!')).toBeVisible();
  await expect(page.getByText("We've sent you a verification link. Please check your email to activate your account.")).toBeVisible();
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await submitSignIn(page, email, 'engine42');
  await expect(page.getByText('Login Failed')).toBeVisible();

  await followMailLink(page, email, 'Verify your email');
  await page.waitForURL('**/dashboard');
  await expect(page.getByTestId('user-email')).toHaveText(email);
  await expect(page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link')).toHaveText([
    'Overview', 'Validate Email', 'Bulk Upload', 'Auto Revalidation', 'History', 'API Keys', 'Team', 'Integrations', 'Billing', 'Documentation', 'Settings',
  ]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/dashboard-overview.png`, fullPage: true });

  await page.reload();
  await expect(page.getByTestId('user-email')).toHaveText(email);

  // A signed-in visitor of /auth goes to the dashboard.
  await page.goto('/auth');
  await page.waitForURL('**/dashboard');

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByText('You have been successfully signed out.')).toBeVisible();
  await expectSignedOut(page, '/dashboard/history');
});

test('after Sign Out, a dashboard link followed in the same tab (the footer\'s Integrations, then Back) leads to /auth, not home', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-signout-link') });
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'History' }).click();
  await page.waitForURL('**/dashboard/history');
  await signOut(page);
  // A link inside the app (no page load): the guard must send the signed-out visitor to sign in.
  await page.getByRole('contentinfo').getByRole('link', { name: 'Integrations' }).click();
  await page.waitForURL('**/auth');
  await expect(page.getByRole('tab', { name: 'Sign In', selected: true })).toBeVisible();
  // Back to home, then Back again onto the dashboard page left by signing out: /auth again.
  await page.goBack();
  await page.waitForURL((u) => u.pathname === '/');
  await page.goBack();
  await page.waitForURL('**/auth');
});

test('a verification link that is invalid or expired lands on Sign In with a note saying so and how to get a new one', async ({ page }) => {
  const email = uniqueEmail('e2e-verify-expired');
  await page.goto('/auth');
  await submitSignUp(page, { email, password: 'secret123' });
  await expect(page.getByText('Check Your Email!')).toBeVisible();
  // The mailed link, its token spoiled (as an expired one is refused).
  await page.goto('/api/auth/verify-email?token=expired.or.mangled&callbackURL=%2Fdashboard');
  await page.waitForURL('**/auth**');
  await expect(page.getByRole('alert')).toContainText('This verification link is invalid or has expired.');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/auth-link-expired.png`, fullPage: true });
  // Signing in sends a fresh link, which works.
  await submitSignIn(page, email);
  await expect(page.getByText('Please verify your email address first. We have sent you a new verification link.')).toBeVisible();
  await followMailLink(page, email, 'Verify your email', /verify-email/);
  await page.waitForURL('**/dashboard');
});

test('a wrong password shows Login Failed', async ({ page }) => {
  const email = uniqueEmail('e2e-wrongpw');
  await signUpAndVerify(page, { email, password: 'right-password' });
  await signOut(page);
  await page.goto('/auth');
  await submitSignIn(page, email, 'wrong-password');
  await expect(page.getByText('Login Failed')).toBeVisible();
  await expect(page.getByText(/invalid email or password/i)).toBeVisible();
});

test('when the server cannot answer, Sign In, Sign Up and Sign Out say so, never "Invalid email or password", and stay usable', async ({ page }) => {
  const email = uniqueEmail('e2e-auth-noanswer');
  await signUpAndVerify(page, { email });
  await signOut(page);
  await page.goto('/auth');
  const noAnswer = 'Mailvet did not answer. Check your connection and try again.';
  const signInButton = page.getByRole('button', { name: 'Sign In' });

  // A gateway's own error page instead of the API's answer.
  await page.route('**/api/auth/sign-in/email', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>502 Bad Gateway</body></html>' }));
  await submitSignIn(page, email);
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Login Failed' })).toContainText(noAnswer);
  await expect(page.getByText('Invalid email or password')).toHaveCount(0);
  await page.unroute('**/api/auth/sign-in/email');

  // The connection drops: the same message, and the button can be pressed again.
  await page.route('**/api/auth/sign-in/email', (route) => route.abort('internetdisconnected'));
  await signInButton.click();
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Login Failed' })).toHaveCount(2);
  await expect(signInButton).toBeEnabled();
  await page.route('**/api/auth/sign-up/email', (route) => route.abort('internetdisconnected'));
  await submitSignUp(page, { email: uniqueEmail('e2e-auth-noanswer-up') });
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Signup Failed' })).toContainText(noAnswer);
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  await page.unrouteAll();

  // Signed in, Sign Out without a connection shows the spec's 'Error' toast and leaves the user where they were.
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await submitSignIn(page, email);
  await page.waitForURL('**/dashboard');
  await page.route('**/api/auth/sign-out', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Error' })).toContainText(noAnswer);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeEnabled();
});

test('the sidebar collapses to icons with Ctrl+B, remembers it, and is a drawer on a phone', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-sidebar') });
  const sidebar = page.locator('aside[data-state]');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  expect((await sidebar.boundingBox())?.width).toBe(256);
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(48);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'sidebar_state');
  expect(cookie?.value).toBe('false');
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(6.9 * 24 * 3600);
  await page.reload();
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/dashboard-collapsed.png` });

  await page.setViewportSize({ width: 390, height: 800 });
  await expect(sidebar).toBeHidden();
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  const drawer = page.getByTestId('sidebar-drawer');
  await expect(drawer).toBeVisible();
  expect((await drawer.boundingBox())?.width).toBe(288);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/dashboard-drawer.png` });
  await drawer.getByRole('link', { name: 'History' }).click();
  await page.waitForURL('**/dashboard/history');
  await expect(drawer).toBeHidden();
});

test('unknown paths show the 404 page with a link home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await page.getByRole('link', { name: /home/i }).click();
  await page.waitForURL((u) => u.pathname === '/');
});

test('a user who forgot the password gets a link by mail, chooses a new one and signs in with it', async ({ page }) => {
  const email = uniqueEmail('e2e-forgot');
  await signUpAndVerify(page, { email, password: 'first-password' });
  await signOut(page);

  await page.goto('/auth');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const forgot = page.getByRole('form', { name: 'Reset password' });
  await expect(forgot).toBeVisible();
  await forgot.getByLabel('Email').fill(email);
  await forgot.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText("If an account exists for that address, we've sent a link to reset your password.")).toBeVisible();

  await followMailLink(page, email, 'Reset your Mailvet password');
  await page.waitForURL(/\/auth\?.*step=reset/);
  await expect(page.getByRole('form', { name: 'Choose a new password' })).toBeVisible();
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('second-password');
  await page.getByLabel('Confirm new password').fill('something-else');
  await pressAndSee(page, 'Set New Password', 'The two passwords do not match.');
  await page.getByLabel('Confirm new password').fill('second-password');
  await pressAndSee(page, 'Set New Password', 'You can now sign in with your new password.');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/auth-reset-done.png` });
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();

  await submitSignIn(page, email, 'second-password');
  await page.waitForURL('**/dashboard');
});

test('a two-factor code sent after the sign-in expired (or on a reloaded or bookmarked code page) says to sign in again and shows the sign-in form', async ({ page }) => {
  // No pending two-factor sign-in: the server has nothing to check the code against.
  await page.goto('/auth?step=2fa');
  await page.getByLabel('Verification code').fill('123456');
  await page.getByRole('button', { name: 'Verify' }).click();
  const toast = page.locator('[data-sonner-toast]', { hasText: 'Login Failed' });
  await expect(toast).toContainText('Your sign-in has expired. Please sign in again with your email and password.');
  await expect(toast).not.toContainText('cookie');
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page).toHaveURL((u) => !u.searchParams.has('step'));
});
