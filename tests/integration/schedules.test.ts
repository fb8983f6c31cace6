import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SCHEDULES_PER_ACCOUNT, SCHEDULE_MESSAGES } from '../../server/contracts/schedules';
import { startWorker, type WorkerHandle } from '../../server/worker/runner';
import { tickSchedules } from '../../server/worker/tasks/schedule-tick';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { plainDomains, signUpOnPlan, startProbeWorld, waitForJob, type ProbeWorld } from './jobs.world';

let pw: ProbeWorld;
let ts: TestServer;
let worker: WorkerHandle;
beforeAll(async () => {
  pw = await startProbeWorld(plainDomains(3, 10, 'sched'));
  // Web only, plus a worker without the wall-clock cron: the test drives schedule-tick with a fake clock.
  ts = await startTestServer({ role: 'web', probeUrls: [pw.url], probeToken: pw.token });
  worker = await startWorker(ts.server.deps, { cron: false, pollInterval: 200 });
});
afterAll(async () => {
  await worker?.stop();
  await ts?.stop();
  await pw?.stop();
});

const data = (r: { body: any }) => r.body.result?.data;
const message = (r: { body: any }) => r.body.error?.message as string;

describe('auto revalidation schedules', () => {
  it("validates the New Schedule dialog's input with the spec's messages", async () => {
    const { client } = await signUpOnPlan(ts, 'sched-msg@example.com', 'pro');
    expect(message(await client.trpcMutation('schedules.create', { name: '  ', emails: ['a@x.io'] }))).toMatch('Please enter a schedule name');
    expect(message(await client.trpcMutation('schedules.create', { name: 'List', emails: [] }))).toMatch('Please enter email addresses or upload a CSV file');
    expect(message(await client.trpcMutation('schedules.create', { name: 'List', emails: ['  ', ''] }))).toMatch('No valid email addresses found');
    // Its name is its runs' file name in History: a bidirectional control (U+202E) or a line break would draw another name there for the whole team.
    expect(message(await client.trpcMutation('schedules.create', { name: 'invoices\u202Evsc.exe', emails: ['a@x.io'] }))).toBe('The schedule name cannot contain control characters (such as a line break) or text-direction characters.');
    expect(message(await client.trpcMutation('schedules.create', { name: 'Weekly\nlist', emails: ['a@x.io'] }))).toBe('The schedule name cannot contain control characters (such as a line break) or text-direction characters.');
    const csv = (content: string, filename = 'list.csv') => client.trpcMutation('schedules.parseCsv', { filename, content });
    expect(message(await csv(''))).toBe('CSV file is empty');
    expect(message(await csv('name\nbob\n'))).toBe("CSV must contain an 'email' column");
    expect(message(await csv('email\na@x.io\n', 'list.txt'))).toBe('Please upload a CSV file');
    expect(data(await csv('Email\na@x.io\nb@x.io\na@x.io\n'))).toEqual({ emails: ['a@x.io', 'b@x.io'], count: 2, message: 'Found 2 email addresses' });
    // The file's bytes, read as Bulk Upload reads them (UTF-16 with a BOM, Windows-1252).
    const bytes = (b: Buffer, filename = 'list.csv') => client.trpcMutation('schedules.parseCsv', { filename, contentBase64: b.toString('base64') });
    expect(data(await bytes(Buffer.from('\uFEFFName\tEmail\r\nZoë\tzoe@x.io\r\n', 'utf16le')))).toEqual({ emails: ['zoe@x.io'], count: 1, message: 'Found 1 email addresses' });
    expect(data(await bytes(Buffer.from('Nom;Courriel\r\nJos\xe9;jos\xe9@x.io\r\n', 'latin1')))).toEqual({ emails: ['jos\u00e9@x.io'], count: 1, message: 'Found 1 email addresses' });
    expect(message(await bytes(Buffer.alloc(0)))).toBe('CSV file is empty');
    expect(message(await bytes(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 8, 0])))).toMatch('not a readable CSV');
  });

  it('is for Pro and above: Starter gets PLAN_REQUIRED', async () => {
    const { client } = await signUpOnPlan(ts, 'sched-starter@example.com', 'starter');
    const r = await client.trpcMutation('schedules.create', { name: 'List', emails: ['a@x.io'] });
    expect(r.status).toBe(403);
    expect(r.body.error.data.appCode).toBe('PLAN_REQUIRED');
    expect(data(await client.trpcQuery('schedules.list'))).toEqual([]);
  });

  it('holds an account to at most MAX_SCHEDULES_PER_ACCOUNT schedules (like API keys), also when they are created at the same moment', async () => {
    const { client, accountId, userId } = await signUpOnPlan(ts, 'sched-cap@example.com', 'pro');
    // One short of the cap, written straight in (100 saved lists of the account).
    await ts.testDb.db
      .insertInto('schedule')
      .values(Array.from({ length: MAX_SCHEDULES_PER_ACCOUNT - 1 }, (_, i) => ({ account_id: accountId, created_by: userId, name: `List ${i}`, email_list: [`a${i}@x.io`], frequency: 'weekly' as const, is_active: false })))
      .execute();
    // Two at once for the last place: one is saved, the other refused with what to do.
    const both = await Promise.all([0, 1].map((i) => client.trpcMutation('schedules.create', { name: `Last ${i}`, emails: ['z@x.io'] })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(message(both.find((r) => r.status === 409)!)).toBe(SCHEDULE_MESSAGES.tooMany(MAX_SCHEDULES_PER_ACCOUNT));
    const count = await ts.testDb.db.selectFrom('schedule').select((eb) => eb.fn.countAll<string>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(MAX_SCHEDULES_PER_ACCOUNT);
    // Deleting one makes room again.
    const oldest = await ts.testDb.db.selectFrom('schedule').select('id').where('account_id', '=', accountId).orderBy('created_at').limit(1).executeTakeFirstOrThrow();
    expect((await client.trpcMutation('schedules.delete', { scheduleId: oldest.id })).status).toBe(200);
    expect((await client.trpcMutation('schedules.create', { name: 'Again', emails: ['z@x.io'] })).status).toBe(200);
    // Out of the way of the cron tests below, which count the schedules due.
    await ts.testDb.db.deleteFrom('schedule').where('account_id', '=', accountId).execute();
  });

  it('lets an account that dropped below Pro pause a schedule, but not switch it back on', async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'sched-downgraded@example.com', 'pro');
    const created = data(await client.trpcMutation('schedules.create', { name: 'Old list', emails: ['a@x.io'] }));
    expect(data(await client.trpcQuery('schedules.list'))[0].next_run_at).not.toBeNull();
    await ts.testDb.db.updateTable('account').set({ plan: 'starter' }).where('id', '=', accountId).execute();
    // Still active, but the cron runs no schedule on Starter: no "next run" is promised.
    expect(data(await client.trpcQuery('schedules.list'))[0]).toMatchObject({ is_active: true, next_run_at: null });
    expect(data(await client.trpcMutation('schedules.setActive', { scheduleId: created.id, isActive: false }))).toMatchObject({ is_active: false });
    const on = await client.trpcMutation('schedules.setActive', { scheduleId: created.id, isActive: true });
    expect(on.status).toBe(403);
    expect(on.body.error.data.appCode).toBe('PLAN_REQUIRED');
  });

  it('runs due schedules from the worker cron as History jobs, weekly from the last run, never when inactive, and reports what turned invalid', async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'sched-run@example.com', 'pro');
    const emails = pw.world.emails.slice(0, 10);
    const created = data(await client.trpcMutation('schedules.create', { name: 'Newsletter', description: 'weekly clean', emails: [...emails, ` ${emails[0]} `] }));
    expect(created.email_count).toBe(10);
    const off = data(await client.trpcMutation('schedules.create', { name: 'Paused', emails: [emails[1]], frequency: 'daily' }));
    expect(data(await client.trpcMutation('schedules.setActive', { scheduleId: off.id, isActive: false }))).toMatchObject({ is_active: false });

    let list = data(await client.trpcQuery('schedules.list'));
    expect(list.map((s: any) => s.name)).toEqual(['Paused', 'Newsletter']);
    expect(list[1]).toMatchObject({ name: 'Newsletter', description: 'weekly clean', frequency: 'weekly', is_active: true, email_count: 10, total_runs: 0, last_run_at: null });

    const t0 = new Date('2027-03-01T09:00:00Z');
    expect(await tickSchedules(ts.server.deps, t0)).toBe(1);
    await expect.poll(async () => data(await client.trpcQuery('schedules.list'))[1].total_runs, { timeout: 10_000 }).toBe(1);
    list = data(await client.trpcQuery('schedules.list'));
    expect(list[1].last_run_at).toBe(t0.toISOString());
    expect(list[0]).toMatchObject({ total_runs: 0, last_run_at: null });
    const run1 = list[1].last_job.id as string;
    await waitForJob(ts.testDb.db, run1);
    const { jobs } = data(await client.trpcQuery('jobs.list'));
    expect(jobs[0]).toMatchObject({ id: run1, source: 'schedule', status: 'completed', total_emails: 10 });

    // Not due again within the week; due a week later.
    expect(await tickSchedules(ts.server.deps, new Date('2027-03-07T09:00:00Z'))).toBe(0);
    // Pretend an address that is invalid today was valid at the first run.
    const ghost = emails.find((e) => pw.world.truth.get(e)?.verdict === 'undeliverable')!;
    await ts.testDb.db.updateTable('validation_result').set({ result: 'valid' }).where('job_id', '=', run1).where('email', '=', ghost).execute();
    expect(await tickSchedules(ts.server.deps, new Date('2027-03-08T09:00:00Z'))).toBe(1);
    await expect.poll(async () => data(await client.trpcQuery('schedules.list'))[1].total_runs, { timeout: 10_000 }).toBe(2);
    const run2 = data(await client.trpcQuery('schedules.list'))[1].last_job.id as string;
    expect(run2).not.toBe(run1);
    await waitForJob(ts.testDb.db, run2);

    const changes = data(await client.trpcQuery('schedules.changes', { scheduleId: created.id }));
    expect(changes.lastRun.jobId).toBe(run2);
    expect(changes.previousRun.jobId).toBe(run1);
    expect(changes.newlyInvalid).toEqual([{ email: ghost, previous: 'valid', reason: 'mailbox_not_found' }]);

    const paused = await ts.testDb.db.selectFrom('validation_job').select('id').where('schedule_id', '=', off.id).execute();
    expect(paused).toEqual([]);
    const runs = await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).where('source', '=', 'schedule').execute();
    expect(runs).toHaveLength(2);
  });

  it('reports what changed between the last two completed runs, not against a run that failed or is still running', async () => {
    const { client, accountId, userId } = await signUpOnPlan(ts, 'sched-changes-failed@example.com', 'pro');
    const db = ts.testDb.db;
    const schedule = await db
      .insertInto('schedule')
      .values({ account_id: accountId, created_by: userId, name: 'Customers', email_list: ['a@x.test', 'b@x.test'], frequency: 'weekly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const DAY = 86_400_000;
    const run = async (daysAgo: number, status: 'completed' | 'failed' | 'processing', results: Array<[string, 'valid' | 'invalid']>) => {
      const job = await db
        .insertInto('validation_job')
        .values({ account_id: accountId, created_by: userId, filename: 'Customers (scheduled weekly run)', source: 'schedule', schedule_id: schedule.id, status, total_emails: 2, processed_emails: results.length, created_at: new Date(Date.now() - daysAgo * DAY), error: status === 'failed' ? 'Not enough credits' : null, webhook_url: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (results.length > 0) {
        await db
          .insertInto('validation_result')
          .values(results.map(([email, r]) => ({ account_id: accountId, job_id: job.id, email, result: r, verdict: r === 'valid' ? 'deliverable' : 'undeliverable', reason: r === 'valid' ? 'accepted' : 'mailbox_not_found', is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: r === 'valid', deliverability_score: r === 'valid' ? 90 : 10, role_detected: false, disposable_provider: false })) as never)
          .execute();
      }
      return job.id;
    };
    const first = await run(21, 'completed', [['a@x.test', 'valid'], ['b@x.test', 'valid']]);
    const second = await run(14, 'completed', [['a@x.test', 'valid'], ['b@x.test', 'invalid']]);
    await run(7, 'failed', []); // too few credits that week
    const expected = { lastRun: { jobId: second, status: 'completed' }, previousRun: { jobId: first, status: 'completed' }, newlyInvalid: [{ email: 'b@x.test', previous: 'valid', reason: 'mailbox_not_found' }], recovered: [] };
    expect(data(await client.trpcQuery('schedules.changes', { scheduleId: schedule.id }))).toMatchObject(expected);
    // This week's run has only just started: still the last two completed runs.
    await run(0, 'processing', [['a@x.test', 'valid']]);
    expect(data(await client.trpcQuery('schedules.changes', { scheduleId: schedule.id }))).toMatchObject(expected);
  });

  it("deletes and toggles only the caller's own schedules", async () => {
    const a = await signUpOnPlan(ts, 'sched-a@example.com', 'pro');
    const b = await signUpOnPlan(ts, 'sched-b@example.com', 'pro');
    const s = data(await a.client.trpcMutation('schedules.create', { name: 'Mine', emails: ['x@y.io'] }));
    expect((await b.client.trpcMutation('schedules.setActive', { scheduleId: s.id, isActive: false })).status).toBe(404);
    expect((await b.client.trpcMutation('schedules.delete', { scheduleId: s.id })).status).toBe(404);
    expect((await b.client.trpcQuery('schedules.changes', { scheduleId: s.id })).status).toBe(404);
    expect((await a.client.trpcMutation('schedules.delete', { scheduleId: s.id })).status).toBe(200);
    expect(data(await a.client.trpcQuery('schedules.list'))).toEqual([]);
    const audit = await ts.testDb.db.selectFrom('audit_log').select('action').where('target_id', '=', s.id).orderBy('id').execute();
    expect(audit.map((x) => x.action)).toEqual(['schedule.created', 'schedule.deleted']);
  });
});
