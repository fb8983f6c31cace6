// How lists get in (POST /api/jobs/upload, POST /v1/bulk as multipart or JSON) and how results get
// out (GET /v1/jobs/{id}/results pages), with unusual but real inputs: a bad input is a clear 4xx
// that leaves nothing behind (no job, no stored file), a good one loses no address. Sandbox
// (test-key) jobs are used where a job must run: the workers answer them from the sandbox table,
// no probe is asked.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { signUpVerified, startTestServer, type Browserless, type TestServer } from '../helpers/test-server';
import { credits, uploadCsv, waitForJob } from './jobs.world';

const STORAGE = `.data/test/storage-csv-intake-${Date.now()}`;
let ts: TestServer;
beforeAll(async () => {
  // No probe is needed: sandbox jobs never ask one (a closed loopback port as a tripwire).
  ts = await startTestServer({ role: 'all', probeUrls: ['http://127.0.0.1:9'], probeToken: 't', env: { STORAGE_DIR: STORAGE } });
}, 60_000);
afterAll(async () => {
  await ts?.stop();
  await rm(STORAGE, { recursive: true, force: true });
});

let n = 0;
async function customer(plan: Plan = 'enterprise', balance = 1000): Promise<{ c: Browserless; accountId: string; userId: string; key: string; testKey: string }> {
  n += 1;
  const email = `csv-intake-${n}-${Date.now().toString(36)}@example.com`;
  const c = await signUpVerified(ts, { email });
  const me = (await c.trpcQuery('account.me')).body.result.data;
  await ts.testDb.db.updateTable('account').set({ plan, credits_balance: balance }).where('id', '=', me.accountId).execute();
  const user = await ts.testDb.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  const key = (await c.trpcMutation('apiKeys.create', { name: 'live' })).body.result.data.api_key as string;
  const testKey = (await c.trpcMutation('apiKeys.create', { name: 'test', test: true })).body.result.data.api_key as string;
  return { c, accountId: me.accountId as string, userId: user.id, key, testKey };
}

async function api(key: string, method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
  const isForm = body instanceof FormData;
  const raw = body instanceof Uint8Array;
  const res = await fetch(`${ts.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && !isForm && !raw ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : isForm ? body : raw ? Buffer.from(body) : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: json, text };
}

const jobsOf = (accountId: string) => ts.testDb.db.selectFrom('validation_job').select(['id', 'filename', 'total_emails']).where('account_id', '=', accountId).execute();

describe('POST /api/jobs/upload', () => {
  it('keeps every address of a CRLF file with rows appended with LF line ends', async () => {
    const { c, accountId } = await customer('starter', 100);
    // Excel export (CRLF) + three rows appended by a script (LF).
    const up = await uploadCsv(c, 'appended.csv', 'Name,Email\r\nAnn,ann@csv-intake.test\r\nBob,bob@csv-intake.test\nCid,cid@csv-intake.test\nDee,dee@csv-intake.test\r\n');
    expect(up.status).toBe(200);
    expect(up.body.totalEmails).toBe(4);
    const chunks = await ts.testDb.db.selectFrom('validation_job_chunk').select('emails').where('job_id', '=', up.body.jobId).execute();
    expect(chunks.flatMap((ch) => ch.emails).sort()).toEqual(['ann@csv-intake.test', 'bob@csv-intake.test', 'cid@csv-intake.test', 'dee@csv-intake.test']);
    expect(await credits(ts.testDb.db, accountId)).toBe(100);
  });

  it('says what the file held that is not checked: a value too long to be an address is counted in the answer (skipped), never dropped unsaid', async () => {
    const { c, accountId } = await customer('starter', 100);
    const long = `${'x'.repeat(1100)}@csv-intake.test`;
    const up = await uploadCsv(c, 'outlook.csv', `Name,E-mail Address,E-mail 2 Address\r\nAnn,ann@csv-intake.test,${long}\r\nBo,,bo@csv-intake.test\r\nCy,"cy@csv-intake.test; ann@csv-intake.test",\r\n`);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ totalEmails: 3, duplicates: 1, skipped: 1 });
    const chunks = await ts.testDb.db.selectFrom('validation_job_chunk').select('emails').where('job_id', '=', up.body.jobId).execute();
    expect(chunks.flatMap((ch) => ch.emails).sort()).toEqual(['ann@csv-intake.test', 'bo@csv-intake.test', 'cy@csv-intake.test']);
    expect(await credits(ts.testDb.db, accountId)).toBe(100);
  });

  it('refuses a file name holding a NUL character with a 4xx, makes no job and keeps no file', async () => {
    const { c, accountId, userId } = await customer('starter', 100);
    const up = await uploadCsv(c, 'list\u0000.csv', 'email\r\nann@csv-intake.test\r\n');
    expect(up.status, JSON.stringify(up.body)).toBeGreaterThanOrEqual(400);
    expect(up.status, JSON.stringify(up.body)).toBeLessThan(500);
    expect(await jobsOf(accountId)).toEqual([]);
    const dir = path.join(STORAGE, 'validation-files', userId.replace(/[^A-Za-z0-9_-]/g, '_'));
    const files = await readdir(dir).catch(() => [] as string[]);
    expect(files).toEqual([]);
  });
});

describe('POST /api/jobs/upload refusals keep nothing', () => {
  it('a suspended account gets its 402 and the refused file is not kept on disk', async () => {
    const { c, accountId, userId } = await customer('starter', 100);
    await ts.testDb.db.updateTable('account').set({ subscription_status: 'suspended' }).where('id', '=', accountId).execute();
    const up = await uploadCsv(c, 'refused.csv', 'email\r\nann@csv-intake.test\r\n');
    expect(up.status, JSON.stringify(up.body)).toBe(402);
    expect(await jobsOf(accountId)).toEqual([]);
    const dir = path.join(STORAGE, 'validation-files', userId.replace(/[^A-Za-z0-9_-]/g, '_'));
    expect(await readdir(dir).catch(() => [] as string[])).toEqual([]);
  });
});

describe('POST /api/jobs/upload when the job cannot be made after the file is stored', () => {
  it('deletes the stored file: a failed upload keeps nothing', async () => {
    const { c, accountId, userId } = await customer('starter', 100);
    // The database refuses this one job after every check passed and the file was written.
    await sql`create function csv_intake_refuse_job() returns trigger language plpgsql as $$ begin raise exception 'refused for the test'; end $$`.execute(ts.testDb.db);
    await sql`create trigger csv_intake_refuse_job before insert on validation_job for each row when (new.filename = 'unlucky.csv') execute function csv_intake_refuse_job()`.execute(ts.testDb.db);
    try {
      const up = await uploadCsv(c, 'unlucky.csv', 'email\r\nann@csv-intake.test\r\n');
      expect(up.status, JSON.stringify(up.body)).toBe(500);
      expect(up.body.error.message).toBe('An error occurred during upload');
    } finally {
      await sql`drop trigger csv_intake_refuse_job on validation_job`.execute(ts.testDb.db);
      await sql`drop function csv_intake_refuse_job()`.execute(ts.testDb.db);
    }
    expect(await jobsOf(accountId)).toEqual([]);
    const dir = path.join(STORAGE, 'validation-files', userId.replace(/[^A-Za-z0-9_-]/g, '_'));
    expect(await readdir(dir).catch(() => [] as string[])).toEqual([]);
    expect(await credits(ts.testDb.db, accountId)).toBe(100);
  });
});

describe('POST /v1/bulk multipart', () => {
  /** A valid CSV of exactly `size` bytes: one address and a long note column. */
  function csvOfSize(size: number): Uint8Array {
    const head = 'email,note\r\nrole@sandbox.mailvet.dev,';
    const tail = '\r\n';
    return new Uint8Array(Buffer.from(head + 'x'.repeat(size - head.length - tail.length) + tail));
  }

  it('accepts a CSV of exactly 10 MB, as the dashboard upload does ("Size over 10 MB" is the refusal)', { timeout: 60_000 }, async () => {
    const { c, testKey } = await customer('enterprise', 1000);
    const bytes = csvOfSize(10 * 1024 * 1024);
    expect(bytes.byteLength).toBe(10 * 1024 * 1024);
    // The dashboard's door takes it.
    const dash = await uploadCsv(c, 'ten-mb.csv', bytes);
    expect(dash.status, JSON.stringify(dash.body)).toBe(200);
    // The API's door, same file.
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'text/csv' }), 'ten-mb.csv');
    const res = await api(testKey, 'POST', '/v1/bulk', form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ total_emails: 1, status: 'pending' });
  });

  it('refuses a CSV over 10 MB with the dashboard message ("File Too Large" / "Maximum file size is 10MB")', { timeout: 60_000 }, async () => {
    const { testKey } = await customer('enterprise', 1000);
    const form = new FormData();
    form.append('file', new Blob([csvOfSize(10 * 1024 * 1024 + 1)], { type: 'text/csv' }), 'big.csv');
    const res = await api(testKey, 'POST', '/v1/bulk', form);
    expect(res.status).toBe(413);
    expect({ detail: res.body.detail, title: res.body.title === 'File Too Large' || res.body.details?.title === 'File Too Large' || JSON.stringify(res.body).includes('File Too Large') }).toEqual({ detail: 'Maximum file size is 10MB', title: true });
  });

  it('refuses a body declared far past 10 MB before reading it, with the same message', { timeout: 60_000 }, async () => {
    const { testKey } = await customer('enterprise', 1000);
    const form = new FormData();
    form.append('file', new Blob([csvOfSize(11 * 1024 * 1024)], { type: 'text/csv' }), 'bigger.csv');
    const res = await api(testKey, 'POST', '/v1/bulk', form);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ title: 'File Too Large', detail: 'Maximum file size is 10MB' });
  });

  it('refuses a file name holding a NUL character (filename*=) with a 4xx', async () => {
    const { accountId, testKey } = await customer('enterprise', 1000);
    const boundary = 'csvintakeboundary42';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''list%00.csv\r\nContent-Type: text/csv\r\n\r\nemail\r\nrole@sandbox.mailvet.dev\r\n--${boundary}--\r\n`,
    );
    const res = await api(testKey, 'POST', '/v1/bulk', new Uint8Array(body), { 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    expect(await jobsOf(accountId)).toEqual([]);
  });
});

describe('GET /v1/jobs/{id}/results cursors', () => {
  async function finishedSandboxJob(testKey: string, locals: string[]): Promise<string> {
    const res = await api(testKey, 'POST', '/v1/bulk', { emails: locals.map((l) => `${l}@sandbox.mailvet.dev`) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = await waitForJob(ts.testDb.db, res.body.job_id, { timeoutMs: 30_000 });
    expect(job.status).toBe('completed');
    return res.body.job_id as string;
  }

  it("refuses another job's or another account's cursor with a 400 instead of answering a short or empty page", { timeout: 90_000 }, async () => {
    const me = await customer('enterprise', 1000);
    const other = await customer('enterprise', 1000);
    // Job A first (lower row ids), job B later (higher row ids), both of 3 addresses.
    const jobA = await finishedSandboxJob(me.testKey, ['valid', 'invalid', 'risky']);
    const jobB = await finishedSandboxJob(me.testKey, ['role', 'disposable', 'catch-all']);
    const otherJob = await finishedSandboxJob(other.testKey, ['valid', 'invalid', 'risky', 'role']);

    const allA = await api(me.testKey, 'GET', `/v1/jobs/${jobA}/results`);
    expect(allA.status).toBe(200);
    expect(allA.body.results).toHaveLength(3);

    // A cursor taken from job B (rows after A's) and one from another account's job.
    const pageB = await api(me.testKey, 'GET', `/v1/jobs/${jobB}/results?limit=1`);
    expect(pageB.body.next_cursor).toEqual(expect.any(String));
    const pageOther = await api(other.testKey, 'GET', `/v1/jobs/${otherJob}/results?limit=1`);
    expect(pageOther.body.next_cursor).toEqual(expect.any(String));

    for (const cursor of [pageB.body.next_cursor as string, pageOther.body.next_cursor as string]) {
      const res = await api(me.testKey, 'GET', `/v1/jobs/${jobA}/results?cursor=${encodeURIComponent(cursor)}`);
      // Never a 200 with an empty page and next_cursor null: that reads as "no more results" for job A.
      expect({ status: res.status, results: res.body.results?.length }).toEqual({ status: 400, results: undefined });
    }
  });
});

describe('POST /v1/bulk JSON with unusual unicode', () => {
  it('a job either refuses a lone surrogate or answers every address it counted', { timeout: 60_000 }, async () => {
    const { testKey } = await customer('enterprise', 1000);
    // Valid JSON text: "\ud800" is a lone surrogate (not a Unicode scalar value); U+FFFD is a real character.
    const body = '{"emails":["\\ud800a@sandbox.mailvet.dev","\\ufffda@sandbox.mailvet.dev"]}';
    const res = await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' }, body });
    const json = (await res.json()) as any;
    if (res.status === 400) return; // refused: fine
    expect(res.status, JSON.stringify(json)).toBe(200);
    const job = await waitForJob(ts.testDb.db, json.job_id, { timeoutMs: 30_000 });
    const rows = await ts.testDb.db.selectFrom('validation_result').select('email').where('job_id', '=', json.job_id).execute();
    expect({ status: job.status, total: job.total_emails, processed: job.processed_emails, rows: rows.length }).toEqual({ status: 'completed', total: json.total_emails, processed: json.total_emails, rows: json.total_emails });
  });

  it('every list door refuses a lone surrogate with a 400 that says why, and makes no job', { timeout: 30_000 }, async () => {
    const { c, accountId, testKey } = await customer('enterprise', 1000);
    // JSON.stringify sends the lone surrogate as the escape "\ud800".
    const bulk = await api(testKey, 'POST', '/v1/bulk', { emails: ['\ud800a@sandbox.mailvet.dev', '\ufffda@sandbox.mailvet.dev'] });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(400);
    expect(JSON.stringify(bulk.body)).toMatch(/lone surrogate/);
    const schedule = await c.trpcMutation('schedules.create', { name: 'Lone', emails: ['\ud800a@example.com'] });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(400);
    expect(JSON.stringify(schedule.body)).toMatch(/lone surrogate/);
    expect(await jobsOf(accountId)).toEqual([]);
    expect(await ts.testDb.db.selectFrom('schedule').select('id').where('account_id', '=', accountId).execute()).toEqual([]);
  });
});
