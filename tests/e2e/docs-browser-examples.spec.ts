// The Documentation page's JavaScript (browser) examples, pasted into a page of another site as its
// reader would: a real Chromium on another origin, so every call crosses CORS (preflights for the
// bearer key, JSON bodies and Idempotency-Key; the headers a script may read), the CSV upload takes
// the file picked in an <input type=file>, and the CSV download is a real download.
// docs.examples.test.ts runs the same code in Node, where no CORS applies.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { BROWSER_PLACEHOLDERS, EXAMPLES, exampleCode } from '../../src/features/docs/examples';
import { newUserOn } from './helpers';

/**
 * A customer's page on an origin of its own: another port of this machine (a page Playwright made up
 * would count as a public site calling a loopback address, which Chromium refuses; the real API is public).
 */
async function customerSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Shop</title><input type="file" accept=".csv">');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((r) => server.close(() => r())) };
}

/** Runs the JavaScript example `id` in the customer's page with the key and job id pasted in; returns what it logged. */
async function runExample(page: Page, id: string, o: { key: string; jobId?: string; api: string }): Promise<string[]> {
  const code = EXAMPLES.find((e) => e.id === id)?.javascript;
  if (!code) throw new Error(`no JavaScript example ${id}`);
  const pasted = exampleCode(code, o.api)
    .replace(`'${BROWSER_PLACEHOLDERS.key}'`, JSON.stringify(o.key))
    .replace(`'${BROWSER_PLACEHOLDERS.jobId}'`, JSON.stringify(o.jobId ?? ''));
  return page.evaluate(async (source) => {
    const logs: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => logs.push(args.map(String).join(' '));
    try {
      // As a <script type="module"> runs it: top-level await, its own scope.
      const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (body: string) => () => Promise<void>;
      await new AsyncFunction(source)();
    } finally {
      console.log = log;
    }
    return logs;
  }, pasted);
}

test('the JavaScript examples work from a page on another origin, in a real browser', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await newUserOn(page, '/dashboard/api-keys', { tag: 'docs-js', plan: 'starter' });
  await page.getByRole('button', { name: 'Create API Key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API Key' });
  await create.getByLabel('Key Name').fill('Docs in the browser');
  await create.getByRole('switch', { name: 'Test key (sandbox)' }).click();
  await create.getByLabel('Key Name').press('Enter');
  const created = page.getByRole('dialog', { name: 'API Key Created' });
  await created.getByRole('button', { name: 'Show API key' }).click();
  const key = await created.getByLabel('API key', { exact: true }).inputValue();
  expect(key).toMatch(/^mv_test_/);

  const api = baseURL!;
  const site = await customerSite();
  try {
    await page.goto(site.url);
    expect(new URL(page.url()).origin).not.toBe(new URL(api).origin);
    const run = (id: string, jobId?: string) => runExample(page, id, { key, api, ...(jobId ? { jobId } : {}) });

    expect(await run('account')).toEqual([expect.stringMatching(/^starter: \d+ credits, key mv_test_\S* \(validate, bulk, results, account\)$/)]);
    expect(await run('validate')).toEqual([expect.stringMatching(/^jane\.cooper@acme-corp\.com: risky \(smtp_not_checked, score \d+\)$/)]);
    expect((await run('estimate')).at(-1)).toBe('3 checked: 2 deliverable domains, 1 undeliverable, 0 undecided; predicted bounce rate 35.3%');
    const [started] = await run('bulk-json');
    const jobId = /^job ([0-9a-f-]{36}): 3 addresses, pending$/.exec(started ?? '')?.[1];
    expect(jobId, started).toBeDefined();
    expect(await run('idempotency')).toEqual([expect.stringMatching(/^same job [0-9a-f-]{36}$/)]);
    expect((await run('job-status', jobId)).at(-1)).toBe('completed: 3/3');
    expect((await run('job-results', jobId)).at(-1)).toBe('3 results');
    expect((await run('jobs-list')).at(-1)).toBe('2 jobs');
    await expect(run('job-cancel', jobId)).rejects.toThrow('Mailvet 409 CONFLICT: This job has already completed; there is nothing to cancel.');

    // The CSV upload takes the file the visitor picked; the filtered CSV comes back as a download.
    const csv = ['email', 'valid@sandbox.mailvet.dev', 'invalid@sandbox.mailvet.dev', 'catchall@sandbox.mailvet.dev'].join('\n');
    await page.locator('input[type=file]').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const [uploaded] = await run('bulk-csv');
    const csvJob = /^job ([0-9a-f-]{36}): 3 addresses, pending$/.exec(uploaded ?? '')?.[1];
    expect(csvJob, uploaded).toBeDefined();
    expect((await run('job-status', csvJob)).at(-1)).toBe('completed: 3/3');
    const download = page.waitForEvent('download');
    expect(await run('job-results-csv', csvJob)).toEqual(['to-review.csv: 2 addresses']);
    expect((await download).suggestedFilename()).toBe('to-review.csv');
  } finally {
    await site.close();
  }
});
