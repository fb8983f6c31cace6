// The Documentation page's Python examples run as printed (BASE replaced by a running server's origin),
// with a real test key over real HTTP, and print what their Node.js twins print
// (docs.examples.test.ts). Each needs python3 with requests; where that is missing each test is
// reported skipped (docs.examples.test.ts still compiles them with python3 when it is there).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, exampleCode } from '../../src/features/docs/examples';
import { ownerOn } from '../helpers/accounts';
import { pythonWithRequests, runExample, type ExampleRun } from '../helpers/example-run';
import { startTestServer, type TestServer } from '../helpers/test-server';

const ready = pythonWithRequests();
let ts: TestServer;
let apiKey: string;
let dir: string;

/** Runs the Python example `id` in the examples' folder; it must end with `exitCode`. */
async function python(id: string, env: Record<string, string> = {}, exitCode = 0, url = ts.url): Promise<ExampleRun> {
  const e = EXAMPLES.find((x) => x.id === id);
  if (!e) throw new Error(`no example ${id}`);
  const file = path.join(dir, `${id.replaceAll('-', '_')}.py`);
  fs.writeFileSync(file, exampleCode(e.python, url));
  const r = await runExample('python3', [file], { cwd: dir, env: { MAILVET_API_KEY: apiKey, ...env } });
  expect(r.code, `${id} (Python) exit code: ${r.stdout} ${r.stderr}`).toBe(exitCode);
  return r;
}

const lines = (s: string) => s.trim().split('\n');

/** The examples this file runs; the webhook receiver is run by docs.examples.test.ts. A new example fails the guard until it is run here. */
const RUN_HERE = ['account', 'validate', 'estimate', 'bulk-json', 'idempotency', 'job-status', 'job-results', 'jobs-list', 'bulk-csv', 'job-results-csv', 'job-cancel'];

async function startJob(key: string, emails: string[], url = ts.url): Promise<string> {
  const res = await fetch(`${url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ emails }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { job_id: string }).job_id;
}

async function finished(id: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = (await (await fetch(`${ts.url}/v1/jobs/${id}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { status: string };
    if (job.status === 'completed' || job.status === 'failed') return;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  if (!ready) return;
  ts = await startTestServer({ role: 'all' });
  const owner = await ownerOn(ts, 'business', 'docs-python');
  const created = await owner.client.trpcMutation('apiKeys.create', { name: 'docs python', test: true });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  apiKey = created.body.result.data.api_key as string;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-python-examples-'));
}, 120_000);

afterAll(async () => {
  await ts?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the Python examples', () => {
  it('are each run by this file (the receiver by docs.examples.test.ts)', () => {
    expect(EXAMPLES.map((e) => e.id).filter((id) => id !== 'webhook-verify').sort()).toEqual([...RUN_HERE].sort());
  });
});

describe.skipIf(!ready)('the Python examples, run against a real server', () => {
  it('account, validate and estimate print what the page says', async () => {
    expect(lines((await python('account')).stdout)).toEqual([expect.stringMatching(/^business: \d+ credits, key mv_test_\S* \(validate, bulk, results, account\)$/)]);
    expect(lines((await python('validate')).stdout)).toEqual([expect.stringMatching(/^jane\.cooper@acme-corp\.com: risky \(smtp_not_checked, score \d+\)$/)]);
    expect(lines((await python('estimate')).stdout)).toEqual([
      'jane@acme-corp.com: deliverable_domain (smtp_not_checked)',
      'info@example.org: deliverable_domain (smtp_not_checked)',
      'bad@@example: undeliverable (syntax)',
      '3 checked: 2 deliverable domains, 1 undeliverable, 0 undecided; predicted bounce rate 35.3%',
    ]);
  });

  it('bulk-json starts a job; idempotency gets the same job twice; job-status polls it to the end; job-results and jobs-list page to the end', async () => {
    const [started] = lines((await python('bulk-json')).stdout);
    const jobId = /^job ([0-9a-f-]{36}): 3 addresses, pending$/.exec(started!)?.[1];
    expect(jobId, started).toBeDefined();
    expect(lines((await python('idempotency')).stdout)).toEqual([expect.stringMatching(/^same job [0-9a-f-]{36}$/)]);
    expect(lines((await python('job-status', { JOB_ID: jobId! })).stdout).at(-1)).toBe('completed: 3/3');
    const results = lines((await python('job-results', { JOB_ID: jobId! })).stdout);
    // Every result once, over pages of two (in the order they were stored), then the count.
    expect(results.at(-1)).toBe('3 results');
    expect(results.slice(0, -1).sort()).toEqual(['bad@@example: invalid (syntax)', 'info@example.org: risky (smtp_not_checked)', 'jane@acme-corp.com: risky (smtp_not_checked)']);
    const jobs = lines((await python('jobs-list')).stdout);
    // bulk-json and idempotency: two jobs, over one page of two and an empty cursor.
    expect(jobs.at(-1)).toBe('2 jobs');
    expect(jobs).toContain(`${jobId} completed: 3/3`);
  });

  it('bulk-csv uploads contacts.csv; job-results-csv saves only the rows the filters pick', async () => {
    const addresses = ['valid', 'invalid', 'catchall', 'full', 'not-checked'].map((l) => `${l}@sandbox.mailvet.dev`);
    fs.writeFileSync(path.join(dir, 'contacts.csv'), ['email,name', ...addresses.map((a, i) => `${a},Contact ${i}`), 'jane@acme-corp.com,Jane'].join('\n') + '\n');
    const [started] = lines((await python('bulk-csv')).stdout);
    const jobId = /^job ([0-9a-f-]{36}): 6 addresses, pending$/.exec(started!)?.[1];
    expect(jobId, started).toBeDefined();
    await finished(jobId!);
    expect(lines((await python('job-results-csv', { JOB_ID: jobId! })).stdout)).toEqual(['to-review.csv: 2 addresses']);
    const rows = fs.readFileSync(path.join(dir, 'to-review.csv'), 'utf8').trim().split('\r\n');
    expect(rows[0]).toMatch(/^email,result,reason,/);
    expect(rows.slice(1).map((r) => r.split(',').slice(0, 3).join(',')).sort()).toEqual([
      'catchall@sandbox.mailvet.dev,risky,catch_all',
      'invalid@sandbox.mailvet.dev,invalid,mailbox_not_found',
    ]);
  });

  it('job-cancel cancels a pending job, and fails with the problem on a finished one', async () => {
    const done = await startJob(apiKey, ['valid@sandbox.mailvet.dev']);
    await finished(done);
    const refused = await python('job-cancel', { JOB_ID: done }, 1);
    expect(refused.stderr).toContain('Mailvet 409 CONFLICT: This job has already completed; there is nothing to cancel.');
    // A server without workers, so the job is certain to be still pending when the example runs.
    const web = await startTestServer({ role: 'web' });
    try {
      const o = await ownerOn(web, 'business', 'docs-python-cancel');
      const key = (await o.client.trpcMutation('apiKeys.create', { name: 'docs cancel', test: true })).body.result.data.api_key as string;
      const pending = await startJob(key, ['valid@sandbox.mailvet.dev', 'invalid@sandbox.mailvet.dev', 'jane@acme-corp.com'], web.url);
      const out = await python('job-cancel', { MAILVET_API_KEY: key, JOB_ID: pending }, 0, web.url);
      expect(lines(out.stdout)).toEqual([`job ${pending} cancelled: 0 results kept, 3 never checked (3 credits not charged)`]);
    } finally {
      await web.stop();
    }
  }, 120_000);
});
