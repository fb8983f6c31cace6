import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeps, createDeps } from '../../server/boot';
import type { AppDeps } from '../../server/deps';
import { readEnv } from '../../server/env';
import { createJob } from '../../server/features/jobs/jobs.service';
import { CRASH_ATTEMPTS_CEILING, LEASE_TTL_SECONDS, releaseDeadWorkers } from '../../server/features/workers/worker-lease.service';
import { startWorker, type WorkerHandle } from '../../server/worker/runner';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { credits, plainDomains, resultStats, seedAccount, startProbeWorld, waitForJob, type ProbeWorld } from './jobs.world';

const ROOT = path.resolve(import.meta.dirname, '../..');

let pw: ProbeWorld;
let tdb: TestDb;
beforeAll(async () => {
  pw = await startProbeWorld(plainDomains(40, 50, 'crash'), { replyDelayMs: 25 });
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
  await pw?.stop();
});

function spawnWorker(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts'), 'worker'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', DATABASE_URL: tdb.url, PROBE_URLS: pw.url, PROBE_TOKEN: pw.token, WORKER_CONCURRENCY: '2', DATA_DIR: '.data/test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.resume();
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
    if (err.length > 4000) err = err.slice(-4000);
  });
  child.on('exit', (code, signal) => {
    if (code && code !== 0) console.error(`worker exited ${code} ${signal ?? ''}: ${err}`);
  });
  return child;
}

const exited = (c: ChildProcess) => new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())));
const ended = (j: { status: string }) => j.status !== 'pending' && j.status !== 'processing';

/** A worker process runs the job until `processed` addresses are done (or the job has ended), then is SIGKILLed: the job as it stood then. */
async function killWorkerMidway(jobId: string, processed: number) {
  const first = spawnWorker();
  try {
    const mid = await waitForJob(tdb.db, jobId, { timeoutMs: 40_000, until: (j) => j.processed_emails >= processed || ended(j) });
    first.kill('SIGKILL');
    await exited(first);
    // Its last heartbeat as it stands once LEASE_TTL_SECONDS have passed (no other runner is up
    // now): the fresh worker releases its chunks at once instead of the test waiting the TTL out.
    await sql`update worker_lease set seen_at = now() - make_interval(secs => ${LEASE_TTL_SECONDS})`.execute(tdb.db);
    return mid;
  } finally {
    if (first.exitCode === null && first.signalCode === null) first.kill('SIGKILL');
  }
}

/** A fresh worker process runs the job to its end (its chunks' queue rows are logged if it does not end): the job as it ended. */
async function finishWithFreshWorker(jobId: string) {
  const second = spawnWorker();
  try {
    return await waitForJob(tdb.db, jobId, { timeoutMs: 60_000, until: ended }).catch(async (e: unknown) => {
      console.error((await sql`select key, attempts, max_attempts, locked_by from graphile_worker.jobs where key like ${`bulk-validate-chunk:${jobId}:%`}`.execute(tdb.db)).rows);
      throw e;
    });
  } finally {
    second.kill('SIGTERM');
    await exited(second);
  }
}

describe('bulk jobs survive crashes and concurrency', () => {
  it('completes a 2,000-address job after its worker process is killed mid-way: one result and one credit per address', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 5000 });
    const emails = pw.world.emails.slice(0, 2000);
    expect(emails).toHaveLength(2000);
    const { jobId } = await createJob(tdb.db, { accountId, userId, filename: 'crash.csv', emails, source: 'upload', depth: 'smtp' });

    const mid = await killWorkerMidway(jobId, 150);
    const killedAt = (await waitForJob(tdb.db, jobId, { until: () => true })).processed_emails;
    expect(mid.status).toBe('processing');
    expect(killedAt).toBeLessThan(2000);

    const done = await finishWithFreshWorker(jobId);
    expect(done.status).toBe('completed');
    expect(done.processed_emails).toBe(2000);
    expect(await resultStats(tdb.db, jobId)).toEqual({ rows: 2000, unique: 2000 });
    expect(await credits(tdb.db, accountId)).toBe(3000);
    const open = await tdb.db.selectFrom('validation_job_chunk').select('chunk_no').where('job_id', '=', jobId).where('completed_at', 'is', null).execute();
    expect(open).toEqual([]);
  }, 120_000);

  it('a job of more chunks than its account may queue at once resumes after the kill from the chunks still to queue: one result and one credit per address', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 5000 });
    const emails = pw.world.emails.slice(0, 2000);
    // 20 chunks; the account holds 4 in the queue at a time, each finished one queueing the next.
    const { jobId } = await createJob(tdb.db, { accountId, userId, filename: 'windowed.csv', emails, source: 'upload', depth: 'smtp', chunkSize: 100 });
    expect((await killWorkerMidway(jobId, 450)).status).toBe('processing');
    const done = await finishWithFreshWorker(jobId);
    expect(done.status).toBe('completed');
    expect(done.processed_emails).toBe(2000);
    expect(await resultStats(tdb.db, jobId)).toEqual({ rows: 2000, unique: 2000 });
    expect(await credits(tdb.db, accountId)).toBe(3000);
    expect((await sql<{ n: number }>`select count(*)::int as n from graphile_worker._private_jobs where key like ${`bulk-validate-chunk:${jobId}:%`}`.execute(tdb.db)).rows[0]!.n).toBe(0);
  }, 120_000);

  it('runs again a chunk whose last allowed attempt was on the killed worker: the job completes, one result and one credit per address', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 5000 });
    const emails = pw.world.emails.slice(0, 2000);
    const { jobId } = await createJob(tdb.db, { accountId, userId, filename: 'last-attempt.csv', emails, source: 'upload', depth: 'smtp' });
    // Every chunk on its last attempt (as after a long probe outage): the attempt the kill cuts short is its last.
    await sql`update graphile_worker._private_jobs set max_attempts = 1 where key like ${`bulk-validate-chunk:${jobId}:%`}`.execute(tdb.db);

    expect((await killWorkerMidway(jobId, 150)).status).toBe('processing');
    expect((await waitForJob(tdb.db, jobId, { until: () => true })).processed_emails).toBeLessThan(2000);

    const done = await finishWithFreshWorker(jobId);
    expect(done.status).toBe('completed');
    expect(done.processed_emails).toBe(2000);
    expect(await resultStats(tdb.db, jobId)).toEqual({ rows: 2000, unique: 2000 });
    expect(await credits(tdb.db, accountId)).toBe(3000);
  }, 150_000);

  it('two workers on one database, with every chunk delivered twice, write each address once', async () => {
    const env = readEnv({ NODE_ENV: 'test', DATA_DIR: '.data/test', WORKER_CONCURRENCY: '3' });
    const depsA: AppDeps = await createDeps({ env, databaseUrl: tdb.url, probe: { urls: [pw.url], token: pw.token }, runMigrations: false, poolSize: 6 });
    const depsB: AppDeps = await createDeps({ env, databaseUrl: tdb.url, probe: { urls: [pw.url], token: pw.token }, runMigrations: false, poolSize: 6 });
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 1000 });
    const emails = pw.world.emails.slice(0, 600);
    // Created before the workers start, plus a second delivery of every chunk (no job key).
    const { jobId } = await createJob(tdb.db, { accountId, userId, filename: 'twice.csv', emails, source: 'upload', depth: 'smtp', chunkSize: 50 });
    await sql`select graphile_worker.add_job('bulk-validate-chunk', json_build_object('jobId', ${jobId}::text, 'chunkNo', chunk_no)) from validation_job_chunk where job_id = ${jobId}`.execute(tdb.db);
    let a: WorkerHandle | null = null;
    let b: WorkerHandle | null = null;
    try {
      [a, b] = await Promise.all([startWorker(depsA, { cron: false, pollInterval: 200 }), startWorker(depsB, { cron: false, pollInterval: 200 })]);
      const done = await waitForJob(tdb.db, jobId, { timeoutMs: 60_000 });
      expect(done.status).toBe('completed');
      await expect
        .poll(async () => Number((await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'bulk-validate-chunk'`.execute(tdb.db)).rows[0]!.n), { timeout: 20_000 })
        .toBe(0)
        .catch(async (e: unknown) => {
          console.error((await sql`select task_identifier, payload, attempts, last_error, locked_by, run_at from graphile_worker.jobs`.execute(tdb.db)).rows);
          throw e;
        });
    } finally {
      await a?.stop();
      await b?.stop();
      await closeDeps(depsA);
      await closeDeps(depsB);
    }
    expect(await resultStats(tdb.db, jobId)).toEqual({ rows: 600, unique: 600 });
    expect(await credits(tdb.db, accountId)).toBe(400);
    const job = await tdb.db.selectFrom('validation_job').select(['processed_emails', 'valid_count', 'invalid_count', 'risky_count']).where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(job.processed_emails).toBe(600);
    expect(job.valid_count + job.invalid_count + job.risky_count).toBe(600);
  }, 90_000);

  it("releases only the locks of workers whose process is gone, never a live one's", async () => {
    const env = readEnv({ NODE_ENV: 'test', DATA_DIR: '.data/test', WORKER_CONCURRENCY: '1' });
    const deps = await createDeps({ env, databaseUrl: tdb.url, probe: { urls: [pw.url], token: pw.token }, runMigrations: false, poolSize: 4 });
    const live = await startWorker(deps, { cron: false, pollInterval: 200 });
    try {
      const ids = (await tdb.db.selectFrom('worker_lease').select('worker_id').where('instance', '=', live.instance).execute()).map((r) => r.worker_id);
      expect(ids.some((id) => id.startsWith('pool-'))).toBe(true);
      // Two old locks on jobs no task will pick: one held by the live pool, one by a vanished one.
      const lock = (key: string, by: string) =>
        sql`update graphile_worker._private_jobs set locked_by = ${by}, locked_at = now() - interval '1 minute' where key = ${key}`.execute(tdb.db);
      for (const key of ['lock-live', 'lock-dead']) await sql`select graphile_worker.add_job('no-such-task', '{}'::json, job_key := ${key}, run_at := now() + interval '1 hour')`.execute(tdb.db);
      await lock('lock-live', ids.find((id) => id.startsWith('pool-'))!);
      await lock('lock-dead', 'pool-0000dead');
      expect(await releaseDeadWorkers(tdb.db)).toEqual(['pool-0000dead']);
      const rows = await sql<{ key: string; locked_by: string | null }>`select key, locked_by from graphile_worker._private_jobs where key like 'lock-%' order by key`.execute(tdb.db);
      expect(rows.rows).toEqual([
        { key: 'lock-dead', locked_by: null },
        { key: 'lock-live', locked_by: ids.find((id) => id.startsWith('pool-')) },
      ]);

      // A dead worker's job on its last attempt gets that attempt back, but not past the ceiling
      // (a task that kills its process every time must not crash-loop the workers for ever).
      for (const [key, attempts] of [['last-attempt', 1], ['crash-loop', CRASH_ATTEMPTS_CEILING]] as const) {
        await sql`select graphile_worker.add_job('no-such-task', '{}'::json, job_key := ${key}, run_at := now() + interval '1 hour', max_attempts := ${attempts}::int)`.execute(tdb.db);
        await sql`update graphile_worker._private_jobs set attempts = ${attempts}, locked_by = 'pool-0000dea2', locked_at = now() - interval '1 minute' where key = ${key}`.execute(tdb.db);
      }
      expect(await releaseDeadWorkers(tdb.db)).toEqual(['pool-0000dea2']);
      const exhausted = await sql<{ key: string; attempts: number; max_attempts: number; locked_by: string | null }>`
        select key, attempts, max_attempts, locked_by from graphile_worker._private_jobs where key in ('last-attempt', 'crash-loop') order by key`.execute(tdb.db);
      expect(exhausted.rows).toEqual([
        { key: 'crash-loop', attempts: CRASH_ATTEMPTS_CEILING, max_attempts: CRASH_ATTEMPTS_CEILING, locked_by: null },
        { key: 'last-attempt', attempts: 1, max_attempts: 2, locked_by: null },
      ]);
    } finally {
      await live.stop();
      await closeDeps(deps);
    }
  });

  it("keeps a live worker's jobs while its connections are cut for a moment (a database failover, a pooler closing idle connections)", async () => {
    const env = readEnv({ NODE_ENV: 'test', DATA_DIR: '.data/test', WORKER_CONCURRENCY: '1' });
    const deps = await createDeps({ env, databaseUrl: tdb.url, probe: { urls: [pw.url], token: pw.token }, runMigrations: false, poolSize: 4 });
    const live = await startWorker(deps, { cron: false, pollInterval: 200 });
    try {
      const pool = (await tdb.db.selectFrom('worker_lease').select('worker_id').where('instance', '=', live.instance).execute()).map((r) => r.worker_id).find((id) => id.startsWith('pool-'))!;
      // A chunk the live worker has been running for a minute.
      await sql`select graphile_worker.add_job('no-such-task', '{}'::json, job_key := 'lock-blip', run_at := now() + interval '1 hour')`.execute(tdb.db);
      await sql`update graphile_worker._private_jobs set locked_by = ${pool}, locked_at = now() - interval '1 minute' where key = 'lock-blip'`.execute(tdb.db);
      // Its connections are gone for a moment (it reconnects): it is still running that chunk.
      const connections = async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = ${live.instance}`.execute(tdb.db)).rows[0]!.n;
      // Cut them until none is left at once (the worker reconnects within its poll interval; on a loaded
      // machine one cut may never leave a moment with none).
      const cut = async () => {
        await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${live.instance}`.execute(tdb.db);
        return connections();
      };
      await expect.poll(cut, { timeout: 10_000, interval: 10 }).toBe(0);
      expect(await releaseDeadWorkers(tdb.db)).toEqual([]);
      const row = await sql<{ locked_by: string | null }>`select locked_by from graphile_worker._private_jobs where key = 'lock-blip'`.execute(tdb.db);
      expect(row.rows).toEqual([{ locked_by: pool }]);
      await sql`select graphile_worker.remove_job('lock-blip')`.execute(tdb.db);
    } finally {
      await live.stop();
      await closeDeps(deps);
    }
  });
});
