import { expect, test, type Page } from '@playwright/test';
import { SANDBOX_ENTRIES } from '../../server/contracts/sandbox';
import { expectIsolated, SCREENSHOT_DIR, signUpAndVerify, uniqueEmail } from './helpers';

/** Upgrades the signed-in owner through Billing's local test checkout (the e2e server has no Razorpay keys). */
async function upgradeTo(page: Page, plan: 'starter' | 'pro') {
  const call = async <T,>(path: string, input: unknown): Promise<T> => {
    const res = await page.request.post(`/api/trpc/${path}`, { data: input, headers: { 'content-type': 'application/json' } });
    const body = (await res.json()) as { result?: { data: T }; error?: { message?: string } };
    expect(res.ok(), `${path}: ${body.error?.message ?? res.status()}`).toBeTruthy();
    return body.result!.data;
  };
  const order = await call<{ subscriptionId: string }>('billing.checkout', { planType: plan, interval: 'monthly' });
  const proof = await call<Record<string, string>>('billing.completeTestPayment', { subscriptionId: order.subscriptionId });
  await call('billing.verifyPayment', proof);
}

test('API keys: upgrade gate, create (shown once, show/hide, copy), use, revoke', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUpAndVerify(page, { email: uniqueEmail('e2e-keys') });

  // Free plan: no keys, and creating one opens the upgrade dialog.
  await page.goto('/dashboard/api-keys');
  await expect(page.getByRole('heading', { name: 'API Keys', level: 2 })).toBeVisible();
  await expect(page.getByText('No API keys yet')).toBeVisible();
  await expect(page.getByTestId('api-keys-plan-notice')).toBeVisible();
  await page.getByRole('button', { name: 'Create API Key' }).click();
  const upgrade = page.getByRole('dialog', { name: 'Upgrade to use the API' });
  await expect(upgrade.getByText('API keys are available on the Starter, Pro, Business and Enterprise plans.', { exact: false })).toBeVisible();
  // What it offers is what Starter, the plan it sells, gives: job webhooks are Pro's (POST /v1/bulk
  // with webhook_url answers 403 on Starter) and Starter is one user, with no team to share keys with.
  await expect(upgrade.getByRole('listitem')).toHaveText([
    'Validate addresses from your own code with POST /v1/validate',
    'Send up to 10,000 addresses per bulk request (a webhook when each job ends, from Pro)',
    'Revoke any key instantly; from Pro, share keys with your team',
  ]);
  await expect(upgrade.getByRole('link', { name: 'View Plans' })).toHaveAttribute('href', '/dashboard/billing');
  await upgrade.getByRole('button', { name: 'Maybe Later' }).click();
  await expect(upgrade).toHaveCount(0);

  await upgradeTo(page, 'starter');
  await page.reload();
  await expect(page.getByTestId('api-keys-plan-notice')).toBeHidden();
  // The first look at the page creates the webhook signing secret and shows it this once.
  await expect(page.getByLabel('Webhook signing secret', { exact: true })).toHaveValue(/^whsec_/);
  await expect(page.getByTestId('webhook-secret-once')).toBeVisible();

  // Name is required; Enter submits.
  await page.getByRole('button', { name: 'Create API Key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API Key' });
  const nameField = create.getByLabel('Key Name');
  await nameField.press('Enter');
  await expect(create.getByText('Please enter a name for the API key')).toBeVisible();
  // A name with a text-direction character (U+202E) would draw the key's prefix after it backwards in
  // the revoke confirmation teammates read: refused, and the name typed stays to correct.
  await nameField.fill('Production \u202Eserver');
  await nameField.press('Enter');
  await expect(create.getByRole('alert')).toContainText('text-direction');
  await expect(nameField).toHaveValue('Production \u202Eserver');
  await nameField.fill('Production server');
  await nameField.press('Enter');

  const created = page.getByRole('dialog', { name: 'API Key Created' });
  await expect(created.getByText('won\'t be shown again', { exact: false })).toBeVisible();
  await expectIsolated(created, 'Production server');
  await expect(page.getByText('API Key Created').last()).toBeVisible();
  const keyField = created.getByLabel('API key', { exact: true });
  await expect(keyField).toHaveAttribute('type', 'password');
  await created.getByRole('button', { name: 'Show API key' }).click();
  await expect(keyField).toHaveAttribute('type', 'text');
  const apiKey = await keyField.inputValue();
  expect(apiKey).toMatch(/^mv_live_[0-9A-Za-z]{43}$/);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/api-keys-created.png` });
  await created.getByRole('button', { name: 'Hide API key' }).click();
  await expect(keyField).toHaveAttribute('type', 'password');
  await created.getByRole('button', { name: 'Copy API key' }).click();
  await expect(page.getByText('API Key Copied', { exact: true })).toBeVisible(); // spec 8: 'API Key Created, Copied, Revoked', as 'Schedule Created, Activated…'
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(created).toHaveCount(0);

  // Closing cleared it: reopening starts from an empty name and no key anywhere on the page.
  await page.getByRole('button', { name: 'Create API Key' }).click();
  await expect(create.getByLabel('Key Name')).toHaveValue('');
  await create.getByRole('button', { name: 'Cancel' }).click();
  expect(await page.content()).not.toContain(apiKey);

  const row = page.getByTestId('api-key-row').filter({ hasText: 'Production server' });
  await expect(row).toContainText(`${apiKey.slice(0, 12)}••••`);
  await expect(row).toContainText('Never');
  await expect(row.getByText('Active')).toBeVisible();
  await expectIsolated(row, 'Production server');

  // The key works against the public API, and its use shows up.
  const ok = await page.request.post('/v1/validate', { headers: { authorization: `Bearer ${apiKey}` }, data: { email: 'alice@normal.mailworld.test' } });
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toMatchObject({ email: 'alice@normal.mailworld.test', result: 'valid' });
  await expect(async () => {
    await page.reload();
    await expect(row).not.toContainText('Never', { timeout: 1000 });
  }).toPass({ timeout: 10_000 });

  // A second key, revoked after confirmation.
  await page.getByRole('button', { name: 'Create API Key' }).click();
  await create.getByLabel('Key Name').fill('Old staging key');
  await create.getByRole('button', { name: 'Create Key' }).click();
  await created.getByRole('button', { name: 'Show API key' }).click();
  const oldKey = await created.getByLabel('API key', { exact: true }).inputValue();
  await created.getByRole('button', { name: 'Close' }).click();
  await expect(created).toHaveCount(0);
  const oldRow = page.getByTestId('api-key-row').filter({ hasText: 'Old staging key' });
  await oldRow.getByRole('button', { name: 'Revoke Old staging key' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key?' });
  await expect(confirm).toContainText('cannot be undone');
  await confirm.getByRole('button', { name: 'Revoke Key' }).click();
  await expect(page.getByText('API Key Revoked')).toBeVisible();
  await expect(confirm).toHaveCount(0);
  await expect(oldRow.getByText('Revoked', { exact: true })).toBeVisible();
  await expect(oldRow.getByRole('button', { name: /Revoke/ })).toHaveCount(0);
  await expect(row.getByText('Active')).toBeVisible();

  const refused = await page.request.post('/v1/validate', { headers: { authorization: `Bearer ${oldKey}` }, data: { email: 'alice@normal.mailworld.test' } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).code).toBe('KEY_REVOKED');

  // The webhook signing secret was shown in full on the first visit after the upgrade; since then only its start.
  await expect(page.getByTestId('webhook-secret-hint')).toContainText('whsec_');
  await expect(page.getByLabel('Webhook signing secret', { exact: true })).toHaveCount(0);
  await expect(page.getByText('API Key Revoked')).toBeHidden({ timeout: 15_000 });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/api-keys.png`, fullPage: true });
});

test('API keys: a scoped test key with its own rate limit (sandbox, Test badge, 403 outside its scopes)', async ({ page }) => {
  await signUpAndVerify(page, { email: uniqueEmail('e2e-test-key') });
  await upgradeTo(page, 'starter'); // 3 requests per second
  await page.goto('/dashboard/api-keys');
  await page.getByRole('button', { name: 'Create API Key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API Key' });
  await create.getByLabel('Key Name').fill('CI sandbox');
  await create.getByRole('switch', { name: 'Test key (sandbox)' }).click();
  await create.getByRole('checkbox', { name: /^Bulk/ }).uncheck();
  await create.getByRole('checkbox', { name: /^Account/ }).uncheck();

  // Above the plan's rate: refused before anything is created.
  await create.getByLabel('Rate limit (optional)').fill('5');
  await create.getByRole('button', { name: 'Create Key' }).click();
  await expect(create.getByTestId('api-key-options-error')).toHaveText("A key's rate limit can be at most your plan's rate of 3 requests per second.");
  await create.getByLabel('Rate limit (optional)').fill('2');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/api-keys-create-test-key.png` });
  await create.getByRole('button', { name: 'Create Key' }).click();

  const created = page.getByRole('dialog', { name: 'API Key Created' });
  await expect(created.getByText('This is a test key', { exact: false })).toBeVisible();
  await created.getByRole('button', { name: 'Show API key' }).click();
  const testKey = await created.getByLabel('API key', { exact: true }).inputValue();
  expect(testKey).toMatch(/^mv_test_[0-9A-Za-z]{43}$/);
  await created.getByRole('button', { name: 'Done' }).click();

  const row = page.getByTestId('api-key-row').filter({ hasText: 'CI sandbox' });
  await expect(row.getByText('Test', { exact: true })).toBeVisible();
  await expect(row.getByTestId('api-key-scopes')).toHaveText('Validate, Read results2 req/s');

  // The sandbox answers; the scope it lacks is refused, naming it.
  const ok = await page.request.post('/v1/validate', { headers: { authorization: `Bearer ${testKey}` }, data: { email: 'invalid@sandbox.mailvet.dev' } });
  expect(await ok.json()).toMatchObject({ result: 'invalid', reason: 'mailbox_not_found', charged: false });
  const refused = await page.request.post('/v1/bulk', { headers: { authorization: `Bearer ${testKey}` }, data: { emails: ['valid@sandbox.mailvet.dev'] } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 'SCOPE_REQUIRED', scope: 'bulk' });

  // A test key with the bulk scope runs a sandbox job; History marks it "Test".
  const created2 = await page.request.post('/api/trpc/apiKeys.create', { data: { name: 'CI bulk sandbox', test: true }, headers: { 'content-type': 'application/json' } });
  expect(created2.ok(), await created2.text()).toBeTruthy();
  const bulkKey = ((await created2.json()) as { result: { data: { api_key: string } } }).result.data.api_key;
  const job = await page.request.post('/v1/bulk', { headers: { authorization: `Bearer ${bulkKey}` }, data: { emails: ['valid@sandbox.mailvet.dev', 'invalid@sandbox.mailvet.dev'] } });
  expect(job.status(), await job.text()).toBe(200);
  const jobId = ((await job.json()) as { job_id: string }).job_id;
  await page.goto('/dashboard/history');
  const jobRow = page.locator(`[data-testid="job-row"][data-job-id="${jobId}"]`);
  await expect(jobRow.getByTestId('job-sandbox')).toHaveText('Test');
  await expect(jobRow.getByText('API', { exact: true })).toBeVisible();
  await jobRow.screenshot({ path: `${SCREENSHOT_DIR}/history-sandbox-job.png` });
  await page.goto('/dashboard/api-keys');

  await expect(page.getByText('API Key Created')).toBeHidden({ timeout: 15_000 });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/api-keys-test-badge.png`, fullPage: true });
});

test('Documentation lists the sandbox table, key scopes and how to add the MCP server to an AI assistant', async ({ page }) => {
  await page.goto('/documentation');
  await page.getByRole('tab', { name: 'API Reference' }).click();
  const table = page.getByRole('table', { name: 'Sandbox addresses' });
  await expect(table.locator('tbody tr')).toHaveCount(SANDBOX_ENTRIES.length + 1);
  for (const e of SANDBOX_ENTRIES) await expect(table.locator('tr', { hasText: e.address }).first()).toContainText(e.reason);
  await expect(page.getByRole('heading', { name: 'Key scopes and limits' })).toBeVisible();
  await page.getByRole('heading', { name: 'Key scopes and limits' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/docs-scopes.png` });

  await page.getByRole('tab', { name: 'Examples' }).click();
  const section = page.getByRole('region', { name: 'Use with an AI assistant' });
  await expect(section).toContainText('"mcpServers"');
  await expect(section).toContainText('MAILVET_API_KEY');
  await expect(section).toContainText('get_job_results');
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/docs-ai-assistant.png` });
});
