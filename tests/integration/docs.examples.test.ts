// The Documentation page's examples run (issue #12 item 8): every cURL, JavaScript (browser) and
// Node.js example of src/features/docs/examples.ts is executed as printed on the page (BASE replaced
// by a running server's origin) with a real key over real HTTP, and what it prints is checked. The
// browser examples run in Node, whose fetch, FormData, Blob and URL are the browser's (WHATWG), with
// the key and job id pasted in and `document` standing for the page (a picked file, a download link). The key is a test
// key (mv_test_…), so jobs complete through the real workers and webhooks fire without a probe.
// Python examples are compiled by python3 (syntax), when it is installed, and run by
// docs.examples.python.test.ts where requests is installed too.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded';
import { signWebhookBody, signWebhookV2, unixSeconds } from '../../server/features/webhooks/webhook-signing';
import { BROWSER_PLACEHOLDERS, EXAMPLES, exampleCode, type ApiExample } from '../../src/features/docs/examples';
import { ownerOn, type Person } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Person;
let apiKey: string;
let webhookSecret: string;
let dir: string;
/** The job the bulk example started; the job examples read it from JOB_ID. */
let jobId = '';
/** The job the CSV upload example started (sandbox addresses, so the filters have something to pick). */
let csvJobId = '';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve) => {
    // cwd: the examples' files (contacts.csv, to-review.csv) are next to them.
    execFile(cmd, args, { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env }, timeout: timeoutMs }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: unknown }).code as number | null) ?? 1 : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

function envFor(): Record<string, string> {
  return { MAILVET_API_KEY: apiKey, JOB_ID: jobId, MAILVET_WEBHOOK_SECRET: webhookSecret };
}

function example(id: string): ApiExample {
  const e = EXAMPLES.find((x) => x.id === id);
  if (!e) throw new Error(`no example ${id}`);
  return e;
}

/** How a run is set up: another server's origin, extra env (JOB_ID…), the exit code it must end with. */
interface RunOptions {
  url?: string;
  env?: Record<string, string>;
  exitCode?: number;
}

async function curl(id: string, o: RunOptions = {}): Promise<Run> {
  const code = example(id).curl;
  if (!code) throw new Error(`${id} has no cURL example`);
  const r = await run('bash', ['-c', exampleCode(code, o.url ?? ts.url)], { ...envFor(), ...o.env });
  expect(r.code, `${id} (cURL) exit code: ${r.stdout} ${r.stderr}`).toBe(o.exitCode ?? 0);
  return r;
}

async function node(id: string, o: RunOptions = {}): Promise<Run> {
  const file = path.join(dir, `${id}.mjs`);
  fs.writeFileSync(file, exampleCode(example(id).node, o.url ?? ts.url));
  const r = await run(process.execPath, [file], { ...envFor(), ...o.env });
  expect(r.code, `${id} (Node) exit code: ${r.stdout} ${r.stderr}`).toBe(o.exitCode ?? 0);
  return r;
}

/**
 * The page around a browser example: the file input's picked file is contacts.csv, and a clicked
 * download link saves its blob under its download name (both in the examples' folder, the cwd).
 */
const BROWSER_PAGE = `import fs from 'node:fs';
import { resolveObjectURL } from 'node:buffer';
globalThis.document = {
  querySelector: () => ({ files: [new File([fs.readFileSync('contacts.csv')], 'contacts.csv', { type: 'text/csv' })] }),
  createElement: () => ({
    click() {
      return resolveObjectURL(this.href).text().then((text) => fs.writeFileSync(this.download, text));
    },
  }),
};
`;

/** A browser (JavaScript) example as a reader would paste it: their key and job id in the constants. */
async function browser(id: string, o: RunOptions = {}): Promise<Run> {
  const code = example(id).javascript;
  if (!code) throw new Error(`${id} has no JavaScript example`);
  const env = { ...envFor(), ...o.env };
  const pasted = exampleCode(code, o.url ?? ts.url)
    .replace(`'${BROWSER_PLACEHOLDERS.key}'`, JSON.stringify(env.MAILVET_API_KEY))
    .replace(`'${BROWSER_PLACEHOLDERS.jobId}'`, JSON.stringify(env.JOB_ID));
  const file = path.join(dir, `${id}.browser.mjs`);
  // A module of its own after the page's setup, as a <script type="module"> runs after the page.
  fs.writeFileSync(path.join(dir, 'page.mjs'), BROWSER_PAGE);
  fs.writeFileSync(file, `import './page.mjs';\n${pasted}`);
  const r = await run(process.execPath, [file], {});
  expect(r.code, `${id} (JavaScript) exit code: ${r.stdout} ${r.stderr}`).toBe(o.exitCode ?? 0);
  return r;
}

/** The JavaScript runs of an example: its Node.js version, then its browser version. */
const scripts = async (id: string, o: RunOptions = {}) => [await node(id, o), await browser(id, o)];

/** Waits (bounded) until a job of this key has ended. */
async function finished(id: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${ts.url}/v1/jobs/${id}`, { headers: { authorization: `Bearer ${apiKey}` } });
    const job = (await res.json()) as { status: string };
    if (job.status === 'completed' || job.status === 'failed') return;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const lines = (s: string) => s.trim().split('\n');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** The examples each test below runs; a new example fails the guard until it is run here too. */
const COVERED = new Set(['account', 'validate', 'bulk-json', 'bulk-csv', 'estimate', 'idempotency', 'job-status', 'job-results', 'job-results-csv', 'jobs-list', 'job-cancel', 'webhook-verify']);

beforeAll(async () => {
  ts = await startTestServer({ role: 'all', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  owner = await ownerOn(ts, 'business', 'docs-examples');
  const created = await owner.client.trpcMutation('apiKeys.create', { name: 'docs examples', test: true });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  apiKey = created.body.result.data.api_key as string;
  const secret = await owner.client.trpcQuery('apiKeys.webhookSecret');
  expect(secret.status, JSON.stringify(secret.body)).toBe(200);
  webhookSecret = secret.body.result.data.secret as string;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-examples-'));
}, 120_000);

afterAll(async () => {
  await ts?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('documentation examples', () => {
  it('every example has cURL and JavaScript (unless it receives), Node.js, Python and PHP, and is run by this file', () => {
    for (const e of EXAMPLES) {
      expect(COVERED.has(e.id), `example ${e.id} is not run by docs.examples.test.ts`).toBe(true);
      expect(e.node && e.python && e.php, e.id).toBeTruthy();
      if (e.operation) expect(e.curl, `${e.id} calls ${e.operation}: give it a cURL example`).toBeTruthy();
      if (e.operation) expect(e.javascript, `${e.id} calls ${e.operation}: give it a JavaScript example`).toBeTruthy();
    }
  });

  it('GET /v1/account: cURL and Node print the plan, the credits and the key', async () => {
    const body = JSON.parse((await curl('account')).stdout);
    expect(body).toMatchObject({ plan: 'business', key: { test: true, key_prefix: expect.stringMatching(/^mv_test_/) } });
    for (const r of await scripts('account')) expect(lines(r.stdout)).toEqual([expect.stringMatching(/^business: \d+ credits, key mv_test_\S* \(validate, bulk, results, account\)$/)]);
  });

  it('POST /v1/validate: cURL prints the result object, Node a one-line verdict', async () => {
    const body = JSON.parse((await curl('validate')).stdout);
    // A test key answers from the sandbox: an address outside its table is risky / smtp_not_checked.
    expect(body).toMatchObject({ email: 'jane.cooper@acme-corp.com', result: 'risky', reason: 'smtp_not_checked', syntax_valid: true, charged: false });
    for (const r of await scripts('validate')) expect(lines(r.stdout)).toEqual([expect.stringMatching(/^jane\.cooper@acme-corp\.com: risky \(smtp_not_checked, score \d+\)$/)]);
  });

  it('POST /v1/bulk and Idempotency-Key: a job is started; the same key and body give the same job', async () => {
    const started = JSON.parse((await curl('bulk-json')).stdout);
    expect(started).toMatchObject({ job_id: expect.stringMatching(UUID), status: 'pending' });
    expect(started.total_emails).toBeGreaterThanOrEqual(2);
    jobId = started.job_id;
    for (const r of await scripts('bulk-json')) expect(lines(r.stdout)).toEqual([expect.stringMatching(/^job [0-9a-f-]{36}: \d+ addresses, pending$/)]);

    const first = JSON.parse((await curl('idempotency')).stdout);
    const again = JSON.parse((await curl('idempotency')).stdout);
    expect(again.job_id).toBe(first.job_id);
    for (const r of await scripts('idempotency')) expect(lines(r.stdout)).toEqual([`same job ${first.job_id}`]);
  });

  it('GET /v1/jobs/{id}: Node polls until the job completes, cURL prints the job', async () => {
    expect(jobId).toMatch(UUID);
    for (const r of await scripts('job-status')) expect(lines(r.stdout).at(-1)).toMatch(/^completed: (\d+)\/\1$/);
    expect(JSON.parse((await curl('job-status')).stdout)).toMatchObject({ job_id: jobId, status: 'completed' });
  });

  it('GET /v1/jobs/{id}/results: cURL prints one page with a cursor, Node follows the cursor to the end', async () => {
    const page = JSON.parse((await curl('job-results')).stdout);
    expect(page.job_id).toBe(jobId);
    expect(page.results).toHaveLength(2);
    expect(page.next_cursor).toEqual(expect.any(String));
    for (const r of await scripts('job-results')) {
      const out = lines(r.stdout);
      expect(out.at(-1)).toBe(`${page.total_emails} results`);
      expect(out).toContain('jane@acme-corp.com: risky (smtp_not_checked)');
      expect(out).toHaveLength(page.total_emails + 1);
    }
  });

  it('POST /v1/bulk with a CSV file: cURL (-F) and Node (FormData) start a job from contacts.csv', async () => {
    const addresses = ['valid', 'invalid', 'catchall', 'full', 'not-checked'].map((l) => `${l}@sandbox.mailvet.dev`);
    fs.writeFileSync(path.join(dir, 'contacts.csv'), ['email,name', ...addresses.map((a, i) => `${a},Contact ${i}`), 'jane@acme-corp.com,Jane'].join('\n') + '\n');
    const started = JSON.parse((await curl('bulk-csv')).stdout);
    expect(started).toMatchObject({ job_id: expect.stringMatching(UUID), total_emails: 6, status: 'pending' });
    csvJobId = started.job_id;
    for (const r of await scripts('bulk-csv')) {
      const out = lines(r.stdout);
      expect(out).toEqual([expect.stringMatching(/^job [0-9a-f-]{36}: 6 addresses, pending$/)]);
      expect(out[0]).not.toContain(csvJobId); // another job, not a replay
    }
  });

  it('GET /v1/jobs/{id}/results with result, reason and format=csv: only the matching rows, as CSV', async () => {
    expect(csvJobId).toMatch(UUID);
    await finished(csvJobId);
    const file = path.join(dir, 'to-review.csv');
    await curl('job-results-csv', { env: { JOB_ID: csvJobId } });
    const rows = fs.readFileSync(file, 'utf8').trim().split('\r\n');
    expect(rows[0]).toMatch(/^email,result,reason,/);
    // invalid/mailbox_not_found and risky/catch_all; not valid, not risky/mailbox_full, not smtp_not_checked.
    expect(rows.slice(1).map((r) => r.split(',').slice(0, 3).join(',')).sort()).toEqual([
      'catchall@sandbox.mailvet.dev,risky,catch_all',
      'invalid@sandbox.mailvet.dev,invalid,mailbox_not_found',
    ]);
    for (const run of [node, browser]) {
      fs.rmSync(file);
      expect(lines((await run('job-results-csv', { env: { JOB_ID: csvJobId } })).stdout)).toEqual(['to-review.csv: 2 addresses']);
      expect(fs.readFileSync(file, 'utf8').trim().split('\r\n')).toEqual(rows);
    }
  });

  it('POST /v1/estimate: cURL prints the estimate, Node each outcome and the predicted bounce rate', async () => {
    const est = JSON.parse((await curl('estimate')).stdout);
    expect(est).toMatchObject({ checked: 3, deliverable_domains: 2, undeliverable: 1, undecided: 0, predicted_bounce_rate: 0.3533 });
    for (const r of await scripts('estimate')) expect(lines(r.stdout)).toEqual([
      'jane@acme-corp.com: deliverable_domain (smtp_not_checked)',
      'info@example.org: deliverable_domain (smtp_not_checked)',
      'bad@@example: undeliverable (syntax)',
      '3 checked: 2 deliverable domains, 1 undeliverable, 0 undecided; predicted bounce rate 35.3%',
    ]);
  });

  it('GET /v1/jobs: cURL prints one page with a cursor, Node follows the cursor through every job', async () => {
    const page = JSON.parse((await curl('jobs-list')).stdout);
    expect(page.jobs).toHaveLength(2);
    expect(page.next_cursor).toEqual(expect.any(String));
    for (const r of await scripts('jobs-list')) {
      const out = lines(r.stdout);
      const total = Number(out.at(-1)!.match(/^(\d+) jobs$/)?.[1]);
      // bulk-json ×3, idempotency (one job), bulk-csv ×3 (cURL, Node.js and JavaScript each).
      expect(total).toBeGreaterThanOrEqual(7);
      expect(out).toHaveLength(total + 1);
      expect(new Set(out.slice(0, -1).map((l) => l.split(' ')[0])).size).toBe(total); // no job twice across pages
      expect(out.find((l) => l.startsWith(`${jobId} `))).toMatch(new RegExp(`^${jobId} completed: (\\d+)/\\1$`));
      expect(out.find((l) => l.startsWith(`${csvJobId} `))).toBe(`${csvJobId} completed: 6/6`);
      expect(out[0]).toBe(`${page.jobs[0].job_id} ${page.jobs[0].status}: ${page.jobs[0].processed_emails}/${page.jobs[0].total_emails}`);
    }
  });

  it('POST /v1/jobs/{id}/cancel: a finished job answers 409 CONFLICT (cURL and Node fail with it)', async () => {
    expect(jobId).toMatch(UUID);
    const refused = await curl('job-cancel', { exitCode: 22 }); // --fail-with-body: exit 22, the problem on stdout
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 409, code: 'CONFLICT', detail: 'This job has already completed; there is nothing to cancel.' });
    for (const thrown of await scripts('job-cancel', { exitCode: 1 })) expect(thrown.stderr).toContain('Mailvet 409 CONFLICT: This job has already completed; there is nothing to cancel.');
  });

  it('POST /v1/jobs/{id}/cancel: a pending job is cancelled; cancelling again gives the same answer', async () => {
    // A server without workers, so the job is certain to be still pending when the example runs.
    const web = await startTestServer({ role: 'web' });
    try {
      const o = await ownerOn(web, 'business', 'docs-cancel');
      const created = await o.client.trpcMutation('apiKeys.create', { name: 'docs cancel', test: true });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const key = created.body.result.data.api_key as string;
      const res = await fetch(`${web.url}/v1/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev', 'invalid@sandbox.mailvet.dev', 'jane@acme-corp.com'] }),
      });
      expect(res.status).toBe(200);
      const { job_id } = (await res.json()) as { job_id: string };
      const env = { MAILVET_API_KEY: key, JOB_ID: job_id };
      const cancelled = JSON.parse((await curl('job-cancel', { url: web.url, env })).stdout);
      expect(cancelled).toMatchObject({ job: { job_id, status: 'cancelled', total_emails: 3, processed_emails: 0 }, processed_emails: 0, unprocessed_emails: 3, credits_charged: 0, credits_not_charged: 3 });
      for (const r of await scripts('job-cancel', { url: web.url, env })) expect(lines(r.stdout)).toEqual([`job ${job_id} cancelled: 0 results kept, 3 never checked (3 credits not charged)`]);
    } finally {
      await web.stop();
    }
  }, 120_000);

  /** The receivers as printed, each run for real when its language is installed here. */
  const RECEIVERS = [
    { lang: 'Node.js', file: 'receiver.mjs', code: () => example('webhook-verify').node, cmd: (f: string) => [process.execPath, f] },
    { lang: 'Python', file: 'receiver.py', code: () => example('webhook-verify').python, cmd: (f: string) => ['python3', f] },
    { lang: 'PHP', file: 'receiver.php', code: () => example('webhook-verify').php, cmd: (f: string, port: number) => ['php', '-S', `127.0.0.1:${port}`, f] },
  ];

  /** One POST with exactly these headers (node:http sends bytes 0x80-0xff as they are, as any client may). */
  function post(url: string, headers: Record<string, string>, body: string): Promise<number | null> {
    return new Promise((resolve) => {
      const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? null));
      });
      req.on('error', () => resolve(null)); // the receiver dropped the request without answering
      req.setTimeout(10_000, () => req.destroy());
      req.end(body);
    });
  }

  /** What we send, signed now or at another time: both signatures, as real as a delivery's. */
  function signed(body: string, o: { delivery?: string; timestamp?: number } = {}): Record<string, string> {
    const delivery = o.delivery ?? '3c9d0e5a-8b1f-4c2d-9e7a-6f5b4a3c2d1e';
    const timestamp = o.timestamp ?? unixSeconds();
    return {
      'x-mailvet-signature': signWebhookBody(webhookSecret, body),
      'x-mailvet-timestamp': String(timestamp),
      'x-mailvet-signature-v2': signWebhookV2(webhookSecret, { timestamp, deliveryId: delivery, rawBody: body }),
      'x-mailvet-delivery': delivery,
      'x-mailvet-event': 'job.completed',
    };
  }

  /** Whether a receiver's language runs here: one that does not is reported skipped, never passed. */
  const installed = (bin: string): boolean => spawnSync(bin, ['--version'], { stdio: 'ignore' }).status === 0;

  for (const receiver of RECEIVERS) {
    const [bin] = receiver.cmd('', 0);
    it.skipIf(!installed(bin!))(`the ${receiver.lang} webhook receiver verifies a real delivery and refuses a forged, tampered, stale or non-ASCII one`, { timeout: 90_000 }, async () => {
      const port = await freePort();
      const file = path.join(dir, receiver.file);
      fs.writeFileSync(file, exampleCode(receiver.code(), ts.url));
      const [cmd, ...args] = receiver.cmd(file, port);
      const child: ChildProcess = spawn(cmd!, args, { cwd: dir, env: { PATH: process.env.PATH ?? '', ...envFor(), PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      try {
        const hook = `http://127.0.0.1:${port}/hooks/mailvet`;
        const body = JSON.stringify({ event: 'job.completed', job_id: '7d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a', status: 'completed', total_emails: 1, processed_emails: 1 });
        // Wait for it to listen, then send a forged call (no valid signature at all): refused.
        let forged: number | null = null;
        for (let i = 0; i < 200 && forged === null; i++) {
          forged = await post(hook, { 'x-mailvet-signature': 'sha256=00', 'x-mailvet-signature-v2': 't=1,v1=00', 'x-mailvet-delivery': 'x' }, body);
          if (forged === null) await new Promise((r) => setTimeout(r, 50));
        }
        expect(forged, `${receiver.lang}: ${out}`).toBe(401);
        // A signature header with a non-ASCII byte: answered 401, not dropped by a crash.
        const nonAscii = { ...signed(body), 'x-mailvet-signature': 'sha256=\u00e9', 'x-mailvet-signature-v2': `t=${unixSeconds()},v1=\u00e9${'0'.repeat(63)}` };
        expect(await post(hook, nonAscii, body), 'non-ASCII').toBe(401);
        // Signed now: taken.
        expect(await post(hook, signed(body), body), out).toBe(200);
        // A captured delivery replayed 5 minutes and 30 seconds later (or one dated ahead): refused,
        // though its legacy sha256 signature of the body is still right.
        const now = unixSeconds();
        expect(await post(hook, signed(body, { timestamp: now - 330 }), body), 'stale').toBe(401);
        expect(await post(hook, signed(body, { timestamp: now + 330 }), body), 'ahead').toBe(401);
        // The delivery id, the timestamp or the body changed after signing: refused.
        const good = signed(body);
        expect(await post(hook, { ...good, 'x-mailvet-delivery': '00000000-0000-4000-8000-000000000000' }, body), 'delivery id').toBe(401);
        expect(await post(hook, { ...good, 'x-mailvet-signature-v2': good['x-mailvet-signature-v2']!.replace(/^t=(\d+)/, (_, t: string) => `t=${Number(t) - 1}`) }, body), 'timestamp').toBe(401);
        expect(await post(hook, good, body.replace('"total_emails":1', '"total_emails":2')), 'body').toBe(401);

        // A real delivery from a real job: verified.
        const res = await fetch(`${ts.url}/v1/bulk`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev', 'invalid@sandbox.mailvet.dev'], webhook_url: hook }),
        });
        expect(res.status).toBe(200);
        const { job_id } = (await res.json()) as { job_id: string };
        const deadline = Date.now() + 30_000;
        while (!out.includes(`for job ${job_id}`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        expect(out).toContain(`verified job.completed for job ${job_id}`);
      } finally {
        child.kill('SIGTERM');
      }
    });
  }

  it('every Python example compiles', async () => {
    const py = await run('python3', ['--version'], {});
    if (py.code !== 0) return; // python3 not installed here: nothing to compile with
    for (const e of EXAMPLES) {
      const file = path.join(dir, `${e.id.replaceAll('-', '_')}.py`);
      fs.writeFileSync(file, exampleCode(e.python, ts.url));
      const r = await run('python3', ['-m', 'py_compile', file], {});
      expect(r.code, `${e.id} (Python): ${r.stderr}`).toBe(0);
    }
  });
});
