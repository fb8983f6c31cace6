import { expect, test, type Locator, type Page } from '@playwright/test';
import { SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

const card = (page: Page, plan: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: plan, exact: true }) });

/** Tells the geolocation fake which country the browser is in (its URL comes from /api/public-config). */
async function setCountry(page: Page, country: string) {
  const config = (await (await page.request.get('/api/public-config')).json()) as { geoUrl: string };
  await page.request.post(new URL(`/country/${country}`, config.geoUrl).toString());
}

/** Opens the test checkout with the plan card's Upgrade button. */
async function openCheckout(page: Page, plan: string) {
  await card(page, plan).getByRole('button', { name: `Upgrade to ${plan}` }).click();
  return page.getByRole('dialog', { name: 'Mailvet checkout' });
}

/** Pays `amount` in the open test checkout and sees the upgrade to `plan` announced. */
async function pay(page: Page, checkout: Locator, amount: string, plan: string) {
  await checkout.getByRole('button', { name: `Pay ${amount} (test)` }).click();
  await expect(page.getByText(`You've been upgraded to the ${plan} plan.`)).toBeVisible();
}

test.afterEach(async ({ page }) => {
  await setCountry(page, 'US');
});

test('billing shows five plans and upgrades through the labelled test checkout', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing') });
  await page.goto('/dashboard/billing');

  await expect(page.getByRole('heading', { level: 3 })).toHaveText(['Free', 'Starter', 'Pro', 'Business', 'Enterprise']);
  await expect(card(page, 'Starter').getByText('Most Popular')).toBeVisible();
  await expect(page.getByText('Most Popular')).toHaveCount(1);
  await expect(card(page, 'Free').getByText('Current', { exact: true })).toBeVisible();
  await expect(card(page, 'Starter')).toContainText('$19');
  await expect(card(page, 'Business')).toContainText('$199');
  await expect(card(page, 'Enterprise').getByRole('link', { name: 'Contact Sales' })).toHaveAttribute('href', /^mailto:sales@mailvet\.io/);
  await expect(page.getByTestId('current-plan')).toHaveText('Free');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing.png`, fullPage: true });

  // Same plan.
  await card(page, 'Free').getByRole('button', { name: 'Current Plan' }).click();
  await expect(page.getByText('Already Subscribed')).toBeVisible();

  // Upgrade to Starter: test checkout, then the normal verification.
  const checkout = await openCheckout(page, 'Starter');
  await expect(checkout.getByText('Test mode — no real payment')).toBeVisible();
  await expect(checkout).toContainText('Starter plan (monthly)');
  await expect(checkout).toContainText('$19.00');
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-test-checkout.png` });
  await checkout.getByRole('button', { name: 'Pay $19.00 (test)' }).click();
  await expect(page.getByText('Payment Successful')).toBeVisible();
  await expect(page.getByText("You've been upgraded to the Starter plan.")).toBeVisible();
  await expect(checkout).toBeHidden();

  // The displayed plan follows.
  await expect(page.getByTestId('current-plan')).toHaveText('Starter (monthly)');
  await expect(page.getByTestId('credits-balance')).toHaveText('10,500');
  await expect(page.getByTestId('payments')).toContainText('Starter (monthly)');
  await expect(page.getByTestId('payments')).toContainText('$19');
  await expect(card(page, 'Starter').getByText('Current', { exact: true })).toBeVisible();
  await expect(card(page, 'Free').getByText('Current', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-upgraded.png`, fullPage: true });

  // Lower plan.
  await card(page, 'Free').getByRole('button', { name: 'Downgrade' }).click();
  await expect(page.getByText('Downgrade Not Available')).toBeVisible();
  await expect(page.getByText('Please contact support to downgrade your plan.')).toBeVisible();

  // A plan change while subscribed waits for the renewal (no second checkout, no proration).
  await card(page, 'Pro').getByRole('button', { name: 'Upgrade to Pro' }).click();
  await page.getByRole('dialog', { name: 'Change to the Pro plan at renewal?' }).getByRole('button', { name: 'Schedule change' }).click();
  await expect(page.getByText('Plan change scheduled')).toBeVisible();
  await expect(page.getByTestId('renewal')).toContainText('then changes to the Pro plan');
  await expect(page.getByTestId('current-plan')).toHaveText('Starter (monthly)');
  await card(page, 'Pro').getByRole('button', { name: /^Starts on / }).click();
  await expect(page.getByText(/^Your plan changes to Pro at your next renewal on /)).toHaveCount(2); // the scheduling's toast and this one

  // Changed their mind before the renewal: the change is taken back, the renewal stays on Starter.
  await page.getByRole('button', { name: 'Keep my current plan' }).click();
  await expect(page.getByText('Your subscription stays on the Starter plan; nothing changes at the renewal.')).toBeVisible();
  await expect(page.getByTestId('renewal')).toContainText('Renews on');
  await expect(page.getByTestId('renewal')).not.toContainText('then changes');
  await expect(page.getByRole('button', { name: 'Keep my current plan' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('renewal')).not.toContainText('then changes');
});

test('a plan change whose period has ended: the page says it started and offers no undo the server would refuse', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-started') });
  await page.goto('/dashboard/billing');
  await pay(page, await openCheckout(page, 'Starter'), '$19.00', 'Starter');
  await card(page, 'Pro').getByRole('button', { name: 'Upgrade to Pro' }).click();
  await page.getByRole('dialog', { name: 'Change to the Pro plan at renewal?' }).getByRole('button', { name: 'Schedule change' }).click();
  await expect(page.getByRole('button', { name: 'Keep my current plan' })).toBeVisible();
  // The server's answer once the period is over and Razorpay's first charge of Pro is not heard of yet.
  const ended = new Date(Date.now() - 3600_000);
  await page.route(/\/api\/trpc\/[^?]*billing\.overview/, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as Array<{ result?: { data?: Record<string, unknown> } }>;
    for (const item of body) if (item.result?.data) Object.assign(item.result.data, { currentPeriodEnd: ended.toISOString() });
    await route.fulfill({ response: res, json: body });
  });
  await page.reload();
  const endedDay = ended.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  await expect(page.getByTestId('renewal')).toHaveText(`Your plan changed to Pro on ${endedDay}, when the period you had paid for ended; its first charge is being confirmed.`);
  await expect(page.getByRole('button', { name: 'Keep my current plan' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
});

test('a cancelled plan is resumed from its card before the period ends: nothing charged now, the page says it renews', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-resume') });
  await page.goto('/dashboard/billing');
  await pay(page, await openCheckout(page, 'Starter'), '$19.00', 'Starter');
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await page.getByRole('dialog', { name: 'Cancel your subscription?' }).getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByTestId('renewal')).toContainText('Cancelled — your plan ends on');

  // Changed their mind: the plan's card offers to keep it (it said 'Already Subscribed' before).
  await card(page, 'Starter').getByRole('button', { name: 'Resume subscription' }).click();
  const checkout = page.getByRole('dialog', { name: 'Mailvet checkout' });
  await expect(checkout).toContainText('Nothing is charged now: your Starter plan goes on after');
  await checkout.getByRole('button', { name: 'Confirm card (test)' }).click();
  await expect(page.getByText('Subscription Resumed')).toBeVisible();
  await expect(page.getByText(/^Your Starter plan is no longer cancelled\. It renews on /)).toBeVisible();
  await expect(page.getByTestId('renewal')).toContainText('Renews on');
  await expect(page.getByTestId('current-plan')).toHaveText('Starter (monthly)');
  await expect(page.getByTestId('credits-balance')).toHaveText('10,500');
  await expect(page.getByTestId('payments').getByRole('row')).toHaveCount(2); // the header and the one payment
});

test('a higher plan chosen after cancelling can be undone from the page: the plan is cancelled again as before the choice', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-undo') });
  await page.goto('/dashboard/billing');
  await pay(page, await openCheckout(page, 'Starter'), '$19.00', 'Starter');
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await page.getByRole('dialog', { name: 'Cancel your subscription?' }).getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByTestId('renewal')).toContainText('Cancelled — your plan ends on');
  const cancelled = (await page.getByTestId('renewal').textContent()) ?? '';

  // Pro chosen after cancelling: it starts when the paid Starter period ends.
  const checkout = await openCheckout(page, 'Pro');
  await expect(checkout).toContainText('Nothing is charged now: your plan changes to Pro on');
  await checkout.getByRole('button', { name: 'Confirm card (test)' }).click();
  await expect(page.getByText('Subscription Resumed')).toBeVisible();
  await expect(page.getByTestId('renewal')).toContainText('then changes to the Pro plan');
  await expect(page.getByRole('button', { name: 'Keep my current plan' })).toHaveCount(0);
  // Pro's card says when it starts, not "Upgrade to Pro" again.
  await expect(card(page, 'Pro').getByRole('button', { name: /^Starts on [A-Z][a-z]+ \d+, \d{4}$/ })).toBeVisible();
  await expect(card(page, 'Pro').getByRole('button', { name: 'Upgrade to Pro' })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-change-after-cancel.png`, fullPage: true });
  await page.getByRole('region', { name: 'Plans' }).screenshot({ path: `${SCREENSHOT_DIR}/billing-change-after-cancel-cards.png` });

  // Changed their mind again: the change is undone, after saying what that means.
  await page.getByRole('button', { name: 'Undo plan change' }).click();
  const dialog = page.getByRole('dialog', { name: 'Undo the change to Pro?' });
  await expect(dialog).toContainText('Your Starter plan stays cancelled, as it was before you chose Pro');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-undo-change-dialog.png`, fullPage: true });
  await dialog.getByRole('button', { name: 'Undo plan change' }).click();
  await expect(page.getByText('Plan change withdrawn')).toBeVisible();
  await expect(page.getByText(/^Nothing was charged: your plan does not change to Pro\. Your Starter plan stays cancelled and ends on /)).toBeVisible();
  await expect(page.getByTestId('renewal')).toHaveText(cancelled);
  await expect(page.getByRole('button', { name: 'Undo plan change' })).toHaveCount(0);
  await expect(card(page, 'Starter').getByRole('button', { name: 'Resume subscription' })).toBeVisible();
  await expect(card(page, 'Pro').getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled();
  await expect(page.getByTestId('current-plan')).toHaveText('Starter (monthly)');
  await expect(page.getByTestId('payments').getByRole('row')).toHaveCount(2); // the header and the one payment
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-change-undone.png`, fullPage: true });
  await page.reload();
  await expect(page.getByTestId('renewal')).toHaveText(cancelled);
});

test('a higher plan chosen after cancelling: the current plan’s card offers to stay on it instead, not "Already Subscribed"', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-stay') });
  await page.goto('/dashboard/billing');
  await pay(page, await openCheckout(page, 'Starter'), '$19.00', 'Starter');
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await page.getByRole('dialog', { name: 'Cancel your subscription?' }).getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByTestId('renewal')).toContainText('Cancelled — your plan ends on');
  const pro = await openCheckout(page, 'Pro');
  await pro.getByRole('button', { name: 'Confirm card (test)' }).click();
  await expect(page.getByTestId('renewal')).toContainText('then changes to the Pro plan');

  // Starter's card keeps Starter going after the period instead of Pro (a new card confirmation; nothing charged now).
  await page.getByRole('region', { name: 'Plans' }).screenshot({ path: `${SCREENSHOT_DIR}/billing-stay-on-plan-card.png` });
  await card(page, 'Starter').getByRole('button', { name: 'Stay on Starter' }).click();
  const checkout = page.getByRole('dialog', { name: 'Mailvet checkout' });
  await expect(checkout).toContainText('Nothing is charged now: your Starter plan goes on after');
  await checkout.getByRole('button', { name: 'Confirm card (test)' }).click();
  await expect(page.getByText(/^Your Starter plan is no longer cancelled\. It renews on /)).toBeVisible();
  await expect(page.getByTestId('renewal')).toContainText('Renews on');
  await expect(page.getByTestId('renewal')).not.toContainText('then changes');
  await expect(card(page, 'Starter').getByRole('button', { name: 'Current Plan' })).toBeVisible();
  await expect(page.getByTestId('payments').getByRole('row')).toHaveCount(2); // the header and the one payment
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-stay-on-plan.png`, fullPage: true });
});

test('a cancelled monthly plan resumed billed annually: the annual card starts then, the monthly card (the plan as billed now) stays on it', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-resume-annual') });
  await page.goto('/dashboard/billing');
  await pay(page, await openCheckout(page, 'Starter'), '$19.00', 'Starter');
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await page.getByRole('dialog', { name: 'Cancel your subscription?' }).getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByTestId('renewal')).toContainText('Cancelled — your plan ends on');
  await page.getByRole('radio', { name: /Annual/ }).click();
  await card(page, 'Starter').getByRole('button', { name: 'Resume, billed annually' }).click();
  await page.getByRole('dialog', { name: 'Mailvet checkout' }).getByRole('button', { name: 'Confirm card (test)' }).click();
  await expect(page.getByTestId('renewal')).toContainText('billed annually from then on');

  // Annual is what the renewal starts (not the plan as billed now: "Current Plan").
  await expect(card(page, 'Starter').getByRole('button', { name: /^Starts on [A-Z][a-z]+ \d+, \d{4}$/ })).toBeVisible();
  // Monthly is how it is billed now: keeping it so is staying on it.
  await page.getByRole('radio', { name: /Monthly/ }).click();
  await card(page, 'Starter').getByRole('button', { name: 'Stay on Starter' }).click();
  const checkout = page.getByRole('dialog', { name: 'Mailvet checkout' });
  await expect(checkout).toContainText('Nothing is charged now: your Starter plan goes on after');
  await checkout.getByRole('button', { name: 'Confirm card (test)' }).click();
  await expect(page.getByTestId('renewal')).toContainText('Renews on');
  await expect(page.getByTestId('renewal')).not.toContainText('billed annually');
  await expect(card(page, 'Starter').getByRole('button', { name: 'Current Plan' })).toBeVisible();
});

test('a renewal left unpaid: the plan card offers Pay now and the period line says it is unpaid, not that it renews', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-unpaid') });
  await page.goto('/dashboard/billing');
  await pay(page, await openCheckout(page, 'Starter'), '$19.00', 'Starter');
  await expect(page.getByTestId('renewal')).toContainText('Renews on');
  // The server's answer as it is once the grace ended (the account's state itself is set by Razorpay's webhooks).
  const due = new Date(Date.now() - 9 * 86_400_000);
  await page.route(/\/api\/trpc\/[^?]*billing\.overview/, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as Array<{ result?: { data?: Record<string, unknown> } }>;
    for (const item of body) if (item.result?.data) Object.assign(item.result.data, { status: 'suspended', currentPeriodEnd: due.toISOString(), graceEndsAt: new Date(due.getTime() + 7 * 86_400_000).toISOString() });
    await route.fulfill({ response: res, json: body });
  });
  await page.reload();
  await expect(page.getByTestId('suspended-banner')).toBeVisible();
  await expect(card(page, 'Starter').getByRole('button', { name: 'Pay now' })).toBeVisible();
  const dueDay = due.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  await expect(page.getByTestId('renewal')).toHaveText(`Unpaid since ${dueDay}: the renewal could not be charged. Pay now on your plan’s card below.`);
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-unpaid.png`, fullPage: true });
});

test('a renewal Razorpay stopped retrying (halted): the page says so and to pay now, not that Razorpay retries', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-halted') });
  await page.goto('/dashboard/billing');
  await pay(page, await openCheckout(page, 'Starter'), '$19.00', 'Starter');
  // The server's answer for a past-due account whose subscription Razorpay halted (set by its webhooks).
  const grace = new Date(Date.now() + 4 * 86_400_000);
  await page.route(/\/api\/trpc\/[^?]*billing\.overview/, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as Array<{ result?: { data?: Record<string, unknown> } }>;
    for (const item of body) if (item.result?.data) Object.assign(item.result.data, { status: 'past_due', halted: true, currentPeriodEnd: new Date(Date.now() - 3 * 86_400_000).toISOString(), graceEndsAt: grace.toISOString() });
    await route.fulfill({ response: res, json: body });
  });
  await page.reload();
  const graceDay = grace.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  await expect(page.getByTestId('past-due-banner')).toHaveText(
    `Your last payment failed and Razorpay has stopped retrying it. Your plan keeps working until ${graceDay}; pay now on your plan’s card below to avoid a suspension (a card updated at Razorpay is charged only from your next renewal).`,
  );
  await expect(card(page, 'Starter').getByRole('button', { name: 'Pay now' })).toBeVisible();
});

test('a subscription paused at Razorpay past its paid period: the page says paused, not that a payment failed', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-paused') });
  await page.goto('/dashboard/billing');
  await pay(page, await openCheckout(page, 'Starter'), '$19.00', 'Starter');
  const due = new Date(Date.now() - 2 * 86_400_000);
  // The server's answer once a paused subscription's paid period is over (set by Razorpay's webhooks and billing-tick).
  await page.route(/\/api\/trpc\/[^?]*billing\.overview/, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as Array<{ result?: { data?: Record<string, unknown> } }>;
    for (const item of body) if (item.result?.data) Object.assign(item.result.data, { status: 'suspended', paused: true, currentPeriodEnd: due.toISOString(), graceEndsAt: null });
    await route.fulfill({ response: res, json: body });
  });
  await page.reload();
  await expect(page.getByTestId('suspended-banner')).toContainText('Your subscription is paused at Razorpay');
  await expect(page.getByTestId('suspended-banner')).not.toContainText('payment failed');
  const dueDay = due.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  await expect(page.getByTestId('renewal')).toHaveText(`Paused since ${dueDay}: nothing is charged while the subscription is paused. Pay now on your plan’s card below.`);
  await page.goto('/dashboard');
  await expect(page.getByTestId('billing-state-banner')).toContainText('Your subscription is paused at Razorpay');
});

test('closing the test checkout takes no payment', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-close') });
  await page.goto('/dashboard/billing');
  await (await openCheckout(page, 'Pro')).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Payment Cancelled')).toBeVisible();
  await expect(page.getByTestId('current-plan')).toHaveText('Free');
});

test('upgrading annually in the test checkout charges 20% less and shows the renewal date a year ahead', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-annual') });
  await page.goto('/dashboard/billing');
  await page.getByRole('radio', { name: /Annual/ }).click();
  await expect(page.getByTestId('price-pro')).toHaveText('$63.20');
  await expect(page.getByTestId('billed-pro')).toHaveText('$758.40 billed yearly');
  const checkout = await openCheckout(page, 'Pro');
  await expect(checkout).toContainText('Pro plan (annual)');
  await pay(page, checkout, '$758.40', 'Pro');
  await expect(page.getByTestId('current-plan')).toHaveText('Pro (annual)');
  const nextYear = new Date();
  nextYear.setUTCFullYear(nextYear.getUTCFullYear() + 1);
  const expected = nextYear.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  await expect(page.getByTestId('renewal')).toContainText(`Renews on ${expected}`);
  await expect(page.getByTestId('plan-change-rule')).toContainText('takes effect at your next renewal (no proration)');
  await expect(page.getByTestId('refund-note')).toContainText('within 14 days');
  await page.waitForFunction(() => document.querySelectorAll('[data-transition]').length === 0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-annual.png`, fullPage: true });

  // Back on the page later: the switch shows the subscription's own interval, so the plan's card is
  // the current plan (not "Switch to monthly") and an upgrade is priced and scheduled annually.
  await page.reload();
  await expect(page.getByTestId('current-plan')).toHaveText('Pro (annual)');
  await expect(page.getByRole('radio', { name: /Annual/ })).toBeChecked();
  await expect(card(page, 'Pro').getByRole('button', { name: 'Current Plan' })).toBeVisible();
  await expect(page.getByTestId('billed-business')).toHaveText('$1,910.40 billed yearly');
  await page.getByRole('radio', { name: /Monthly/ }).click();
  await expect(card(page, 'Pro').getByRole('button', { name: 'Switch to monthly' })).toBeVisible();

  // Switching to monthly at the renewal: the period line says what the renewal bills, not that the
  // plan 'changes to the Pro plan' it is already on; the switch can be taken back.
  await card(page, 'Pro').getByRole('button', { name: 'Switch to monthly' }).click();
  await page.getByRole('dialog', { name: 'Change to the Pro plan at renewal?' }).getByRole('button', { name: 'Schedule change' }).click();
  await expect(page.getByText('Plan change scheduled')).toBeVisible();
  await expect(page.getByTestId('renewal')).toHaveText(`Renews on ${expected}, billed monthly from then on.`);
  // The monthly card is what the renewal starts; the annual one is the plan the account is on now
  // (not "Switch to annual", which the server answers with "You are already on the Pro plan.").
  await expect(card(page, 'Pro').getByRole('button', { name: `Starts on ${expected}` })).toBeVisible();
  await page.getByRole('radio', { name: /Annual/ }).click();
  await expect(card(page, 'Pro').getByRole('button', { name: 'Current Plan' })).toBeVisible();
  await expect(card(page, 'Pro').getByRole('button', { name: 'Switch to annual' })).toHaveCount(0);
  await card(page, 'Pro').getByRole('button', { name: 'Current Plan' }).click();
  await expect(page.getByText('Already Subscribed')).toBeVisible();
  await page.getByRole('button', { name: 'Keep my current plan' }).click();
  await expect(page.getByTestId('renewal')).toHaveText(`Renews on ${expected}.`);
});

test('visitors from India pay in rupees', async ({ page }) => {
  await setCountry(page, 'IN');
  await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-inr') });
  await page.goto('/dashboard/billing');
  await expect(card(page, 'Pro')).toContainText('₹2,999');
  const checkout = await openCheckout(page, 'Pro');
  await expect(checkout).toContainText('₹2,999.00');
  await pay(page, checkout, '₹2,999.00', 'Pro');
  await expect(page.getByTestId('current-plan')).toHaveText('Pro (monthly)');
});

/**
 * With Razorpay keys the page loads checkout.js and opens it. The e2e server has no keys, so the
 * order answer is relabelled 'razorpay' and checkout.js is replaced by a stand-in that records its
 * options and "pays" with the server's test signature: the real page code loads the script, opens
 * the checkout with Mailvet's name and brand colour, and verifies what the handler receives.
 */
test('with Razorpay keys the page opens checkout.js (name Mailvet, brand colour) and verifies its answer', async ({ page }) => {
  await page.route(/\/api\/trpc\/[^?]*billing\.checkout/, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as Array<{ result?: { data?: { mode?: string } } }>;
    for (const item of body) if (item.result?.data) item.result.data.mode = 'razorpay';
    await route.fulfill({ response: res, json: body });
  });
  await page.route('https://checkout.razorpay.com/v1/checkout.js', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: `
        window.Razorpay = function (options) {
          window.__rzpOptions = { key: options.key, subscription_id: options.subscription_id, name: options.name, description: options.description, theme: options.theme, prefill: options.prefill };
          this.on = function () {};
          this.open = async function () {
            const res = await fetch('/api/trpc/billing.completeTestPayment', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ subscriptionId: options.subscription_id }) });
            const json = await res.json();
            options.handler(json.result.data);
          };
        };`,
    }),
  );
  const email = uniqueEmail('e2e-billing-rzp');
  await signUpAndVerify(page, { email });
  await page.goto('/dashboard/billing');
  await card(page, 'Business').getByRole('button', { name: 'Upgrade to Business' }).click();
  await expect(page.getByText("You've been upgraded to the Business plan.")).toBeVisible();
  const options = await page.evaluate(() => (window as unknown as { __rzpOptions: Record<string, unknown> }).__rzpOptions);
  expect(options).toMatchObject({ key: 'rzp_test_mailvet_local', name: 'Mailvet', description: 'Business plan (monthly)', theme: { color: '#4f46e5' }, prefill: { email } });
  expect(options.subscription_id).toMatch(/^sub_/);
  await expect(page.getByTestId('current-plan')).toHaveText('Business (monthly)');
});

test.describe('west of UTC', () => {
  test.use({ timezoneId: 'America/Los_Angeles' });
  test('billing dates say they are UTC days and when the renewal falls in the browser’s time zone', async ({ page }) => {
    await signUpAndVerify(page, { email: uniqueEmail('e2e-billing-tz') });
    // A renewal at 03:00 UTC on January 15 is the evening of January 14 in California.
    await page.route(/\/api\/trpc\/[^?]*billing\.overview/, async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as Array<{ result?: { data?: Record<string, unknown> } }>;
      for (const item of body) if (item.result?.data) Object.assign(item.result.data, { status: 'active', interval: 'monthly', cancelAtPeriodEnd: false, nextPlan: null, nextInterval: null, currentPeriodEnd: '2027-01-15T03:00:00.000Z', graceEndsAt: null });
      await route.fulfill({ response: res, json: body });
    });
    await page.goto('/dashboard/billing');
    await expect(page.getByTestId('renewal')).toHaveText('Renews on January 15, 2027.');
    const note = page.getByTestId('billing-dates-utc');
    await expect(note).toContainText('Billing dates are UTC days, as on your receipts and billing emails.');
    await expect(note).toContainText(/January 15, 2027 \(UTC\) is January 14, 2027, 7:00\sPM your time\./);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-utc-note.png` });
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});
