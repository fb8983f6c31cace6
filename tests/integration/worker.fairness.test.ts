// Bulk jobs share the workers across accounts: one account's big upload must not hold another
// account's small job (or a schedule's run) until it is done. Counted in chunks, never in time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { closeDeps, createDeps } from '../../server/boot';
import type { AppDeps } from '../../server/deps';
import { readEnv } from '../../server/env';
import { createJob } from '../../server/features/jobs/jobs.service';
import { ACCOUNT_CHUNK_WINDOW, dispatchAllAccounts, dispatchChunks, setAccountChunkWindow } from '../../server/features/jobs/chunk-dispatch';
import { failJob } from '../../server/features/jobs/bulk-pipeline';
import { startWorker, type WorkerHandle } from '../../server/worker/runner';
import { bulkDispatchTask } from '../../server/worker/tasks/bulk-dispatch';
import type { JobHelpers } from 'graphile-worker';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { credits, plainDomains, resultStats, seedAccount, startProbeWorld, waitForJob, type ProbeWorld } from './jobs.world';

let pw: ProbeWorld;
let tdb: TestDb;
let deps: AppDeps;
beforeAll(async () => {
  pw = await startProbeWorld(plainDomains(30, 5, 'fair'));
  tdb = await createTestDb();
  deps = await createDeps({ env: readEnv({ NODE_ENV: 'test', DATA_DIR: '.data/test' }), databaseUrl: tdb.url, probe: { urls: [pw.url], token: pw.token }, runMigrations: false, poolSize: 6 });
});
afterAll(async () => {
  if (deps) await closeDeps(deps);
  await tdb?.close();
  await pw?.stop();
});

/** The chunks of `jobId` completed before the first chunk of `otherJobId` completed. */
async function chunksBefore(jobId: string, otherJobId: string): Promise<number> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from validation_job_chunk c
    where c.job_id = ${jobId}::uuid and c.completed_at is not null
      and c.completed_at < (select min(completed_at) from validation_job_chunk where job_id = ${otherJobId}::uuid)`.execute(tdb.db);
  return r.rows[0]!.n;
}

async function runWorker(concurrency: number, until: () => Promise<void>): Promise<void> {
  const worker: WorkerHandle = await startWorker(deps, { cron: false, pollInterval: 100, concurrency });
  try {
    await until();
  } finally {
    await worker.stop();
  }
}

describe('fairness across accounts', () => {
  it("a small job of another account starts within a few chunks of a big job queued before it, and both complete with one credit per address", async () => {
    const big = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const small = await seedAccount(tdb.db, { plan: 'starter', credits: 1000 });
    // 30 chunks of 5 addresses (one domain each), queued before the other account's single chunk.
    const bigJob = await createJob(tdb.db, { accountId: big.accountId, userId: big.userId, filename: 'big.csv', emails: pw.world.emails.slice(0, 150), source: 'upload', depth: 'smtp', chunkSize: 5 });
    const smallJob = await createJob(tdb.db, { accountId: small.accountId, userId: small.userId, filename: 'small.csv', emails: ['u0@d3.fair.test', 'u1@d7.fair.test'], source: 'upload', depth: 'smtp' });
    await runWorker(1, async () => {
      expect((await waitForJob(tdb.db, smallJob.jobId, { timeoutMs: 60_000 })).status).toBe('completed');
      expect((await waitForJob(tdb.db, bigJob.jobId, { timeoutMs: 90_000 })).status).toBe('completed');
    });
    // One slot: the big job had taken at most its window of chunks before the small one ran (it took all 30).
    expect(await chunksBefore(bigJob.jobId, smallJob.jobId)).toBeLessThanOrEqual(ACCOUNT_CHUNK_WINDOW);
    expect(await resultStats(tdb.db, bigJob.jobId)).toEqual({ rows: 150, unique: 150 });
    expect(await credits(tdb.db, big.accountId)).toBe(850);
    expect(await credits(tdb.db, small.accountId)).toBe(998);
  }, 120_000);

  it("an account's second job waits for its window, not forever: after the first is cancelled it runs", async () => {
    const acct = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const first = await createJob(tdb.db, { accountId: acct.accountId, userId: acct.userId, filename: 'first.csv', emails: pw.world.emails.slice(0, 100), source: 'upload', depth: 'smtp', chunkSize: 5 });
    const second = await createJob(tdb.db, { accountId: acct.accountId, userId: acct.userId, filename: 'second.csv', emails: pw.world.emails.slice(100, 110), source: 'upload', depth: 'smtp', chunkSize: 5 });
    const { cancelJob } = await import('../../server/features/jobs/job-cancel');
    await cancelJob(tdb.db, { accountId: acct.accountId, jobId: first.jobId, userId: acct.userId, actor: 'user' });
    await runWorker(2, async () => {
      expect((await waitForJob(tdb.db, second.jobId, { timeoutMs: 60_000 })).status).toBe('completed');
    });
    expect(await resultStats(tdb.db, second.jobId)).toEqual({ rows: 10, unique: 10 });
    expect(await resultStats(tdb.db, first.jobId)).toEqual({ rows: 0, unique: 0 });
    expect(await credits(tdb.db, acct.accountId)).toBe(990);
  }, 90_000);

  it("a failed job hands its window to the account's next job, and the sweep refills a window nothing refilled", async () => {
    const acct = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const first = await createJob(tdb.db, { accountId: acct.accountId, userId: acct.userId, filename: 'first.csv', emails: pw.world.emails.slice(0, 100), source: 'upload', depth: 'smtp', chunkSize: 5 });
    const second = await createJob(tdb.db, { accountId: acct.accountId, userId: acct.userId, filename: 'second.csv', emails: pw.world.emails.slice(100, 130), source: 'upload', depth: 'smtp', chunkSize: 5 });
    const queued = async (jobId: string) => Number((await sql<{ n: number }>`select count(*)::int as n from graphile_worker._private_jobs where key like ${`bulk-validate-chunk:${jobId}:%`}`.execute(tdb.db)).rows[0]!.n);
    expect([await queued(first.jobId), await queued(second.jobId)]).toEqual([ACCOUNT_CHUNK_WINDOW, 0]);
    await failJob(tdb.db, first.jobId, 'The verification service was unavailable.');
    expect([await queued(first.jobId), await queued(second.jobId)]).toEqual([0, ACCOUNT_CHUNK_WINDOW]);
    // Chunk tasks lost without their transaction queuing the next (an operator's delete): the sweep queues them again.
    await sql`delete from graphile_worker._private_jobs where key like ${`bulk-validate-chunk:${second.jobId}:%`}`.execute(tdb.db);
    expect(await dispatchAllAccounts(tdb.db)).toBeGreaterThanOrEqual(ACCOUNT_CHUNK_WINDOW);
    expect(await queued(second.jobId)).toBe(ACCOUNT_CHUNK_WINDOW);
    expect(await dispatchAllAccounts(tdb.db)).toBe(0);
    await sql`delete from graphile_worker._private_jobs where key like ${`bulk-validate-chunk:${second.jobId}:%`}`.execute(tdb.db);
    await tdb.db.updateTable('validation_job').set({ status: 'cancelled' }).where('id', '=', second.jobId).execute();
  });

  it("the sweep fails a job whose chunk task graphile-worker gave up on without failing it, and hands its window on", async () => {
    const acct = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const first = await createJob(tdb.db, { accountId: acct.accountId, userId: acct.userId, filename: 'given-up.csv', emails: pw.world.emails.slice(0, 20), source: 'upload', depth: 'smtp', chunkSize: 5 });
    const second = await createJob(tdb.db, { accountId: acct.accountId, userId: acct.userId, filename: 'behind.csv', emails: pw.world.emails.slice(20, 30), source: 'upload', depth: 'smtp', chunkSize: 5 });
    const queued = async (jobId: string) => Number((await sql<{ n: number }>`select count(*)::int as n from graphile_worker._private_jobs where key like ${`bulk-validate-chunk:${jobId}:%`}`.execute(tdb.db)).rows[0]!.n);
    expect([await queued(first.jobId), await queued(second.jobId)]).toEqual([ACCOUNT_CHUNK_WINDOW, 0]);
    // Its last attempt threw and so did the failJob meant to end the job (the database away a moment):
    // graphile-worker keeps the task as failed for good, runs it never again, and nothing ends the job.
    await sql`update graphile_worker._private_jobs set attempts = max_attempts, last_error = 'Connection terminated unexpectedly'
      where key = ${`bulk-validate-chunk:${first.jobId}:0`}`.execute(tdb.db);
    await bulkDispatchTask(deps)({}, { logger: { warn: () => undefined, info: () => undefined } } as unknown as JobHelpers);
    const job = await tdb.db.selectFrom('validation_job').select(['status', 'error']).where('id', '=', first.jobId).executeTakeFirstOrThrow();
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/stopped after 25 attempts \(Connection terminated unexpectedly\)/);
    // Its slots (the given-up task's too) go to the account's next job.
    expect([await queued(first.jobId), await queued(second.jobId)]).toEqual([0, 2]);
    await sql`delete from graphile_worker._private_jobs where key like ${`bulk-validate-chunk:${second.jobId}:%`}`.execute(tdb.db);
    await tdb.db.updateTable('validation_job').set({ status: 'cancelled' }).where('id', '=', second.jobId).execute();
  });

  it("an account's two jobs share its window: the newer does not stop the older one, nor wait for it", async () => {
    const acct = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const queuedChunks = () =>
      sql<{ job_id: string; chunk_no: number; key: string }>`
        select (payload->>'jobId') as job_id, (payload->>'chunkNo')::int as chunk_no, key from graphile_worker._private_jobs
        where key like 'bulk-validate-chunk:%' and payload->>'jobId' in (select id::text from validation_job where account_id = ${acct.accountId})
        order by run_at, id`.execute(tdb.db);
    /** What a worker with one slot does: the oldest queued chunk completes and its transaction queues the next. Returns the job queued. */
    const completeOldest = async (): Promise<string[]> => {
      const [oldest] = (await queuedChunks()).rows;
      const before = new Set((await queuedChunks()).rows.map((r) => r.key));
      await tdb.db.transaction().execute(async (trx) => {
        await trx.updateTable('validation_job_chunk').set({ completed_at: new Date() }).where('job_id', '=', oldest!.job_id).where('chunk_no', '=', oldest!.chunk_no).execute();
        await sql`delete from graphile_worker._private_jobs where key = ${oldest!.key}`.execute(trx);
        await dispatchChunks(trx, acct.accountId);
      });
      return (await queuedChunks()).rows.filter((r) => !before.has(r.key)).map((r) => r.job_id);
    };
    const older = await createJob(tdb.db, { accountId: acct.accountId, userId: acct.userId, filename: 'older.csv', emails: pw.world.emails.slice(0, 150), source: 'upload', depth: 'smtp', chunkSize: 5 });
    for (let i = 0; i < 10; i++) await completeOldest(); // the older job is 10 chunks in
    const newer = await createJob(tdb.db, { accountId: acct.accountId, userId: acct.userId, filename: 'newer.csv', emails: pw.world.emails.slice(0, 100), source: 'upload', depth: 'smtp', chunkSize: 5 });
    const next: string[] = [];
    for (let i = 0; i < 12; i++) next.push(...(await completeOldest()));
    const share = (jobId: string) => next.filter((j) => j === jobId).length;
    expect(share(older.jobId)).toBeGreaterThanOrEqual(5);
    expect(share(newer.jobId)).toBeGreaterThanOrEqual(5);
    await tdb.db.updateTable('validation_job').set({ status: 'cancelled' }).where('account_id', '=', acct.accountId).execute();
    await sql`delete from graphile_worker._private_jobs where key like 'bulk-validate-chunk:%'`.execute(tdb.db);
  });

  it('two workers on one database run every chunk of every account once, and leave nothing queued', async () => {
    const accounts = await Promise.all([0, 1, 2].map(() => seedAccount(tdb.db, { plan: 'pro', credits: 1000 })));
    const jobs: Array<{ jobId: string }> = [];
    for (const [i, a] of accounts.entries()) {
      jobs.push(await createJob(tdb.db, { accountId: a.accountId, userId: a.userId, filename: `many-${i}.csv`, emails: pw.world.emails.slice(i * 40, i * 40 + 40), source: 'upload', depth: 'smtp', chunkSize: 2 }));
    }
    const depsB = await createDeps({ env: readEnv({ NODE_ENV: 'test', DATA_DIR: '.data/test' }), databaseUrl: tdb.url, probe: { urls: [pw.url], token: pw.token }, runMigrations: false, poolSize: 6 });
    const b = await startWorker(depsB, { cron: false, pollInterval: 100, concurrency: 3 });
    try {
      await runWorker(3, async () => {
        for (const j of jobs) expect((await waitForJob(tdb.db, j.jobId, { timeoutMs: 60_000 })).status).toBe('completed');
      });
    } finally {
      await b.stop();
      await closeDeps(depsB);
    }
    for (const [i, j] of jobs.entries()) {
      expect(await resultStats(tdb.db, j.jobId)).toEqual({ rows: 40, unique: 40 });
      expect(await credits(tdb.db, accounts[i]!.accountId)).toBe(960);
      // Each chunk was run once: a chunk queued twice (two transactions filling one window) or taken by both workers counts two.
      const runs = await tdb.db.selectFrom('validation_job_chunk').select('attempts').where('job_id', '=', j.jobId).execute();
      expect(runs.map((r) => r.attempts)).toEqual(Array(20).fill(1));
    }
    expect((await sql<{ n: number }>`select count(*)::int as n from graphile_worker._private_jobs where key like 'bulk-validate-chunk:%'`.execute(tdb.db)).rows[0]!.n).toBe(0);
  }, 120_000);

  it('BULK_CHUNKS_PER_ACCOUNT sets the window (several worker processes: one job may use all their slots)', async () => {
    const wide = await createDeps({ env: readEnv({ NODE_ENV: 'test', DATA_DIR: '.data/test', BULK_CHUNKS_PER_ACCOUNT: '8' }), databaseUrl: tdb.url, probe: { urls: [pw.url], token: pw.token }, runMigrations: false, poolSize: 2 });
    try {
      const acct = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
      const job = await createJob(wide.db, { accountId: acct.accountId, userId: acct.userId, filename: 'wide.csv', emails: pw.world.emails.slice(0, 100), source: 'upload', depth: 'smtp', chunkSize: 5 });
      const queued = await sql<{ n: number }>`select count(*)::int as n from graphile_worker._private_jobs where key like ${`bulk-validate-chunk:${job.jobId}:%`}`.execute(tdb.db);
      expect(queued.rows[0]!.n).toBe(8);
      await tdb.db.updateTable('validation_job').set({ status: 'cancelled' }).where('id', '=', job.jobId).execute();
      await sql`delete from graphile_worker._private_jobs where key like 'bulk-validate-chunk:%'`.execute(tdb.db);
    } finally {
      setAccountChunkWindow(ACCOUNT_CHUNK_WINDOW);
      await closeDeps(wide);
    }
  });
});
