// What the Documentation page promises an integrator about the HTTP around the JSON: the headers
// each endpoint answers with (read from GET /v1/openapi.json, whose headers the conformance test holds
// to real answers), the rate-limit headers, and how long a failing webhook is retried (the
// server's own constants).
import { expect, test } from '@playwright/test';
import { MAX_WEBHOOK_ATTEMPTS, WEBHOOK_RETRY_WINDOW_HOURS } from '../../server/contracts/webhooks';
import { endpointsOf, type OpenApiDocument } from '../../src/features/docs/openapi-model';

test('every endpoint of the API Reference lists the headers it answers with, and a POST its Idempotency-Key', async ({ page, request }) => {
  const doc = (await (await request.get('/v1/openapi.json')).json()) as OpenApiDocument;
  await page.goto('/documentation#api-reference');
  for (const ep of endpointsOf(doc)) {
    const card = page.locator(`section#${ep.id}`);
    const headers = card.locator('table', { has: page.locator('caption', { hasText: 'Response headers' }) });
    for (const name of ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After', 'WWW-Authenticate']) {
      await expect(headers.locator('td', { hasText: new RegExp(`^${name}$`) }).first(), `${ep.method} ${ep.path}: ${name}`).toBeVisible();
    }
    const parameters = card.locator('table', { has: page.locator('caption', { hasText: 'Parameters' }) });
    if (ep.method === 'POST') await expect(parameters.locator('td', { hasText: /^Idempotency-Key$/ }), `${ep.path}`).toBeVisible();
  }
  await expect(page.locator('section#jobs-results').locator('td', { hasText: /^X-Next-Cursor$/ })).toBeVisible();
  await page.locator('section#jobs-results').screenshot({ path: '/tmp/docs-claims-results-card.png' });
});

test('the Rate limits section names the headers a client paces itself by, and says test keys have a limit of their own', async ({ page }) => {
  await page.goto('/documentation#rate-limits');
  const section = page.locator('section[aria-labelledby="rate-limits"]');
  await expect(section).toContainText('X-RateLimit-Limit');
  await expect(section).toContainText('X-RateLimit-Remaining');
  await expect(section).toContainText('Retry-After');
  await expect(section).toContainText('test keys share a limit of their own');
  // The 429 example shows them too (tests/integration/docs.error-example.test.ts holds it to a real 429).
  await expect(page.locator('section[aria-labelledby="errors"]')).toContainText('X-RateLimit-Remaining: 0');
});

test('the Webhooks section says how long a failing delivery is retried: the window and attempts the server keeps', async ({ page }) => {
  await page.goto('/documentation#webhooks');
  const section = page.locator('section[aria-labelledby="webhooks"]');
  await expect(section).toContainText(`retried with exponential backoff for about ${WEBHOOK_RETRY_WINDOW_HOURS} hours (${MAX_WEBHOOK_ATTEMPTS} attempts)`);
  for (const card of await page.locator('section[id^="webhook-"]').all()) await expect(card).toContainText(`about ${WEBHOOK_RETRY_WINDOW_HOURS} hours, ${MAX_WEBHOOK_ATTEMPTS} attempts in all`);
});

test("Best Practices' key advice agrees with the Examples tab: live keys on the server, a test key in a page", async ({ page }) => {
  // It said never to put a key in client-side code, while the JavaScript examples put a test key in a page.
  await page.goto('/documentation#best-practices');
  const card = page.getByRole('tabpanel').locator('li', { hasText: 'Protect your keys' });
  await expect(card).toContainText('Keep live keys');
  await expect(card).toContainText('a browser only ever gets a test key');
  await page.getByRole('tabpanel').first().screenshot({ path: '/tmp/docs-claims-best-practices.png' });
  await page.goto('/documentation#examples');
  await expect(page.getByRole('tabpanel').first()).toContainText('in the browser use a test key, and keep live keys on your server');
});
