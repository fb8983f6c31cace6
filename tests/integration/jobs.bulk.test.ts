import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../server/env';
import { startServer, type RunningServer } from '../../server/main';
import { freePort } from '../../db/embedded';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { credits, csvOf, plainDomains, resultStats, signUpOnPlan, startProbeWorld, uploadCsv, waitForJob, type ProbeWorld } from './jobs.world';

let pw: ProbeWorld;
let ts: TestServer;
beforeAll(async () => {
  pw = await startProbeWorld(plainDomains(6, 10, 'bulk'));
  ts = await startTestServer({ role: 'all', probeUrls: [pw.url], probeToken: pw.token, env: { STORAGE_DIR: `.data/test/storage-${Date.now()}` } });
});
afterAll(async () => {
  await ts?.stop();
  await pw?.stop();
});

describe('bulk upload → worker → History', () => {
  it('validates a CSV end to end: one result and one credit per unique address, live counts, paged results, CSV export', async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'bulk-owner@example.com', 'starter', 1000);
    const emails = pw.world.emails.slice(0, 40);
    const csv = `\uFEFFName,EMAIL\r\n${emails.map((e, i) => `"N ${i}",${e.replace(/@(.*)$/, (m) => m.toUpperCase())}`).join('\r\n')}\r\n,\r\n"dup","${emails[0]}"\r\n`;
    const up = await uploadCsv(client, 'my list.csv', csv);
    expect(up.status).toBe(200);
    expect(up.body.totalEmails).toBe(40);
    expect(up.body.fileName).toMatch(/^[^/]+\/\d+-my_list\.csv$/);

    const job = await waitForJob(ts.testDb.db, up.body.jobId);
    expect(job.status).toBe('completed');
    expect(job.processed_emails).toBe(40);
    expect(await resultStats(ts.testDb.db, job.id)).toEqual({ rows: 40, unique: 40 });
    expect(await credits(ts.testDb.db, accountId)).toBe(960);

    const list = await client.trpcQuery('jobs.list');
    expect(list.status).toBe(200);
    expect(list.body.result.data.jobs[0]).toMatchObject({ id: job.id, filename: 'my list.csv', status: 'completed', total_emails: 40, processed_emails: 40, progress: 100 });
    const b = list.body.result.data.jobs[0];
    expect(b.valid_count + b.invalid_count + b.risky_count).toBe(40);
    expect(b.invalid_count).toBeGreaterThan(0);

    const page = await client.trpcQuery('jobs.results', { jobId: job.id, page: 2, pageSize: 15 });
    expect(page.body.result.data.total).toBe(40);
    expect(page.body.result.data.rows).toHaveLength(15);

    const breakdown = await client.trpcQuery('jobs.breakdown', { jobId: job.id });
    expect(breakdown.body.result.data).toMatchObject({ valid: b.valid_count, invalid: b.invalid_count, risky: b.risky_count });

    // One download door: GET /api/jobs/:id/export (the tRPC jobs.export copy is gone).
    const res = await client.request(`/api/jobs/${job.id}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="validation-results-${job.id}.csv"`);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Email,Result,Deliverability Score,Syntax Valid,DNS Valid,MX Valid,SMTP Valid,Role Detected,Disposable Provider,Checked At');
    expect(lines).toHaveLength(41);
    expect(lines[1]).toMatch(/,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // Filtered downloads: only one verdict, the same columns, named after the filter.
    for (const kind of ['valid', 'invalid', 'risky'] as const) {
      const only = await client.request(`/api/jobs/${job.id}/export?result=${kind}`);
      expect(only.status).toBe(200);
      expect(only.headers.get('content-disposition')).toBe(`attachment; filename="validation-results-${job.id}-${kind}.csv"`);
      const rows = (await only.text()).trim().split('\r\n');
      expect(rows[0]).toBe(lines[0]);
      expect(rows.slice(1).every((l) => l.split(',')[1] === kind)).toBe(true);
      expect(rows.length - 1).toBe(b[`${kind}_count`]);
    }
    const bad = await client.request(`/api/jobs/${job.id}/export?result=unknown`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe('result must be one of valid, invalid, risky (comma-separated).');
  });

  it('charges a contact export what the screen said: one credit per unique address (duplicates, blank rows, a repeated header: none; a cell of two addresses: two)', async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'charged-export@example.com', 'starter', 9);
    const [a, b, c, d] = pw.world.emails.slice(0, 4) as [string, string, string, string];
    const upper = (e: string) => e.replace(/^[^@]+/, (m) => m.toUpperCase());
    const csv = [
      'Name,E-mail Address,E-mail 2 Address',
      `Ann,${a},`,
      `Bo,"${b}; ${c}",${upper(a)}`, // two in a cell, and Ann's address again in another case
      'Cy,,', // blank
      ',,',
      'Name,E-mail Address,E-mail 2 Address', // the second file's header (two exports joined)
      `Di,n/a,${d}`, // one value that is no address (checked, found invalid: a credit)
      `Ed,${b},`, // duplicate
    ].join('\r\n');
    // The balance must cover the unique values (5: a, b, c, n/a, d); 4 credits do not.
    const short = await signUpOnPlan(ts, 'charged-export-short@example.com', 'starter', 4);
    const refused = await uploadCsv(short.client, 'contacts.csv', csv);
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toBe('Not enough credits: this list needs 5 credits (one per unique address) and your balance is 4.');

    const up = await uploadCsv(client, 'contacts.csv', csv);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ totalEmails: 5, duplicates: 2, skipped: 0 });
    const job = await waitForJob(ts.testDb.db, up.body.jobId);
    expect(job.status).toBe('completed');
    const rows = await ts.testDb.db.selectFrom('validation_result').select(['email', 'charged']).where('job_id', '=', job.id).execute();
    expect(rows.map((r) => r.email).sort()).toEqual([a, b, c, d, 'n/a'].sort());
    const charged = rows.filter((r) => r.charged).length;
    expect(charged).toBe(5);
    expect(await credits(ts.testDb.db, accountId)).toBe(9 - charged);
  });

  it('escapes cells that a spreadsheet would run', async () => {
    const { client } = await signUpOnPlan(ts, 'hostile@example.com', 'starter', 100);
    const up = await uploadCsv(client, 'hostile.csv', csvOf(['=cmd|calc@x.io', '+1@d0.bulk.test', '-2@d0.bulk.test', '@3@d0.bulk.test']));
    expect(up.status).toBe(200);
    await waitForJob(ts.testDb.db, up.body.jobId);
    const exp = await client.request(`/api/jobs/${up.body.jobId}/export`);
    const cells = (await exp.text())
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l: string) => l.split(',')[0]);
    expect(cells.sort()).toEqual(["'+1@d0.bulk.test", "'-2@d0.bulk.test", "'=cmd|calc@x.io", "'@3@d0.bulk.test"].sort());
  });

  it('downloads a file Excel opens as UTF-8 (byte-order mark first): a non-ASCII address is not turned into mojibake', async () => {
    const { client } = await signUpOnPlan(ts, 'excel@example.com', 'starter', 100);
    const up = await uploadCsv(client, 'intl.csv', csvOf(['josé@d0.bulk.test', 'ann@d0.bulk.test']));
    expect(up.status).toBe(200);
    expect((await waitForJob(ts.testDb.db, up.body.jobId)).status).toBe('completed');
    const exp = await client.request(`/api/jobs/${up.body.jobId}/export`);
    expect(exp.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await exp.arrayBuffer());
    // Without it Excel reads the file in the Windows code page: "josé@" shows as "josÃ©@".
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(3));
    expect(text.split('\r\n')[0]).toBe('Email,Result,Deliverability Score,Syntax Valid,DNS Valid,MX Valid,SMTP Valid,Role Detected,Disposable Provider,Checked At');
    expect(text).toContain('\r\njosé@d0.bulk.test,');
  });

  it('refuses bad files with a clear 4xx before any credit is taken or any job is made', async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'refused@example.com', 'starter', 5);
    const jobsBefore = await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute();
    const cases: Array<[string, string | Uint8Array, number, RegExp]> = [
      ['list.txt', csvOf(['a@x.io']), 400, /Please upload a CSV file/],
      ['empty.csv', '', 400, /CSV file is empty/],
      ['blank.csv', '\r\n\r\n', 400, /CSV file is empty/],
      ['nocol.csv', 'name,phone\nA,1\n', 400, /must contain an 'email' column/],
      ['junk.csv', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe, 0, 1]), 400, /not a readable CSV/],
      ['many.csv', csvOf(Array.from({ length: 10_001 }, (_, i) => `u${i}@x.io`)), 400, /more than 10,000/],
      ['credits.csv', csvOf(['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io', 'e@x.io', 'f@x.io', 'a@x.io']), 402, /needs 6 credits/],
    ];
    for (const [name, body, status, message] of cases) {
      const r = await uploadCsv(client, name, body, name.endsWith('.txt') ? 'text/plain' : 'text/csv');
      expect(r.status, name).toBe(status);
      expect(r.body.error.message, name).toMatch(message);
    }
    const big = await uploadCsv(client, 'big.csv', Buffer.alloc(10 * 1024 * 1024 + 1, 0x61));
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ title: 'File Too Large', message: 'Maximum file size is 10MB' });

    expect(await credits(ts.testDb.db, accountId)).toBe(5);
    const jobsAfter = await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute();
    expect(jobsAfter).toEqual(jobsBefore);
  });

  it('keeps the free plan out (PLAN_REQUIRED) on the upload door', async () => {
    const { client } = await signUpOnPlan(ts, 'free-bulk@example.com', 'free', 500);
    const http = await uploadCsv(client, 'a.csv', csvOf(['a@x.io']));
    expect(http.status).toBe(403);
    expect(http.body.error.code).toBe('PLAN_REQUIRED');
  });

  it("answers NOT_FOUND for another account's job on every procedure", async () => {
    const a = await signUpOnPlan(ts, 'tenant-a@example.com', 'starter', 100);
    const b = await signUpOnPlan(ts, 'tenant-b@example.com', 'starter', 100);
    const up = await uploadCsv(a.client, 'a.csv', csvOf([pw.world.emails[0]!]));
    expect(up.status).toBe(200);
    const jobId = up.body.jobId;
    await waitForJob(ts.testDb.db, jobId);
    for (const [proc, input] of [
      ['jobs.byId', { jobId }],
      ['jobs.results', { jobId, page: 1, pageSize: 10 }],
      ['jobs.breakdown', { jobId }],
    ] as const) {
      const r = await b.client.trpcQuery(proc, input);
      expect(r.status, proc).toBe(404);
    }
    expect((await b.client.request(`/api/jobs/${jobId}/export`)).status).toBe(404);
    expect((await b.client.trpcQuery('jobs.list')).body.result.data).toEqual({ jobs: [], nextCursor: null });
  });

  it('pushes job changes over SSE to a subscriber on another server process, for its own account only', async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'live@example.com', 'starter', 100);
    const other = await signUpOnPlan(ts, 'live-other@example.com', 'starter', 100);
    // A second web process on the same database: the change is made by the first one's worker.
    const port = await freePort();
    const web2: RunningServer = await startServer({
      env: readEnv({ NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: '.data/test' }),
      role: 'web',
      databaseUrl: ts.testDb.url,
      probe: { urls: [pw.url], token: pw.token },
      baseURL: ts.url, // same auth origin as the cookies
    });
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const events: Array<{ jobId: string; accountId: string; op: string }> = [];
    const es = new EventSource(`http://127.0.0.1:${port}/api/trpc/jobs.onChange`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), cookie } }),
    });
    es.onmessage = (m) => {
      const data = JSON.parse(m.data) as { jobId?: string; accountId?: string; op?: string } | null;
      if (data?.jobId) events.push(data as { jobId: string; accountId: string; op: string });
    };
    try {
      await new Promise<void>((resolve, reject) => {
        es.onopen = () => resolve();
        es.onerror = (e) => reject(new Error(`SSE error ${String((e as { message?: string }).message)}`));
      });
      await new Promise((r) => setTimeout(r, 300));
      const otherUp = await uploadCsv(other.client, 'other.csv', csvOf([pw.world.emails[1]!]));
      const up = await uploadCsv(client, 'live.csv', csvOf(pw.world.emails.slice(0, 5)));
      await waitForJob(ts.testDb.db, up.body.jobId);
      await waitForJob(ts.testDb.db, otherUp.body.jobId);
      await expect.poll(() => events.filter((e) => e.jobId === up.body.jobId).map((e) => e.op), { timeout: 5000 }).toEqual(expect.arrayContaining(['INSERT', 'UPDATE']));
      expect(events.every((e) => e.accountId === accountId)).toBe(true);
    } finally {
      es.close();
      await web2.stop();
    }
  });
});
