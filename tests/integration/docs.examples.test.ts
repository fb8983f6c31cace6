// The Documentation page's examples run (issue #12 item 8): every cURL and Node.js example of
// src/features/docs/examples.ts is executed as printed on the page (BASE replaced by a running
// server's origin) with a real key over real HTTP, and what it prints is checked. The key is a test
// key (mv_test_…), so jobs complete through the real workers and webhooks fire without a probe.
// Python examples are compiled by python3 (syntax), when it is installed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded';
import { EXAMPLES, exampleCode, type ApiExample } from '../../src/features/docs/examples';
import { ownerOn, type Person } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Person;
let apiKey: string;
let webhookSecret: string;
let dir: string;
/** The job the bulk example started; the job examples read it from JOB_ID. */
let jobId = '';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env }, timeout: timeoutMs }, (err, stdout, stderr) => {
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

async function curl(id: string): Promise<Run> {
  const code = example(id).curl;
  if (!code) throw new Error(`${id} has no cURL example`);
  const r = await run('bash', ['-c', exampleCode(code, ts.url)], envFor());
  expect(r.code, `${id} (cURL) failed: ${r.stdout} ${r.stderr}`).toBe(0);
  return r;
}

async function node(id: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  const file = path.join(dir, `${id}.mjs`);
  fs.writeFileSync(file, exampleCode(example(id).node, ts.url));
  const r = await run(process.execPath, [file], { ...envFor(), ...extraEnv });
  expect(r.code, `${id} (Node) failed: ${r.stdout} ${r.stderr}`).toBe(0);
  return r;
}

const lines = (s: string) => s.trim().split('\n');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** The examples each test below runs; a new example fails the guard until it is run here too. */
const COVERED = new Set(['account', 'validate', 'bulk-json', 'idempotency', 'job-status', 'job-results', 'webhook-verify']);

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
  it('every example has cURL (unless it receives), Node.js, Python and PHP, and is run by this file', () => {
    for (const e of EXAMPLES) {
      expect(COVERED.has(e.id), `example ${e.id} is not run by docs.examples.test.ts`).toBe(true);
      expect(e.node && e.python && e.php, e.id).toBeTruthy();
      if (e.operation) expect(e.curl, `${e.id} calls ${e.operation}: give it a cURL example`).toBeTruthy();
    }
  });

  it('GET /v1/account: cURL and Node print the plan, the credits and the key', async () => {
    const body = JSON.parse((await curl('account')).stdout);
    expect(body).toMatchObject({ plan: 'business', key: { test: true, key_prefix: expect.stringMatching(/^mv_test_/) } });
    expect(lines((await node('account')).stdout)).toEqual([expect.stringMatching(/^business: \d+ credits, key mv_test_\S* \(validate, bulk, results, account\)$/)]);
  });

  it('POST /v1/validate: cURL prints the result object, Node a one-line verdict', async () => {
    const body = JSON.parse((await curl('validate')).stdout);
    // A test key answers from the sandbox: an address outside its table is risky / smtp_not_checked.
    expect(body).toMatchObject({ email: 'jane.cooper@acme-corp.com', result: 'risky', reason: 'smtp_not_checked', syntax_valid: true, charged: false });
    expect(lines((await node('validate')).stdout)).toEqual([expect.stringMatching(/^jane\.cooper@acme-corp\.com: risky \(smtp_not_checked, score \d+\)$/)]);
  });

  it('POST /v1/bulk and Idempotency-Key: a job is started; the same key and body give the same job', async () => {
    const started = JSON.parse((await curl('bulk-json')).stdout);
    expect(started).toMatchObject({ job_id: expect.stringMatching(UUID), status: 'pending' });
    expect(started.total_emails).toBeGreaterThanOrEqual(2);
    jobId = started.job_id;
    expect(lines((await node('bulk-json')).stdout)).toEqual([expect.stringMatching(/^job [0-9a-f-]{36}: \d+ addresses, pending$/)]);

    const first = JSON.parse((await curl('idempotency')).stdout);
    const again = JSON.parse((await curl('idempotency')).stdout);
    expect(again.job_id).toBe(first.job_id);
    expect(lines((await node('idempotency')).stdout)).toEqual([`same job ${first.job_id}`]);
  });

  it('GET /v1/jobs/{id}: Node polls until the job completes, cURL prints the job', async () => {
    expect(jobId).toMatch(UUID);
    const polled = lines((await node('job-status')).stdout);
    expect(polled.at(-1)).toMatch(/^completed: (\d+)\/\1$/);
    expect(JSON.parse((await curl('job-status')).stdout)).toMatchObject({ job_id: jobId, status: 'completed' });
  });

  it('GET /v1/jobs/{id}/results: cURL prints one page with a cursor, Node follows the cursor to the end', async () => {
    const page = JSON.parse((await curl('job-results')).stdout);
    expect(page.job_id).toBe(jobId);
    expect(page.results).toHaveLength(2);
    expect(page.next_cursor).toEqual(expect.any(String));
    const out = lines((await node('job-results')).stdout);
    expect(out.at(-1)).toBe(`${page.total_emails} results`);
    expect(out).toContain('jane@acme-corp.com: risky (smtp_not_checked)');
    expect(out).toHaveLength(page.total_emails + 1);
  });

  it('the Node webhook receiver verifies a real signed delivery and refuses a forged one', async () => {
    const port = await freePort();
    const file = path.join(dir, 'receiver.mjs');
    fs.writeFileSync(file, exampleCode(example('webhook-verify').node, ts.url));
    const child: ChildProcess = spawn(process.execPath, [file], { env: { PATH: process.env.PATH ?? '', ...envFor(), PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const hook = `http://127.0.0.1:${port}/hooks/mailvet`;
      // Wait for it to listen, then send a forged call: refused.
      let forged: Response | null = null;
      for (let i = 0; i < 100 && !forged; i++) {
        forged = await fetch(hook, { method: 'POST', headers: { 'x-mailvet-signature': 'sha256=00' }, body: '{"event":"job.completed"}' }).catch(() => null);
        if (!forged) await new Promise((r) => setTimeout(r, 50));
      }
      expect(forged?.status).toBe(401);

      const res = await fetch(`${ts.url}/v1/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev', 'invalid@sandbox.mailvet.dev'], webhook_url: hook }),
      });
      expect(res.status).toBe(200);
      const { job_id } = (await res.json()) as { job_id: string };
      const deadline = Date.now() + 30_000;
      while (!out.includes(job_id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(lines(out)).toEqual([`verified job.completed for job ${job_id}: 2/2`]);
    } finally {
      child.kill('SIGTERM');
    }
  });

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
