// The Documentation page's "Follow a job's progress" examples poll until the job ends. A job also
// ends cancelled (from History, or POST /v1/jobs/{id}/cancel): a reader's copy of the example must
// stop there too, in every language, not poll for ever. Each example runs for real against a
// cancelled job (Python when python3 with requests is installed here; reported skipped otherwise).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, exampleCode } from '../../src/features/docs/examples';
import { ownerOn } from '../helpers/accounts';
import { pythonWithRequests, runExample } from '../helpers/example-run';
import { testServer } from '../helpers/test-server';

const ts = testServer();

const run = (cmd: string, args: string[], env: Record<string, string>) => runExample(cmd, args, { env, timeoutMs: 15_000 });

const jobStatus = EXAMPLES.find((e) => e.id === 'job-status')!;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-job-end-'));

async function cancelledJob(): Promise<{ key: string; jobId: string }> {
  const owner = await ownerOn(ts, 'business', 'docs-job-end');
  const key = (await owner.client.trpcMutation('apiKeys.create', { name: 'docs', test: true })).body.result.data.api_key as string;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const started = (await (await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers, body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev', 'invalid@sandbox.mailvet.dev'] }) })).json()) as { job_id: string };
  expect((await fetch(`${ts.url}/v1/jobs/${started.job_id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  return { key, jobId: started.job_id };
}

describe("the job-status examples on a cancelled job", () => {
  it('Node.js stops polling and prints the cancelled job', async () => {
    const { key, jobId } = await cancelledJob();
    const file = path.join(dir, 'job-status.mjs');
    fs.writeFileSync(file, exampleCode(jobStatus.node, ts.url));
    const r = await run(process.execPath, [file], { MAILVET_API_KEY: key, JOB_ID: jobId });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('cancelled: 0/2');
  });

  it.skipIf(!pythonWithRequests())('Python stops polling and prints the cancelled job', async () => {
    const { key, jobId } = await cancelledJob();
    const file = path.join(dir, 'job_status.py');
    fs.writeFileSync(file, exampleCode(jobStatus.python, ts.url));
    const r = await run('python3', [file], { MAILVET_API_KEY: key, JOB_ID: jobId });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('cancelled: 0/2');
  });

  it('says when a job ends: completed, failed or cancelled', () => {
    expect(jobStatus.description).toContain('completed, failed or cancelled');
  });
});
