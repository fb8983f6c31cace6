// A double-click on a form's submit button (or Enter pressed twice) must send it once. The button's
// busy state comes a render later, so a second submit landing first went through: two profile saves
// and two 'Profile updated successfully' toasts, two checks (and two credits) for one address. The
// second submit here comes in the next task, before the page answers, as a fast double-click's does.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { withE2eDb } from './db';
import { followMailLink, newUserOn, signUpAndVerify, uniqueEmail } from './helpers';

/** Counts the tRPC calls to `procedure` this page makes from now on. */
function countCalls(page: Page, procedure: string): () => number {
  let n = 0;
  page.on('request', (r) => {
    // A batch counts each of its calls: two clicks' calls can share one request.
    if (r.method() === 'POST') n += new URL(r.url()).pathname.split('/').pop()!.split(',').filter((p) => p === procedure).length;
  });
  return () => n;
}

/** Submits the button's form, then again in the next task (a double-click's second click). */
async function submitTwice(button: Locator): Promise<void> {
  await button.evaluate(
    (b: HTMLButtonElement) =>
      new Promise<void>((done) => {
        b.form!.requestSubmit(b);
        setTimeout(() => {
          b.form!.requestSubmit(b);
          done();
        }, 0);
      }),
  );
}

test('Settings: Save Changes pressed twice saves the profile once and says so once', async ({ page }) => {
  await newUserOn(page, '/dashboard/settings', { tag: 'rv-dbl-profile' });
  const calls = countCalls(page, 'account.profile.update');
  await page.getByLabel('Full Name').fill('Dora Double');
  await submitTwice(page.getByRole('button', { name: 'Save Changes' }));
  await expect(page.getByText('Profile updated successfully').first()).toBeVisible();
  await expect(page.getByText('Profile updated successfully')).toHaveCount(1);
  expect(calls()).toBe(1);
});

test('Validate Email: Validate Email pressed twice checks the address once (one credit)', async ({ page }) => {
  await newUserOn(page, '/dashboard/validate', { tag: 'rv-dbl-validate' });
  const calls = countCalls(page, 'validation.check');
  await page.getByLabel('Email address').fill('alice@normal.mailworld.test');
  await submitTwice(page.getByRole('button', { name: 'Validate Email' }));
  await expect(page.getByText('Validation Complete').first()).toBeVisible();
  await expect(page.getByText('Validation Complete')).toHaveCount(1);
  expect(calls()).toBe(1);
  await page.goto('/dashboard');
  await expect(page.getByText('0.2% of quota used')).toBeVisible();
});

test('API Keys: Add Endpoint pressed twice adds the webhook endpoint once', async ({ page }) => {
  const email = await newUserOn(page, '/dashboard', { tag: 'rv-dbl-hook' });
  // Account webhooks are Enterprise's (sales-led: no screen makes it).
  await withE2eDb((c) => c.query(`update account a set plan = 'enterprise' from "user" u where u.id = a.owner_id and u.email = $1`, [email]));
  await page.goto('/dashboard/api-keys');
  const calls = countCalls(page, 'webhooks.createEndpoint');
  const form = page.getByTestId('webhook-endpoints').getByRole('form', { name: 'Add webhook endpoint' });
  await form.getByLabel('Endpoint URL').fill('https://93.184.215.14/hooks/double');
  await submitTwice(form.getByRole('button', { name: 'Add Endpoint' }));
  await expect(page.getByText('Webhook endpoint added').first()).toBeVisible();
  await expect(page.getByText('Webhook endpoint added')).toHaveCount(1);
  await expect(page.getByTestId('webhook-endpoint-row')).toHaveCount(1);
  await expect(form.getByRole('alert')).toHaveCount(0);
  expect(calls()).toBe(1);
});

test('White-label: Save colour pressed twice saves once and says so once', async ({ page }) => {
  await newUserOn(page, '/dashboard/settings', { tag: 'rv-dbl-brand', plan: 'business' });
  const card = page.getByTestId('white-label');
  const calls = countCalls(page, 'branding.update');
  await card.getByLabel('Brand colour').fill('#0f766e');
  await submitTwice(card.getByRole('button', { name: 'Save colour' }));
  await expect(page.getByText('Branding saved').first()).toBeVisible();
  await expect(page.getByText('Branding saved')).toHaveCount(1);
  expect(calls()).toBe(1);
});

/** How many /dev/outbox mails to `to` mention `subject`. */
async function mailsTo(page: Page, to: string, subject: string): Promise<number> {
  const html = await (await page.request.get('/dev/outbox')).text();
  return html.split('<article').filter((a) => a.includes(to) && a.includes(subject)).length;
}

test('Forgot password: Send Reset Link pressed twice mails one link; Set New Password pressed twice changes it once, with no Error', async ({ page, context }) => {
  const email = uniqueEmail('rv-dbl-reset');
  await signUpAndVerify(page, { email, password: 'first-password' });
  await context.clearCookies();
  await page.goto('/auth?step=forgot');
  await page.getByLabel('Email').fill(email);
  await submitTwice(page.getByRole('button', { name: 'Send Reset Link' }));
  await expect(page.getByText("If an account exists for that address, we've sent a link to reset your password.").first()).toBeVisible();
  await expect.poll(() => mailsTo(page, email, 'Reset your Mailvet password')).toBeGreaterThan(0);
  expect(await mailsTo(page, email, 'Reset your Mailvet password'), 'reset mails').toBe(1);

  await followMailLink(page, email, 'Reset your Mailvet password');
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('second-password');
  await page.getByLabel('Confirm new password').fill('second-password');
  await submitTwice(page.getByRole('button', { name: 'Set New Password' }));
  await expect(page.getByText('You can now sign in with your new password.')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Error' })).toHaveCount(0);

  // Sign In pressed twice signs in once: one 'Welcome Back!'.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('second-password');
  await submitTwice(page.getByRole('button', { name: 'Sign In' }));
  await page.waitForURL('**/dashboard');
  await expect(page.getByText('Successfully logged in.').first()).toBeVisible();
  await expect(page.getByText('Successfully logged in.')).toHaveCount(1);
});

test('Billing: Pay in the test checkout pressed twice pays once (one payment, one Payment Successful)', async ({ page }) => {
  await newUserOn(page, '/dashboard/billing', { tag: 'rv-dbl-pay' });
  const calls = countCalls(page, 'billing.completeTestPayment');
  await page.getByRole('button', { name: 'Upgrade to Starter' }).click();
  const pay = page.getByRole('dialog', { name: 'Mailvet checkout' }).getByRole('button', { name: 'Pay $19.00 (test)' });
  // A real double-click (not in a form): its second click reaches the page before the mutation's busy state does.
  await pay.dblclick();
  await expect(page.getByText("You've been upgraded to the Starter plan.").first()).toBeVisible();
  await expect(page.getByTestId('current-plan')).toHaveText('Starter (monthly)');
  await expect(page.getByTestId('payments').getByRole('row')).toHaveCount(2); // the header and one payment
  await expect(page.getByText("You've been upgraded to the Starter plan.")).toHaveCount(1);
  expect(calls()).toBe(1);
});

test("Billing: Keep my current plan pressed twice takes the change back once, with no 'Error' toast", async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv-dbl-keep', plan: 'pro' });
  // A change to Business waiting for the renewal (what Upgrade to Business, then Schedule change, does).
  const scheduled = await page.request.post('/api/trpc/billing.checkout', { data: { planType: 'business', interval: 'monthly' } });
  expect(scheduled.ok()).toBeTruthy();
  await page.goto('/dashboard/billing');
  await expect(page.getByTestId('renewal')).toContainText('then changes to the Business plan');
  const calls = countCalls(page, 'billing.keepCurrentPlan');
  await page.getByRole('button', { name: 'Keep my current plan' }).dblclick();
  await expect(page.getByText('Plan change withdrawn').first()).toBeVisible();
  await expect(page.getByTestId('renewal')).not.toContainText('then changes');
  await expect(page.getByText('Plan change withdrawn')).toHaveCount(1);
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Error' })).toHaveCount(0);
  expect(calls()).toBe(1);
});

test('API Keys: Rotate Secret confirmed with a double-click rotates once (a second rotation replaced the secret just shown)', async ({ page }) => {
  const email = await newUserOn(page, '/dashboard', { tag: 'rv-dbl-rotate' });
  await withE2eDb((c) => c.query(`update account a set plan = 'enterprise' from "user" u where u.id = a.owner_id and u.email = $1`, [email]));
  await page.goto('/dashboard/api-keys');
  await expect(page.getByLabel('Webhook signing secret', { exact: true })).toHaveValue(/^whsec_/);
  const calls = countCalls(page, 'webhooks.rotateSecret');
  await page.getByRole('button', { name: 'Rotate Secret' }).click();
  await page.getByRole('dialog', { name: 'Rotate signing secret?' }).getByRole('button', { name: 'Rotate Secret' }).dblclick();
  const shown = page.getByRole('dialog', { name: 'New signing secret' });
  await expect(shown.getByLabel('New webhook signing secret', { exact: true })).toHaveValue(/^whsec_/);
  expect(calls()).toBe(1);
});
