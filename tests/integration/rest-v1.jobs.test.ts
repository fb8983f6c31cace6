// /v1 jobs as API users expect them (#12 item 2), over HTTP against a real server, worker, probe
// daemon and simulated mail internet: CSV upload on POST /bulk, GET /jobs with cursors, partial and
// filtered results as JSON or CSV, cancel (exact balances, idempotent), the free estimate.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { signUpVerified, startTestServer, type TestServer } from '../helpers/test-server';
import { credits, plainDomains, resultStats, startProbeWorld, waitForJob, type ProbeWorld } from './jobs.world';

let pw: ProbeWorld;
let ts: TestServer;
beforeAll(async () => {
  // Slow SMTP replies (250 ms each) keep a large job running long enough to read and cancel it.
  pw = await startProbeWorld(plainDomains(4, 600, 'v1jobs'), { replyDelayMs: 250 });
  ts = await startTestServer({ role: 'all', probeUrls: [pw.url], probeToken: pw.token, env: { STORAGE_DIR: `.data/test/storage-v1jobs-${Date.now()}` } });
}, 60_000);
afterAll(async () => {
  await ts?.stop();
  await pw?.stop();
});

let n = 0;
async function customer(plan: Plan = 'enterprise', balance = 10_000) {
  n += 1;
  const c = await signUpVerified(ts, { email: `v1jobs-${n}-${Date.now().toString(36)}@example.com` });
  const me = (await c.trpcQuery('account.me')).body.result.data;
  await ts.testDb.db.updateTable('account').set({ plan, credits_balance: balance }).where('id', '=', me.accountId).execute();
  const key = (await c.trpcMutation('apiKeys.create', { name: 'jobs' })).body.result.data;
  return { c, accountId: me.accountId as string, key: key.api_key as string };
}

async function api(key: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const isForm = body instanceof FormData;
  const res = await fetch(`${ts.url}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined && !isForm && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : isForm ? body : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    // CSV or empty
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

const emailsOf = (d: number, from: number, count: number) => Array.from({ length: count }, (_, i) => `u${from + i}@d${d}.v1jobs.test`);

/** A finished job of `emails` through POST /v1/bulk and the workers. */
async function finishedJob(key: string, emails: string[]) {
  const res = await api(key, 'POST', '/v1/bulk', { emails });
  expect(res.status).toBe(200);
  const job = await waitForJob(ts.testDb.db, res.body.job_id, { timeoutMs: 60_000 });
  expect(job.status).toBe('completed');
  return res.body.job_id as string;
}

describe('POST /v1/bulk with a CSV file (multipart/form-data)', () => {
  it('parses the file with the dashboard rules, names the job after it and charges per unique address', { timeout: 60_000 }, async () => {
    const { key, accountId, c } = await customer('enterprise', 100);
    const form = new FormData();
    const emails = emailsOf(0, 0, 5);
    form.append('file', new Blob([`Name,EMAIL\r\n${emails.map((e, i) => `n${i},${e.replace(/@(.*)$/, (m) => m.toUpperCase())}`).join('\r\n')}\r\nagain,${emails[0]}\r\n`], { type: 'text/csv' }), 'leads.csv');
    const res = await api(key, 'POST', '/v1/bulk', form);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_emails: 5, status: 'pending' });
    const job = await waitForJob(ts.testDb.db, res.body.job_id, { timeoutMs: 60_000 });
    expect(job).toMatchObject({ filename: 'leads.csv', source: 'api', processed_emails: 5 });
    expect(await credits(ts.testDb.db, accountId)).toBe(95);
    // The dashboard's History lists it under the file's name.
    const list = (await c.trpcQuery('jobs.list')).body.result.data.jobs;
    expect(list[0]).toMatchObject({ id: job.id, filename: 'leads.csv' });
  });

  it('refuses a key without the bulk scope (403) and a key over its rate (429) before reading the file, as on JSON', async () => {
    const { c } = await customer('pro');
    const make = async (input: Record<string, unknown>) => (await c.trpcMutation('apiKeys.create', { name: 'k', ...input })).body.result.data.api_key as string;
    // An unreadable file: a 400 would mean the server read and parsed it first.
    const junk = () => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from([0, 1, 2, 0xff, 0xfe])], { type: 'text/csv' }), 'junk.csv');
      return form;
    };
    const noScope = await make({ scopes: ['results'] });
    const scoped = await api(noScope, 'POST', '/v1/bulk', junk());
    expect(scoped.status, scoped.text).toBe(403);
    expect(scoped.body).toMatchObject({ code: 'SCOPE_REQUIRED', scope: 'bulk' });
    // One request per second on this key: of four at once at least two are over it.
    const slow = await make({ rate_limit_per_second: 1 });
    const answers = await Promise.all([1, 2, 3, 4].map(() => api(slow, 'POST', '/v1/bulk', junk())));
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.every((a) => a.status === 400 || a.status === 429), answers.map((a) => a.text).join('\n')).toBe(true);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(limited[0]!.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('takes the bulk routes as the router does: a trailing slash or another case gets the same body limits and forms', async () => {
    const { c } = await customer('pro');
    const key = (await c.trpcMutation('apiKeys.create', { name: 'sandbox', test: true })).body.result.data.api_key as string;
    const list = { emails: Array.from({ length: 3000 }, (_, i) => `user${i}+tag@sandbox.mailvet.dev`) }; // ~100 KB: past the 64 KB of small routes
    for (const path of ['/v1/bulk/', '/v1/BULK', '/v1/Bulk-Validate']) {
      const json = await api(key, 'POST', path, list);
      expect(json.status, `${path}: ${json.text.slice(0, 200)}`).toBe(200);
      expect(json.body.total_emails).toBe(3000);
      const form = new FormData();
      form.append('file', new Blob(['email\nvalid@sandbox.mailvet.dev\n'], { type: 'text/csv' }), 'list.csv');
      const csv = await api(key, 'POST', path, form);
      expect(csv.status, `${path}: ${csv.text.slice(0, 200)}`).toBe(200);
    }
  });

  it('checks the key, scope and rate before reading a JSON body too (up to 12 MB on the bulk routes)', async () => {
    const { c } = await customer('pro');
    const make = async (input: Record<string, unknown>) => (await c.trpcMutation('apiKeys.create', { name: 'k', ...input })).body.result.data.api_key as string;
    // Broken JSON: a 400 would mean the server read and parsed it first.
    const junk = `{"emails": [${'"a@example.com",'.repeat(1000)}`;
    for (const path of ['/v1/bulk', '/v1/bulk-validate']) {
      const anonymous = await api(null, 'POST', path, junk, { 'content-type': 'application/json' });
      expect(anonymous.status, anonymous.text).toBe(401);
      const noScope = await api(await make({ scopes: ['validate'] }), 'POST', path, junk, { 'content-type': 'application/json' });
      expect(noScope.status, noScope.text).toBe(403);
      expect(noScope.body).toMatchObject({ code: 'SCOPE_REQUIRED', scope: 'bulk' });
    }
    const slow = await make({ rate_limit_per_second: 1 });
    const answers = await Promise.all([1, 2, 3, 4].map(() => api(slow, 'POST', '/v1/bulk', junk, { 'content-type': 'application/json' })));
    expect(answers.every((a) => a.status === 400 || a.status === 429), answers.map((a) => a.text).join('\n')).toBe(true);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(2);
  });

  it('refuses bad uploads with the dashboard messages and changes nothing', async () => {
    const { key, accountId } = await customer('enterprise', 100);
    const before = await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute();
    const notCsv = new FormData();
    notCsv.append('file', new Blob(['hello'], { type: 'application/pdf' }), 'list.pdf');
    expect(await api(key, 'POST', '/v1/bulk', notCsv)).toMatchObject({ status: 400, body: { code: 'BAD_INPUT', detail: 'Please upload a CSV file' } });
    const noFile = new FormData();
    noFile.append('webhook_url', 'https://example.com/hook');
    expect(await api(key, 'POST', '/v1/bulk', noFile)).toMatchObject({ status: 400, body: { detail: 'Attach the CSV as the form field "file".' } });
    const big = new FormData();
    big.append('file', new Blob([Buffer.alloc(10 * 1024 * 1024 + 10, 0x61)], { type: 'text/csv' }), 'big.csv');
    const tooBig = await api(key, 'POST', '/v1/bulk', big);
    expect(tooBig.status).toBe(413);
    const empty = new FormData();
    empty.append('file', new Blob(['email\r\n\r\n'], { type: 'text/csv' }), 'empty.csv');
    expect((await api(key, 'POST', '/v1/bulk', empty)).status).toBe(400);
    // Other media types stay refused (415), on /bulk and elsewhere; multipart is only for /bulk.
    expect((await api(key, 'POST', '/v1/bulk', 'email\r\na@b.io\r\n', { 'content-type': 'text/csv' })).status).toBe(415);
    const form = new FormData();
    form.append('file', new Blob(['email\r\na@b.io\r\n'], { type: 'text/csv' }), 'a.csv');
    expect((await api(key, 'POST', '/v1/estimate', form)).status).toBe(415);
    // No key: 401 before the body is read.
    expect((await api(null, 'POST', '/v1/bulk', form)).status).toBe(401);
    expect(await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute()).toEqual(before);
    expect(await credits(ts.testDb.db, accountId)).toBe(100);
  });
});

describe('GET /v1/jobs', () => {
  it("pages the key's account's jobs newest first with an opaque cursor; bad cursors and limits are 400", { timeout: 60_000 }, async () => {
    const { key } = await customer();
    const other = await customer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api(key, 'POST', '/v1/bulk', { emails: [`u${i}@d1.v1jobs.test`] })).body.job_id);
    await api(other.key, 'POST', '/v1/bulk', { emails: ['u0@d2.v1jobs.test'] });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { jobs: Array<{ job_id: string }>; next_cursor: string | null } } = await api(key, 'GET', `/v1/jobs?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.jobs.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.jobs.map((j) => j.job_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const first = await api(key, 'GET', '/v1/jobs?limit=1');
    expect(Object.keys(first.body.jobs[0]).sort()).toEqual(['completed_at', 'created_at', 'job_id', 'processed_emails', 'status', 'test', 'total_emails']);
    expect(first.body.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    // Another account's cursor, forged cursors, out-of-range limits: 400, never a silent empty page.
    const foreignCursor = (await api(other.key, 'GET', '/v1/jobs?limit=1')).body.next_cursor ?? Buffer.from(JSON.stringify({ k: 'j', id: randomUUID() })).toString('base64url');
    for (const q of [`cursor=${foreignCursor}`, 'cursor=abc', `cursor=${Buffer.from('{"k":"r","id":1}').toString('base64url')}`, 'cursor=%00', 'limit=0', 'limit=101', 'limit=x']) {
      const res = await api(key, 'GET', `/v1/jobs?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.code, q).toBe('BAD_INPUT');
    }
    expect((await api(null, 'GET', '/v1/jobs')).status).toBe(401);
  });
});

describe('GET /v1/jobs/{id}/results', () => {
  it('filters by result and reason, answers CSV (format or Accept) with formulas neutralised, 404s other tenants', { timeout: 60_000 }, async () => {
    const { key } = await customer();
    const other = await customer();
    const emails = emailsOf(0, 0, 10); // u4 and u9 do not exist
    const jobId = await finishedJob(key, emails);
    const all = await api(key, 'GET', `/v1/jobs/${jobId}/results`);
    expect(all.status).toBe(200);
    expect(all.body.results).toHaveLength(10);
    const invalid = await api(key, 'GET', `/v1/jobs/${jobId}/results?result=invalid`);
    expect(invalid.body.results.map((r: { email: string }) => r.email).sort()).toEqual(['u4@d0.v1jobs.test', 'u9@d0.v1jobs.test']);
    const byReason = await api(key, 'GET', `/v1/jobs/${jobId}/results?reason=accepted`);
    expect(byReason.body.results).toHaveLength(8);
    expect(byReason.body.results.every((r: { reason: string }) => r.reason === 'accepted')).toBe(true);
    expect((await api(key, 'GET', `/v1/jobs/${jobId}/results?result=valid,invalid&reason=mailbox_not_found`)).body.results).toHaveLength(2);

    const csv = await api(key, 'GET', `/v1/jobs/${jobId}/results?format=csv&result=invalid`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toContain(jobId);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('email,result,reason,deliverability_score,syntax_valid,mx_valid,smtp_valid,disposable_provider,role_detected,charged');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(',')).sort()).toEqual(['u4@d0.v1jobs.test,invalid,mailbox_not_found', 'u9@d0.v1jobs.test,invalid,mailbox_not_found']);
    const viaAccept = await api(key, 'GET', `/v1/jobs/${jobId}/results?result=invalid`, undefined, { accept: 'text/csv' });
    expect(viaAccept.text).toBe(csv.text);
    // CSV pages too: X-Next-Cursor carries the next page.
    const page1 = await api(key, 'GET', `/v1/jobs/${jobId}/results?format=csv&limit=4`);
    expect(page1.text.trim().split('\r\n')).toHaveLength(5);
    expect(page1.headers.get('x-next-cursor')).toMatch(/^[A-Za-z0-9_-]+$/);

    // Bad filters, another tenant, a malformed id.
    for (const q of ['result=maybe', 'reason=nope', 'format=xml', 'cursor=abc', 'limit=0']) expect((await api(key, 'GET', `/v1/jobs/${jobId}/results?${q}`)).status, q).toBe(400);
    expect((await api(other.key, 'GET', `/v1/jobs/${jobId}/results`)).status).toBe(404);
    expect((await api(other.key, 'GET', `/v1/jobs/${jobId}/results?format=csv`)).status).toBe(404);
    expect((await api(key, 'GET', `/v1/jobs/${randomUUID()}/results`)).status).toBe(404);
  });

  it('escapes spreadsheet formulas in CSV cells', { timeout: 60_000 }, async () => {
    const { key } = await customer();
    const jobId = await finishedJob(key, ['=cmd|calc@d0.v1jobs.test', '+1@d0.v1jobs.test', '@x@d0.v1jobs.test']);
    const csv = await api(key, 'GET', `/v1/jobs/${jobId}/results?format=csv`);
    const cells = csv.text.trim().split('\r\n').slice(1).map((l) => l.split(',')[0]);
    expect(cells.sort()).toEqual(["'+1@d0.v1jobs.test", "'=cmd|calc@d0.v1jobs.test", "'@x@d0.v1jobs.test"].sort());
  });
});

describe('POST /v1/jobs/{id}/cancel', () => {
  it('stops a running job: results done so far stay, nothing more is probed or charged, exact balance, idempotent', { timeout: 120_000 }, async () => {
    const { key, accountId, c } = await customer('enterprise', 10_000);
    const emails = [...emailsOf(0, 0, 600), ...emailsOf(1, 0, 600), ...emailsOf(2, 0, 600), ...emailsOf(3, 0, 600)];
    const start = await api(key, 'POST', '/v1/bulk', { emails });
    expect(start.status).toBe(200);
    const jobId = start.body.job_id as string;
    // Partial results while it runs, in a stable order that the cursor continues.
    await waitForJob(ts.testDb.db, jobId, { timeoutMs: 60_000, until: (j) => j.processed_emails >= 5 });
    const partial = await api(key, 'GET', `/v1/jobs/${jobId}/results?limit=3`);
    const cancel = await api(key, 'POST', `/v1/jobs/${jobId}/cancel`);
    expect(partial.status).toBe(200);
    expect(partial.body.status).toBe('processing');
    expect(partial.body.results).toHaveLength(3);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.job).toMatchObject({ job_id: jobId, status: 'cancelled', total_emails: 2400 });
    const kept = cancel.body.processed_emails as number;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(2400);
    expect(cancel.body.unprocessed_emails).toBe(2400 - kept);
    expect(cancel.body.credits_not_charged).toBe(2400 - kept);
    const charged = cancel.body.credits_charged as number;
    expect(await credits(ts.testDb.db, accountId)).toBe(10_000 - charged);

    // The cursor continues the partial page in the same stable order.
    const rest = await api(key, 'GET', `/v1/jobs/${jobId}/results?cursor=${partial.body.next_cursor}&limit=2`);
    const firstFive = (await api(key, 'GET', `/v1/jobs/${jobId}/results?limit=5`)).body.results.map((r: { email: string }) => r.email);
    expect([...partial.body.results, ...rest.body.results].map((r: { email: string }) => r.email)).toEqual(firstFive);

    // The workers stop: once the sessions open at the cancel are gone, no new SMTP connection is
    // opened and nothing more is stored or charged.
    await new Promise((r) => setTimeout(r, 1_000));
    const connections = pw.world.counters.connections;
    await new Promise((r) => setTimeout(r, 3_000));
    expect(pw.world.counters.connections).toBe(connections);
    expect(await resultStats(ts.testDb.db, jobId)).toEqual({ rows: kept, unique: kept });
    expect(await credits(ts.testDb.db, accountId)).toBe(10_000 - charged);
    const chunksLeft = await ts.testDb.db.selectFrom('graphile_worker.jobs' as never).select('key' as never).where('key' as never, 'like' as never, `%${jobId}%` as never).execute();
    expect(chunksLeft).toEqual([]);

    const other = await customer();
    expect((await api(other.key, 'POST', `/v1/jobs/${jobId}/cancel`)).status).toBe(404);

    // Again: the same answer, no second anything.
    const again = await api(key, 'POST', `/v1/jobs/${jobId}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(cancel.body);
    expect(await credits(ts.testDb.db, accountId)).toBe(10_000 - charged);

    // Cancelled everywhere: status, results (kept), the dashboard, the download.
    expect((await api(key, 'GET', `/v1/jobs/${jobId}`)).body.status).toBe('cancelled');
    expect((await api(key, 'GET', `/v1/jobs/${jobId}/results`)).body.results).toHaveLength(kept);
    expect((await api(key, 'GET', '/v1/jobs?limit=1')).body.jobs[0]).toMatchObject({ job_id: jobId, status: 'cancelled' });
    expect((await c.trpcQuery('jobs.byId', { jobId })).body.result.data.status).toBe('cancelled');
    const download = await c.request(`/api/jobs/${jobId}/export`);
    expect(download.status).toBe(200);
    expect((await download.text()).trim().split('\r\n')).toHaveLength(kept + 1);
    const audit = await ts.testDb.db.selectFrom('audit_log').select(['action', 'actor']).where('target_id', '=', jobId).where('action', '=', 'job.cancelled').execute();
    expect(audit).toEqual([{ action: 'job.cancelled', actor: 'api_key' }]);
  });

  it('answers 409 for a finished job and changes nothing', { timeout: 60_000 }, async () => {
    const { key, accountId } = await customer('enterprise', 100);
    const jobId = await finishedJob(key, emailsOf(3, 0, 3));
    const balance = await credits(ts.testDb.db, accountId);
    const res = await api(key, 'POST', `/v1/jobs/${jobId}/cancel`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', detail: 'This job has already completed; there is nothing to cancel.' });
    expect((await api(key, 'GET', `/v1/jobs/${jobId}`)).body.status).toBe('completed');
    expect(await credits(ts.testDb.db, accountId)).toBe(balance);
    expect((await api(key, 'POST', `/v1/jobs/not-a-job/cancel`)).status).toBe(404);
    expect((await api(key, 'POST', `/v1/jobs/${jobId}/cancel`, 'x', { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('the dashboard cancels too (jobs.cancel), for members of the account only', { timeout: 60_000 }, async () => {
    const { key, c, accountId } = await customer('enterprise', 1_000);
    const other = await customer();
    const jobId = (await api(key, 'POST', '/v1/bulk', { emails: emailsOf(2, 0, 60) })).body.job_id as string;
    expect((await other.c.trpcMutation('jobs.cancel', { jobId })).status).toBe(404);
    const res = await c.trpcMutation('jobs.cancel', { jobId });
    expect(res.status).toBe(200);
    expect(res.body.result.data.status).toBe('cancelled');
    const audit = await ts.testDb.db.selectFrom('audit_log').select(['actor']).where('target_id', '=', jobId).where('action', '=', 'job.cancelled').execute();
    expect(audit).toEqual([{ actor: 'user' }]);
    const job = await ts.testDb.db.selectFrom('validation_job').select(['status', 'processed_emails']).where('id', '=', jobId).executeTakeFirstOrThrow();
    const charged = await ts.testDb.db.selectFrom('validation_result').select((eb) => eb.fn.countAll<string>().as('n')).where('job_id', '=', jobId).where('charged', '=', true).executeTakeFirstOrThrow();
    expect(await credits(ts.testDb.db, accountId)).toBe(1_000 - Number(charged.n));
    expect(job.status).toBe('cancelled');
  });
});

describe('POST /v1/estimate', () => {
  it('checks syntax and DNS/MX only, for free, and predicts a bounce rate with the documented model', { timeout: 60_000 }, async () => {
    const { key, accountId } = await customer('enterprise', 50);
    const connectionsBefore = pw.world.counters.connections;
    const res = await api(key, 'POST', '/v1/estimate', { emails: ['u0@d0.v1jobs.test', 'u4@d0.v1jobs.test', 'nobody@missing-domain.v1jobs.test', 'not an address', 'u0@d0.v1jobs.test'] });
    expect(res.status).toBe(200);
    expect(res.body.checked).toBe(4);
    const byEmail = Object.fromEntries(res.body.results.map((r: { email: string; outcome: string; reason: string }) => [r.email, `${r.outcome}/${r.reason}`]));
    // u4 does not exist, but that needs SMTP: the estimate only sees a domain with mail servers.
    expect(byEmail['u0@d0.v1jobs.test']).toBe('deliverable_domain/smtp_not_checked');
    expect(byEmail['u4@d0.v1jobs.test']).toBe('deliverable_domain/smtp_not_checked');
    expect(byEmail['nobody@missing-domain.v1jobs.test']).toMatch(/^undeliverable\/no_domain$|^undecided\/dns_error$/);
    expect(byEmail['not an address']).toBe('undeliverable/syntax');
    // (undeliverable + 0.03 × deliverable) / decided
    const bad = res.body.undeliverable as number;
    const good = res.body.deliverable_domains as number;
    expect(res.body.predicted_bounce_rate).toBeCloseTo((bad + 0.03 * good) / (bad + good), 4);
    expect(await credits(ts.testDb.db, accountId)).toBe(50);
    expect(await ts.testDb.db.selectFrom('validation_result').select('id').where('account_id', '=', accountId).execute()).toEqual([]);
    // Never probed: no SMTP connection was opened for the estimate.
    expect(pw.world.counters.connections).toBe(connectionsBefore);
  });

  it('refuses more than 100 addresses, empty lists and wrong bodies', async () => {
    const { key } = await customer();
    const over = await api(key, 'POST', '/v1/estimate', { emails: Array.from({ length: 101 }, (_, i) => `a${i}@d0.v1jobs.test`) });
    expect(over.status).toBe(400);
    expect(over.body.detail).toContain('at most 100 addresses');
    expect((await api(key, 'POST', '/v1/estimate', { emails: [] })).status).toBe(400);
    expect((await api(key, 'POST', '/v1/estimate', { emails: 'a@b.io' })).status).toBe(400);
    expect((await api(key, 'POST', '/v1/estimate', 'emails=a@b.io', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await api(null, 'POST', '/v1/estimate', { emails: ['a@b.io'] })).status).toBe(401);
  });
});
