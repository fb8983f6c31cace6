// Deleting a schedule while its run is being validated: the run is the schedule's, and whoever
// deletes the schedule no longer wants its list checked. Before, the run went on to the end and
// charged the account a credit for every address (its schedule_id merely set to null); now it is
// cancelled with the delete, as History's Cancel does: the results already stored stay (and what
// they cost), nothing more is checked or charged, and its queued chunks leave the queue.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteSchedule, runSchedule } from '../../server/features/schedules/schedules.service';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
});

describe('deleting a schedule whose run is in progress', () => {
  it('cancels the run: nothing more is checked or charged, its queued chunks are gone, and History shows it cancelled', async () => {
    const pro = await seedAccount(tdb.db, { plan: 'pro', credits: 5000 });
    const emails = Array.from({ length: 1200 }, (_, i) => `person${i}@example.com`);
    const { id } = await tdb.db
      .insertInto('schedule')
      .values({ account_id: pro.accountId, created_by: pro.userId, name: 'Customers', description: null, email_list: emails, frequency: 'weekly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const run = await runSchedule(tdb.db, id, new Date('2027-03-01T09:00:00Z'));
    expect(run.status).toBe('created');
    const queued = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from graphile_worker.jobs where key like ${`%:${run.jobId}:%`}`.execute(tdb.db)).rows[0]!.n);
    expect(await queued()).toBeGreaterThan(0);

    await deleteSchedule(tdb.db, { accountId: pro.accountId, userId: pro.userId }, id);

    const job = await tdb.db.selectFrom('validation_job').select(['status', 'schedule_id', 'cancelled_at']).where('id', '=', run.jobId!).executeTakeFirstOrThrow();
    expect(job.status).toBe('cancelled');
    expect(job.cancelled_at).not.toBeNull();
    expect(await queued()).toBe(0);
    const account = await tdb.db.selectFrom('account').select('credits_balance').where('id', '=', pro.accountId).executeTakeFirstOrThrow();
    expect(account.credits_balance).toBe(5000);
    const audit = await tdb.db.selectFrom('audit_log').select(['action', 'data']).where('account_id', '=', pro.accountId).where('target_id', '=', run.jobId!).where('action', '=', 'job.cancelled').execute();
    expect(audit).toEqual([{ action: 'job.cancelled', data: expect.objectContaining({ reason: 'schedule_deleted' }) }]);
  });

  it('leaves a finished run as it was', async () => {
    const pro = await seedAccount(tdb.db, { plan: 'pro', credits: 100 });
    const { id } = await tdb.db
      .insertInto('schedule')
      .values({ account_id: pro.accountId, created_by: pro.userId, name: 'Done', description: null, email_list: ['a@example.com'], frequency: 'weekly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const run = await runSchedule(tdb.db, id, new Date('2027-03-01T09:00:00Z'));
    await tdb.db.updateTable('validation_job').set({ status: 'completed', completed_at: new Date() }).where('id', '=', run.jobId!).execute();
    await deleteSchedule(tdb.db, { accountId: pro.accountId, userId: pro.userId }, id);
    const job = await tdb.db.selectFrom('validation_job').select('status').where('id', '=', run.jobId!).executeTakeFirstOrThrow();
    expect(job.status).toBe('completed');
  });
});
