// A bulk job and real-time checks racing for the last credits: the job was accepted with enough
// credits for its list, then checks took some. The batch that no longer fits must still keep the
// results the balance pays for (in list order), charge exactly those, and then fail the job saying
// it ran out; it threw the whole batch away before (addresses checked, paid credits left unused,
// nothing to show for them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxResult } from '../../server/features/api-keys/sandbox';
import { storeBatch } from '../../server/features/jobs/bulk-pipeline';
import { createJob } from '../../server/features/jobs/jobs.service';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
});

describe('a bulk batch larger than the credits left', () => {
  it('keeps and charges the results the balance covers, then stops', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'pro', credits: 5 });
    // Decided by syntax alone: each costs a credit.
    const emails = ['one', 'two', 'three', 'four', 'five'].map((w) => `${w}-at-nowhere`);
    const { jobId } = await createJob(tdb.db, { accountId, userId, filename: 'race.csv', emails, source: 'upload', depth: 'smtp' });
    // Real-time checks took two of the five meanwhile.
    await tdb.db.updateTable('account').set({ credits_balance: 3 }).where('id', '=', accountId).execute();

    const job = { id: jobId, account_id: accountId, created_by: userId, depth: 'smtp' as const, charge_credits: true };
    await expect(storeBatch(tdb.db, job, emails.map(sandboxResult))).rejects.toThrow(/Ran out of credits/);

    const stored = await tdb.db.selectFrom('validation_result').select(['email', 'charged']).where('job_id', '=', jobId).orderBy('id').execute();
    expect(stored).toEqual(emails.slice(0, 3).map((email) => ({ email, charged: true })));
    const account = await tdb.db.selectFrom('account').select(['credits_balance']).where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(account.credits_balance).toBe(0);
    const counts = await tdb.db.selectFrom('validation_job').select(['processed_emails', 'invalid_count']).where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(counts).toEqual({ processed_emails: 3, invalid_count: 3 });

    // A retry of the same batch (another worker, a graphile retry) adds nothing and charges nothing.
    await expect(storeBatch(tdb.db, job, emails.map(sandboxResult))).rejects.toThrow(/Ran out of credits/);
    expect(await tdb.db.selectFrom('validation_result').select('email').where('job_id', '=', jobId).execute()).toHaveLength(3);
  });
});
