// The Documentation page shows what the server declares, not a copy of it: every operation, field
// and enum value of the generated OpenAPI document (GET /v1/openapi.json), every reason code of the
// engine's contract with its label, every error code of server/contracts/error-codes.ts with its
// status, and every sandbox address. A code added to a contract fails this test until it is shown,
// and it is shown without editing the page (the page renders from those sources).
import { expect, test } from '@playwright/test';
import { reasonSchema } from '../../probe/contract';
import { ERROR_CODES } from '../../server/contracts/error-codes';
import { SANDBOX_ENTRIES } from '../../server/contracts/sandbox';
import { REASON_TEXT } from '../../server/contracts/reasons';
import { endpointsOf, objectsOf, webhooksOf, type OpenApiDocument } from '../../src/features/docs/openapi-model';
import { EXAMPLES, exampleCode } from '../../src/features/docs/examples';
import { SCREENSHOT_DIR } from './helpers';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('the API Reference renders the OpenAPI document and the contracts', async ({ page, request }) => {
  const doc = (await (await request.get('/v1/openapi.json')).json()) as OpenApiDocument;
  const endpoints = endpointsOf(doc);
  expect(endpoints.length).toBeGreaterThan(3);

  await page.goto('/documentation');
  await page.getByRole('tab', { name: 'API Reference' }).click();

  for (const ep of endpoints) {
    const card = page.locator(`section#${ep.id}`);
    await expect(card, `${ep.method} ${ep.path}`).toBeVisible();
    await expect(card).toContainText(ep.method);
    await expect(card).toContainText(ep.path);
    await expect(card).toContainText(ep.summary);
    if (ep.scope) await expect(card).toContainText(`scope: ${ep.scope}`);
    for (const f of [...ep.parameters, ...ep.body, ...ep.response]) {
      await expect(card.locator('td', { hasText: new RegExp(`^${escape(f.name)}(required)?$`) }).first(), `${ep.path} field ${f.name}`).toBeVisible();
    }
    for (const e of ep.errors) await expect(card.locator('li', { hasText: e.description }).first()).toContainText(e.status);
  }

  const hooks = webhooksOf(doc);
  expect(hooks.map((h) => h.event)).toEqual(['job.completed', 'job.failed', 'job.cancelled', 'schedule.run_completed']);
  for (const h of hooks) {
    const card = page.locator(`section#${h.id}`);
    await expect(card, h.event).toContainText(h.event);
    await expect(card).toContainText(h.summary);
    for (const f of [...h.headers, ...h.body]) {
      await expect(card.locator('td', { hasText: new RegExp(`^${escape(f.name)}$`) }).first(), `${h.event} field ${f.name}`).toBeVisible();
    }
  }
  await page.locator(`section#${hooks[2]!.id}`).screenshot({ path: `${SCREENSHOT_DIR}/documentation-webhook-event.png` });

  for (const o of objectsOf(doc)) {
    const section = page.locator(`section#object-${o.name}`);
    for (const f of o.fields) {
      const row = section.locator('tr', { has: page.locator('td', { hasText: new RegExp(`^${escape(f.name)}$`) }) });
      await expect(row, `${o.name}.${f.name}`).toBeVisible();
      if (f.name !== 'reason' && !f.name.endsWith('.reason')) for (const v of f.enumValues) await expect(row).toContainText(v);
    }
  }

  for (const r of reasonSchema.options) {
    const row = page.locator(`tr[data-reason="${r}"]`);
    await expect(row, r).toContainText(r);
    await expect(row).toContainText(REASON_TEXT[r].label);
    await expect(row).toContainText(REASON_TEXT[r].description);
  }

  for (const [code, info] of Object.entries(ERROR_CODES)) {
    const row = page.locator(`tr[data-error-code="${code}"]`);
    await expect(row, code).toContainText(code);
    await expect(row).toContainText(String(info.status));
    await expect(row).toContainText(info.description);
  }

  for (const s of SANDBOX_ENTRIES) await expect(page.getByText(s.address, { exact: true })).toBeVisible();

  await page.screenshot({ path: `${SCREENSHOT_DIR}/documentation-reference.png`, fullPage: true });
});

test('the Examples tab shows every example in cURL, Node.js, Python and PHP', async ({ page }) => {
  await page.goto('/documentation');
  await page.getByRole('tab', { name: 'Examples' }).click();
  const origin = new URL(page.url()).origin;
  for (const e of EXAMPLES) {
    const section = page.locator(`section#example-${e.id}`);
    await expect(section.getByRole('heading', { name: e.title })).toBeVisible();
    for (const [lang, code] of [['cURL', e.curl], ['Node.js', e.node], ['Python', e.python], ['PHP', e.php]] as const) {
      if (code === undefined) continue;
      await section.getByRole('tab', { name: lang, exact: true }).click();
      const block = section.locator('pre code');
      await expect(block).toHaveText(exampleCode(code, origin));
    }
  }
  await page.screenshot({ path: `${SCREENSHOT_DIR}/documentation-examples.png`, fullPage: true });
});
