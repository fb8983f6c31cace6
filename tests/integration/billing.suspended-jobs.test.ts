// A bulk job queued before its account was suspended (a renewal left unpaid past its grace) does
// no more work once the suspension starts: its next chunk validates nothing and takes no credit, and
// the job fails with the suspension message (the results so far stay readable and exportable).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUSPENDED_MESSAGE } from '../../server/features/billing/service-state';
import { runChunk } from '../../server/features/jobs/bulk-pipeline';
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
