// The Documentation page's examples read a list page by page as fast as the answers come; on a
// Starter key (3 requests a second) that is over the limit by the fourth page. The page's Best
// Practices say to wait for Retry-After on a 429 and try again: the examples' call helper does so,
// so a reader's copy pages through a long list on any plan instead of dying with "Mailvet 429".
// Node.js and the browser version (in Node) always; Python where python3 with requests is installed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_PLACEHOLDERS, EXAMPLES, exampleCode } from '../../src/features/docs/examples';
import { ownerOn } from '../helpers/accounts';
import { pythonWithRequests, runExample } from '../helpers/example-run';
import { testServer } from '../helpers/test-server';

const ts = testServer();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-rate-examples-'));
const JOBS = 9;
let key = '';

const run = (cmd: string, file: string) => runExample(cmd, [file], { cwd: dir, env: { MAILVET_API_KEY: key } });

const jobsList = EXAMPLES.find((e) => e.id === 'jobs-list')!;

beforeAll(async () => {
  const owner = await ownerOn(ts, 'starter', 'docs-rate');
  key = (await owner.client.trpcMutation('apiKeys.create', { name: 'docs rate', test: true })).body.result.data.api_key as string;
  for (let i = 0; i < JOBS; i++) {
    for (;;) {
      const res = await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ emails: [`a${i}@example.com`] }) });
      if (res.status === 200) break;
      expect(res.status).toBe(429);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}, 60_000);

/** Waits until the key's bucket is full again, so each run starts as a reader's would. */
const rested = () => new Promise((r) => setTimeout(r, 1100));

describe('the paged examples on a Starter key (3 requests a second)', () => {
  it('Node.js: every job over five pages, the 429s waited out', async () => {
    await rested();
    fs.writeFileSync(path.join(dir, 'jobs.mjs'), exampleCode(jobsList.node, ts.url));
    const r = await run(process.execPath, 'jobs.mjs');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(`${JOBS} jobs`);
  });

  it('JavaScript (browser): the same', async () => {
    await rested();
    const pasted = exampleCode(jobsList.javascript!, ts.url).replace(`'${BROWSER_PLACEHOLDERS.key}'`, JSON.stringify(key));
    fs.writeFileSync(path.join(dir, 'jobs.browser.mjs'), pasted);
    const r = await run(process.execPath, 'jobs.browser.mjs');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(`${JOBS} jobs`);
  });

  it.skipIf(!pythonWithRequests())('Python: the same', async () => {
    await rested();
    fs.writeFileSync(path.join(dir, 'jobs.py'), exampleCode(jobsList.python, ts.url));
    const r = await run('python3', 'jobs.py');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(`${JOBS} jobs`);
  });
});
