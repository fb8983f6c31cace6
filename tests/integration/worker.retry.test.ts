import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeps, createDeps } from '../../server/boot';
import type { AppDeps } from '../../server/deps';
import { readEnv } from '../../server/env';
import { sql } from 'kysely';
import { createJob, createJobInTransaction } from '../../server/features/jobs/jobs.service';
import { listAccountJobs } from '../../server/features/jobs/job-results';
import { startWorker, type WorkerHandle } from '../../server/worker/runner';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { credits, plainDomains, resultStats, seedAccount, startProbeWorld, waitForJob, type ProbeWorld } from './jobs.world';

let pw: ProbeWorld;
let tdb: TestDb;
let deps: AppDeps;
let worker: WorkerHandle;
beforeAll(async () => {
  pw = await startProbeWorld(plainDomains(8, 20, 'retry'));
  tdb = await createTestDb();
  deps = await createDeps({ env: readEnv({ NODE_ENV: 'test', DATA_DIR: '.data/test' }), databaseUrl: tdb.url, probe: { urls: [pw.url], token: pw.token }, runMigrations: false, poolSize: 6 });
  // Small in-task budget so graphile-worker's own retry (with its backoff) is exercised too.
  worker = await startWorker(deps, { cron: false, pollInterval: 200, concurrency: 2, chunk: { retry: { initialMs: 100, maxMs: 400, budgetMs: 1_000 } } });
});
afterAll(async () => {
  await worker?.stop();
  if (deps) await closeDeps(deps);
  await tdb?.close();
  await pw?.stop();
});

describe('probe outages', () => {
  it('retries chunks with backoff while the probe daemon is down and completes when it is back', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 1000 });
    await pw.stopProbe();
    const emails = pw.world.emails.slice(0, 160);
    const { jobId } = await createJob(tdb.db, { accountId, userId, filename: 'outage.csv', emails, source: 'upload', depth: 'smtp', chunkSize: 80 });

    // The chunks fail and record why; the job waits in processing, nothing is written or charged.
    await expect
      .poll(async () => (await tdb.db.selectFrom('validation_job_chunk').select('last_error').where('job_id', '=', jobId).execute()).every((c) => c.last_error !== null), { timeout: 10_000 })
      .toBe(true);
    await new Promise((r) => setTimeout(r, 1500));
    const during = await tdb.db.selectFrom('validation_job').select(['status', 'processed_emails']).where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(during).toEqual({ status: 'processing', processed_emails: 0 });
    expect(await credits(tdb.db, accountId)).toBe(1000);
    // History says why the job does not move (it read as a plain 'processing 0%' for the days the retries take).
    const shown = async () => (await listAccountJobs(tdb.db, accountId, { limit: 10 })).jobs.find((j) => j.id === jobId)!;
    expect((await shown()).stalled).toBe(true);

    await pw.startProbe();
    const done = await waitForJob(tdb.db, jobId, { timeoutMs: 30_000 });
    expect(done.status).toBe('completed');
    expect(await resultStats(tdb.db, jobId)).toEqual({ rows: 160, unique: 160 });
    expect(await credits(tdb.db, accountId)).toBe(840);
    const chunks = await tdb.db.selectFrom('validation_job_chunk').select(['attempts', 'last_error']).where('job_id', '=', jobId).execute();
    expect(chunks.every((c) => c.last_error === null)).toBe(true);
    expect((await shown()).stalled).toBe(false);
    expect(Math.max(...chunks.map((c) => c.attempts))).toBeGreaterThanOrEqual(2); // graphile-worker ran it again
  }, 60_000);

  it('once the probe answers again, chunks waiting out a long backoff are run at once instead of hours later', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 1000 });
    await pw.stopProbe();
    const early = await createJob(tdb.db, { accountId, userId, filename: 'early.csv', emails: pw.world.emails.slice(0, 20), source: 'upload', depth: 'smtp' });
    const late = await createJob(tdb.db, { accountId, userId, filename: 'late.csv', emails: pw.world.emails.slice(20, 40), source: 'upload', depth: 'smtp' });
    const chunkTasks = (jobId: string) => sql<{ attempts: number; locked_at: Date | null }>`select attempts, locked_at from graphile_worker._private_jobs where key like ${`bulk-validate-chunk:${jobId}:%`}`.execute(tdb.db);
    // Both failed at least once and wait for graphile-worker's next attempt.
    for (const id of [early.jobId, late.jobId]) {
      await expect.poll(async () => (await chunkTasks(id)).rows.every((r) => r.attempts >= 1 && r.locked_at === null), { timeout: 15_000 }).toBe(true);
    }
    // After a long outage the backoff is hours (e^10 s a try): the late job's next try is far away.
    await sql`update graphile_worker._private_jobs set run_at = now() + interval '6 hours' where key like ${`bulk-validate-chunk:${late.jobId}:%`}`.execute(tdb.db);
    await sql`update graphile_worker._private_jobs set run_at = now() where key like ${`bulk-validate-chunk:${early.jobId}:%`}`.execute(tdb.db);
    await pw.startProbe();
    expect((await waitForJob(tdb.db, early.jobId, { timeoutMs: 20_000 })).status).toBe('completed');
    expect((await waitForJob(tdb.db, late.jobId, { timeoutMs: 20_000 })).status).toBe('completed');
    expect(await resultStats(tdb.db, late.jobId)).toEqual({ rows: 20, unique: 20 });
  }, 60_000);

  it('fails a job with the reason once its chunks run out of attempts', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 1000 });
    await pw.stopProbe();
    try {
      // Queued with a single attempt: what graphile-worker does once max_attempts is reached.
      const jobId = await tdb.db.transaction().execute(async (trx) => {
        const job = await createJobInTransaction(trx, { accountId, userId, filename: 'doomed.csv', emails: pw.world.emails.slice(0, 5), source: 'upload', depth: 'smtp' });
        await sql`update graphile_worker._private_jobs set max_attempts = 1 where key like ${`bulk-validate-chunk:${job.jobId}:%`}`.execute(trx);
        return job.jobId;
      });
      const done = await waitForJob(tdb.db, jobId, { timeoutMs: 20_000 });
      expect(done.status).toBe('failed');
      expect(done.error).toMatch(/verification service was unavailable/);
      expect(await credits(tdb.db, accountId)).toBe(1000);
    } finally {
      await pw.startProbe();
    }
  }, 40_000);
});
