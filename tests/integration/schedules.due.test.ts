// Which schedules the every-minute tick finds due (dueScheduleIds), against the run's own rule
// (runSchedule → nextRunAt):
//  - schedules the tick can never run (their account dropped below Pro) must not fill its batch and
//    starve the schedules of paying accounts;
//  - the due time is the same UTC calendar in SQL and in the run, whatever time zone the database
//    server runs in (DATABASE_URL may point at one in a zone with daylight saving time).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { dueScheduleIds, nextRunAt, runSchedule } from '../../server/features/schedules/schedules.service';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
});

async function insertSchedule(accountId: string, userId: string, o: { frequency: 'daily' | 'weekly' | 'monthly'; lastRunAt: Date | null; name?: string }): Promise<string> {
  const row = await tdb.db
    .insertInto('schedule')
    .values({ account_id: accountId, created_by: userId, name: o.name ?? 'List', description: null, email_list: ['a@example.com'], frequency: o.frequency })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (o.lastRunAt) await tdb.db.updateTable('schedule').set({ last_run_at: o.lastRunAt, total_runs: 1 }).where('id', '=', row.id).execute();
  return row.id;
}

describe('the schedule tick', () => {
  it("still finds a Pro account's due schedule behind 600 active schedules of accounts that dropped below Pro", async () => {
    const downgraded = await seedAccount(tdb.db, { plan: 'starter', credits: 1000 });
    // Never run (they were created on Pro, then the plan fell): the oldest "due" rows of all.
    await tdb.db
      .insertInto('schedule')
      .values(Array.from({ length: 600 }, (_, i) => ({ account_id: downgraded.accountId, created_by: downgraded.userId, name: `Old ${i}`, description: null, email_list: ['a@example.com'], frequency: 'daily' as const })))
      .execute();
    const pro = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const due = await insertSchedule(pro.accountId, pro.userId, { frequency: 'daily', lastRunAt: new Date('2027-05-01T09:00:00Z') });
    const now = new Date('2027-05-02T09:00:00Z');
    try {
      expect(await dueScheduleIds(tdb.db, now)).toEqual([due]);
      expect((await runSchedule(tdb.db, due, now)).status).toBe('created');
    } finally {
      await tdb.db.deleteFrom('schedule').where('account_id', 'in', [downgraded.accountId, pro.accountId]).execute();
    }
  });
});

describe('due times on a database server in a time zone with daylight saving time', () => {
  /** dueScheduleIds on one connection whose session time zone is Europe/Berlin. */
  const dueInBerlin = (now: Date) =>
    tdb.db.connection().execute(async (conn) => {
      await sql`set time zone 'Europe/Berlin'`.execute(conn);
      try {
        return await dueScheduleIds(conn as Db, now);
      } finally {
        await sql`set time zone 'UTC'`.execute(conn);
      }
    });

  it('a daily schedule is due 24 hours after its last run across the spring-forward night, as the run itself decides', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    // Berlin moves its clocks from 02:00 to 03:00 on 2027-03-28: that local day has 23 hours.
    const last = new Date('2027-03-27T09:00:00Z');
    const id = await insertSchedule(accountId, userId, { frequency: 'daily', lastRunAt: last });
    try {
      const early = new Date('2027-03-28T08:30:00Z');
      expect(nextRunAt({ frequency: 'daily', last_run_at: last, is_active: true })?.toISOString()).toBe('2027-03-28T09:00:00.000Z');
      expect(await dueInBerlin(early)).not.toContain(id); // the run would skip it: queued once a minute for nothing
      expect(await dueInBerlin(new Date('2027-03-28T09:00:00Z'))).toContain(id);
    } finally {
      await tdb.db.deleteFrom('schedule').where('id', '=', id).execute();
    }
  });

  it('a weekly schedule is not an hour late across the fall-back night', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    // Berlin moves its clocks back from 03:00 to 02:00 on 2027-10-31: that week has 169 hours.
    const last = new Date('2027-10-25T09:00:00Z');
    const id = await insertSchedule(accountId, userId, { frequency: 'weekly', lastRunAt: last });
    try {
      const due = new Date('2027-11-01T09:00:00Z');
      expect(nextRunAt({ frequency: 'weekly', last_run_at: last, is_active: true })?.toISOString()).toBe(due.toISOString());
      expect(await dueInBerlin(due)).toContain(id);
      expect((await runSchedule(tdb.db, id, due)).status).toBe('created');
    } finally {
      await tdb.db.deleteFrom('schedule').where('id', '=', id).execute();
    }
  });

  it('a monthly schedule last run late on Jan 30 (UTC) is due on Feb 28 (UTC), not a day early', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    // 23:30 UTC on Jan 30 is already Jan 31 in Berlin, which the local calendar clamps to Feb 28 local = Feb 27 UTC.
    const last = new Date('2027-01-30T23:30:00Z');
    const id = await insertSchedule(accountId, userId, { frequency: 'monthly', lastRunAt: last });
    try {
      expect(nextRunAt({ frequency: 'monthly', last_run_at: last, is_active: true })?.toISOString()).toBe('2027-02-28T23:30:00.000Z');
      expect(await dueInBerlin(new Date('2027-02-28T00:00:00Z'))).not.toContain(id);
      expect(await dueInBerlin(new Date('2027-02-28T23:30:00Z'))).toContain(id);
    } finally {
      await tdb.db.deleteFrom('schedule').where('id', '=', id).execute();
    }
  });
});
