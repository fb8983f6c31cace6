// A monthly schedule that last ran on the 31st must run once in the following month too, and keep its
// first run's day of month after a short month (31st → Feb 28 → Mar 31, not the 28th for good).
// dueScheduleIds (SQL: last_run_at + interval '1 month' → Feb 28) and runSchedule (JS setUTCMonth:
// Jan 31 + 1 month → Mar 3) disagree, so the February run is skipped and a month is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueScheduleIds, listSchedules, nextRunAt, runSchedule } from '../../server/features/schedules/schedules.service';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
/** The run's job is validated (a month's runs never overlap: a run waits for the one before it, schedules.overlap.test.ts). */
const finish = (jobId: string | null) => tdb.db.updateTable('validation_job').set({ status: 'completed', completed_at: new Date() }).where('id', '=', jobId!).execute();
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
});

describe('monthly schedule at month end', () => {
  it('a monthly schedule last run on Jan 31 runs in February (once per period)', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const s = await tdb.db
      .insertInto('schedule')
      .values({ account_id: accountId, created_by: userId, name: 'Monthly list', description: null, email_list: ['a@example.com', 'b@example.com'], frequency: 'monthly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tdb.db.updateTable('schedule').set({ last_run_at: new Date('2027-01-31T09:00:00Z'), total_runs: 1 }).where('id', '=', s.id).execute();

    const feb28 = new Date('2027-02-28T10:00:00Z');
    // The cron tick says it is due…
    expect(await dueScheduleIds(tdb.db, feb28)).toContain(s.id);
    // …and the run it queues must create the February job.
    const r = await runSchedule(tdb.db, s.id, feb28);
    expect(r.status).toBe('created');
  });

  it('over February and the first days of March, a Jan-31 monthly schedule runs exactly once before March 3', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const s = await tdb.db
      .insertInto('schedule')
      .values({ account_id: accountId, created_by: userId, name: 'Monthly list 2', description: null, email_list: ['c@example.com'], frequency: 'monthly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tdb.db.updateTable('schedule').set({ last_run_at: new Date('2027-01-31T09:00:00Z'), total_runs: 1 }).where('id', '=', s.id).execute();
    let created = 0;
    let skippedWhileDue = 0;
    // Hourly ticks from Feb 1 to Mar 2 (bounded: 30 days × 24).
    for (let t = Date.parse('2027-02-01T00:00:00Z'); t < Date.parse('2027-03-03T00:00:00Z'); t += 3_600_000) {
      const now = new Date(t);
      if (!(await dueScheduleIds(tdb.db, now)).includes(s.id)) continue;
      const r = await runSchedule(tdb.db, s.id, now);
      if (r.status === 'created') created++;
      else skippedWhileDue++;
    }
    expect({ created, skippedWhileDue }).toEqual({ created: 1, skippedWhileDue: 0 });
  });
});

describe('monthly schedule keeps its day of month', () => {
  it('first run on Jan 31 runs Feb 28, then Mar 31, Apr 30, May 31 (not the 28th every month after)', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const s = await tdb.db
      .insertInto('schedule')
      .values({ account_id: accountId, created_by: userId, name: 'Month end list', description: null, email_list: ['d@example.com'], frequency: 'monthly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const runDays: string[] = [];
    // Ticks every 6 hours from Jan 31 to the end of May (bounded: 121 days × 4), each run a minute late.
    for (let t = Date.parse('2027-01-31T09:00:00Z'); t < Date.parse('2027-06-01T00:00:00Z'); t += 6 * 3_600_000) {
      const now = new Date(t);
      if (!(await dueScheduleIds(tdb.db, now)).includes(s.id)) continue;
      const r = await runSchedule(tdb.db, s.id, now);
      if (r.status === 'created') runDays.push(now.toISOString().slice(0, 10));
      if (r.status === 'created') await finish(r.jobId);
    }
    expect(runDays).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
    // The card's "Next run" says the same: June 30.
    const [view] = await listSchedules(tdb.db, accountId);
    expect(view?.next_run_at?.slice(0, 10)).toBe('2027-06-30');
  });

  it('a run a few seconds late across midnight does not skip the next month', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const s = await tdb.db
      .insertInto('schedule')
      .values({ account_id: accountId, created_by: userId, name: 'Late list', description: null, email_list: ['e@example.com'], frequency: 'monthly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const first = await runSchedule(tdb.db, s.id, new Date('2027-01-31T23:59:50Z'));
    expect(first.status).toBe('created');
    await finish(first.jobId);
    // Due Feb 28 23:59:50; the tick that runs it comes at Mar 1 00:00:20.
    const late = new Date('2027-03-01T00:00:20Z');
    expect(await dueScheduleIds(tdb.db, late)).toContain(s.id);
    const second = await runSchedule(tdb.db, s.id, late);
    expect(second.status).toBe('created');
    await finish(second.jobId);
    const due = await tdb.db.selectFrom('schedule').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow();
    expect(nextRunAt(due)?.toISOString()).toBe('2027-03-31T23:59:50.000Z');
    expect(await dueScheduleIds(tdb.db, new Date('2027-03-31T23:59:49Z'))).not.toContain(s.id);
    expect(await dueScheduleIds(tdb.db, new Date('2027-03-31T23:59:50Z'))).toContain(s.id);
  });
});
