// A bulk job queued before its account was suspended (a renewal left unpaid past its grace) does
// no more work once the suspension starts: its next chunk validates nothing and takes no credit, and
// the job fails with the suspension message (the results so far stay readable and exportable).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUSPENDED_MESSAGE } from '../../server/features/billing/service-state';
import { failJob, PLAN_CHANGED_MESSAGE, runChunk, storeBatch } from '../../server/features/jobs/bulk-pipeline';
import { sandboxResult } from '../../server/features/api-keys/sandbox';
import { createJob } from '../../server/features/jobs/jobs.service';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { credits, plainDomains, resultStats, signUpOnPlan, startProbeWorld, type ProbeWorld } from './jobs.world';

let pw: ProbeWorld;
let ts: TestServer;
beforeAll(async () => {
  pw = await startProbeWorld(plainDomains(2, 5, 'suspended'));
  ts = await startTestServer(); // no worker: the test runs the chunks itself
});
afterAll(async () => {
  await ts?.stop();
  await pw?.stop();
});

describe('bulk jobs already queued when the account is suspended', () => {
  it('the next chunk probes nothing, takes no credit and fails the job with the suspension message; an active account’s chunk runs', async () => {
    const { accountId } = await signUpOnPlan(ts, 'queued-then-suspended@example.com', 'starter', 1000);
    const db = ts.testDb.db;
    const [first, second] = [pw.world.emails.slice(0, 5), pw.world.emails.slice(5, 10)];
    const job = await createJob(db, { accountId, userId: null, filename: 'list.csv', emails: [...first!, ...second!], source: 'upload', depth: 'smtp', chunkSize: 5 });
    const probe = { urls: [pw.url], token: pw.token };
    const fast = { initialMs: 10, maxMs: 10, budgetMs: 200 };

    // While the account is in good standing the first chunk runs and is charged.
    expect(await runChunk({ db, probe, retry: fast }, job.jobId, 0)).toBe('done');
    expect(await credits(db, accountId)).toBeLessThan(1000);
    const afterFirst = await credits(db, accountId);
    const stored = (await resultStats(db, job.jobId)).rows;
    expect(stored).toBe(5);

    // The grace ends unpaid: suspended. The second chunk is queued already.
    await db.updateTable('account').set({ subscription_status: 'suspended' }).where('id', '=', accountId).execute();
    expect(await runChunk({ db, probe, retry: fast }, job.jobId, 1)).toBe('suspended');
    expect(await credits(db, accountId)).toBe(afterFirst);
    expect((await resultStats(db, job.jobId)).rows).toBe(stored);
    const row = await db.selectFrom('validation_job').select(['status', 'error']).where('id', '=', job.jobId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', error: SUSPENDED_MESSAGE });
  });
});

describe('a job that failed while another of its chunks was still running', () => {
  it('stores and charges nothing more: the in-flight chunk’s next batch is refused, and its chunk stops', async () => {
    const { accountId, userId } = await signUpOnPlan(ts, 'failed-mid-way@example.com', 'starter', 1000);
    const db = ts.testDb.db;
    const [first, second] = [pw.world.emails.slice(0, 5), pw.world.emails.slice(5, 10)];
    const job = await createJob(db, { accountId, userId, filename: 'list.csv', emails: [...first!, ...second!], source: 'upload', depth: 'smtp', chunkSize: 5 });
    await db.updateTable('validation_job').set({ status: 'processing' }).where('id', '=', job.jobId).execute();
    // Chunk 1 ran out of attempts (bulk-validate-chunk's last catch): the job fails, History says why.
    await failJob(db, job.jobId, 'The verification service was unavailable; the job stopped after 25 attempts (probe down).');
    const before = await credits(db, accountId);

    // Chunk 0 was still streaming answers: its next batch arrives now.
    const info = { id: job.jobId, account_id: accountId, created_by: userId, depth: 'smtp' as const, charge_credits: true };
    expect(await storeBatch(db, info, first!.map(sandboxResult))).not.toBe('stored');
    expect((await resultStats(db, job.jobId)).rows).toBe(0);
    expect(await credits(db, accountId)).toBe(before);
    const row = await db.selectFrom('validation_job').select(['status', 'processed_emails']).where('id', '=', job.jobId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', processed_emails: 0 });
    // The chunk, run again (its task retried), probes nothing either.
    expect(await runChunk({ db, probe: { urls: [pw.url], token: pw.token }, retry: { initialMs: 10, maxMs: 10, budgetMs: 200 } }, job.jobId, 0)).toBe('job-finished');
    expect((await resultStats(db, job.jobId)).rows).toBe(0);
  });
});

describe('an account suspended, or fallen to Free, while a chunk of its job is running', () => {
  // A chunk is up to 500 addresses, and an account has up to 4 running: a job of one chunk (most
  // uploads) that was running when the suspension came went on to validate, and charge, every address.
  it('the chunk’s next batch stores and charges nothing, and the job fails with the reason', async () => {
    const db = ts.testDb.db;
    for (const [email, change, reason] of [
      ['suspended-mid-chunk@example.com', { subscription_status: 'suspended' as const }, SUSPENDED_MESSAGE],
      ['free-mid-chunk@example.com', { plan: 'free' as const }, PLAN_CHANGED_MESSAGE],
    ] as const) {
      const { accountId, userId } = await signUpOnPlan(ts, email, 'starter', 1000);
      const emails = pw.world.emails.slice(0, 10);
      const job = await createJob(db, { accountId, userId, filename: 'list.csv', emails, source: 'upload', depth: 'smtp' });
      await db.updateTable('validation_job').set({ status: 'processing' }).where('id', '=', job.jobId).execute();
      const info = { id: job.jobId, account_id: accountId, created_by: userId, depth: 'smtp' as const, charge_credits: true };
      // The chunk's first batch, while the account is in good standing.
      expect(await storeBatch(db, info, emails.slice(0, 5).map(sandboxResult))).toBe('stored');
      const before = await credits(db, accountId);
      await db.updateTable('account').set(change).where('id', '=', accountId).execute();
      // Its next batch, streamed in after the change.
      expect(await storeBatch(db, info, emails.slice(5).map(sandboxResult))).toBe('stopped');
      expect((await resultStats(db, job.jobId)).rows).toBe(5);
      expect(await credits(db, accountId)).toBe(before);
      const row = await db.selectFrom('validation_job').select(['status', 'error', 'processed_emails']).where('id', '=', job.jobId).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'failed', error: reason, processed_emails: 5 });
    }
  });
});
