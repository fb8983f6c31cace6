// A bulk job is accepted only when the balance covers its addresses, and is charged per stored
// result. The check looked at the balance alone, not at what the account's unfinished jobs still
// have to charge: with 1,000 credits, two uploads of 600 were both accepted, ran side by side and
// both failed "Ran out of credits" part-way, and a schedule's run was started over a balance already
// promised. The addresses unfinished charged jobs have still to validate are held.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJob } from '../../server/features/jobs/jobs.service';
import { cancelJob } from '../../server/features/jobs/job-cancel';
import { runSchedule } from '../../server/features/schedules/schedules.service';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
});

const list = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);

describe("credits held by an account's unfinished jobs", () => {
  it('refuses a job the balance cannot cover on top of the addresses its running jobs have still to validate', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 1000 });
    const job = (emails: string[], o: { chargeCredits?: boolean } = {}) => createJob(tdb.db, { accountId, userId, filename: 'list.csv', emails, source: 'upload', depth: 'smtp', ...o });
    const first = await job(list('a', 600));
    // 150 of its addresses done: 450 still to charge.
    await tdb.db.updateTable('validation_job').set({ status: 'processing', processed_emails: 150 }).where('id', '=', first.jobId).execute();
    await tdb.db.updateTable('account').set({ credits_balance: 850 }).where('id', '=', accountId).execute();

    await expect(job(list('b', 401))).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      message: 'Not enough credits: this list needs 401 credits (one per unique address) and your balance is 850, of which 450 are held for the addresses your unfinished jobs have still to validate.',
      details: { needed: 401, balance: 850, held: 450 },
    });
    expect(await tdb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute()).toHaveLength(1);
    // A job that takes no credits holds none and needs none.
    await job(list('c', 900), { chargeCredits: false });
    const second = await job(list('d', 400));
    await expect(job(list('e', 1))).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });

    // A cancelled job holds nothing: its unchecked addresses are never charged.
    await cancelJob(tdb.db, { accountId, jobId: first.jobId, userId, actor: 'user' });
    await cancelJob(tdb.db, { accountId, jobId: second.jobId, userId, actor: 'user' });
    await job(list('f', 850));
  });

  it("a schedule's run the held balance cannot cover fails with the reason, as one the balance cannot cover", async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    await createJob(tdb.db, { accountId, userId, filename: 'big.csv', emails: list('g', 800), source: 'upload', depth: 'smtp' });
    const { id } = await tdb.db
      .insertInto('schedule')
      .values({ account_id: accountId, created_by: userId, name: 'Customers', description: null, email_list: list('h', 300), frequency: 'weekly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const run = await runSchedule(tdb.db, id, new Date('2027-04-01T09:00:00Z'));
    expect(run.status).toBe('failed');
    const job = await tdb.db.selectFrom('validation_job').select(['status', 'error']).where('id', '=', run.jobId!).executeTakeFirstOrThrow();
    expect(job).toEqual({
      status: 'failed',
      error: 'Not enough credits: this list needs 300 credits (one per unique address) and your balance is 1,000, of which 800 are held for the addresses your unfinished jobs have still to validate.',
    });
  });
});
