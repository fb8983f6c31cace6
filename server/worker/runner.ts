// The graphile-worker runner of a worker process.
//
// Crash recovery: graphile-worker only frees the jobs of a dead worker after 4 hours. Each runner
// here connects with its own application_name and records its worker ids (worker_lease), so any
// runner can see that a lock belongs to a process whose connections are gone (killed, OOM, lost
// machine) and release it at once with graphile's force_unlock_workers. The tasks are
// idempotent, so running such a job again is always safe.
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { parseCrontab, run, type Runner, type WorkerEvents } from 'graphile-worker';
import { sql } from 'kysely';
import pg from 'pg';
import { logPoolError, type Db } from '../../db/client';
import type { AppDeps } from '../deps';
import { crontab } from './crontab';
import { createTaskList, type TaskListOptions } from './task-list';

export interface WorkerHandle {
  runner: Runner;
  instance: string;
  stop(): Promise<void>;
}

/** Locks older than this, held by worker ids with no live connection, are released. */
const LOCK_GRACE_SECONDS = 3;
const SWEEP_MS = 3_000;

export async function startWorker(deps: AppDeps, o: { concurrency?: number; pollInterval?: number; cron?: boolean } & TaskListOptions = {}): Promise<WorkerHandle> {
  const instance = `mailvet-worker:${randomBytes(8).toString('hex')}`;
  const concurrency = o.concurrency ?? deps.env.WORKER_CONCURRENCY;
  const pool = new pg.Pool({ connectionString: deps.pool.options.connectionString, application_name: instance, max: concurrency + 4 });
  pool.on('error', (err) => logPoolError('[worker] idle client error', err));
  pool.on('connect', (client) => client.on('error', (err) => logPoolError('[worker] client error', err)));

  const events: WorkerEvents = new EventEmitter();
  // graphile-worker 0.18 locks jobs in the name of the worker pool (locked_by = pool id); older
  // paths use the worker id. Record both as belonging to this instance.
  const lease = (id: string) =>
    deps.db
      .insertInto('worker_lease')
      .values({ worker_id: id, instance })
      .onConflict((oc) => oc.column('worker_id').doNothing())
      .execute()
      .catch((err: Error) => console.error('[worker] lease:', err.message));
  const leases: Array<Promise<unknown>> = [];
  events.on('pool:create', ({ workerPool }) => void leases.push(lease(workerPool.id)));
  events.on('worker:create', ({ worker }) => void leases.push(lease(worker.workerId)));

  await releaseDeadWorkers(deps.db).catch((err: Error) => console.error('[worker] sweep:', err.message));
  const runner = await run({
    pgPool: pool,
    concurrency,
    noHandleSignals: true,
    pollInterval: o.pollInterval ?? 1000,
    events,
    taskList: createTaskList(deps, o),
    parsedCronItems: o.cron === false ? [] : parseCrontab(crontab),
  });
  await Promise.all(leases);
  const sweeper = setInterval(() => {
    void releaseDeadWorkers(deps.db).catch((err: Error) => console.error('[worker] sweep:', err.message));
  }, SWEEP_MS);
  sweeper.unref();

  return {
    runner,
    instance,
    async stop() {
      clearInterval(sweeper);
      await runner.stop().catch((err: Error) => console.error('[worker] stop:', err.message));
      await deps.db.deleteFrom('worker_lease').where('instance', '=', instance).execute().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}

/** Frees jobs locked by workers whose process has no connection left; returns their ids. */
export async function releaseDeadWorkers(db: Db): Promise<string[]> {
  const r = await sql<{ worker_id: string }>`
    select distinct j.locked_by as worker_id
    from graphile_worker._private_jobs j
    where j.locked_by is not null
      and j.locked_at < now() - make_interval(secs => ${LOCK_GRACE_SECONDS})
      and not exists (
        select 1 from worker_lease l
        join pg_stat_activity a on a.application_name = l.instance
        where l.worker_id = j.locked_by
      )`.execute(db);
  const dead = r.rows.map((x) => x.worker_id);
  if (dead.length > 0) {
    await sql`select graphile_worker.force_unlock_workers(${dead}::text[])`.execute(db);
    console.warn(`[worker] released jobs of ${dead.length} dead worker(s): ${dead.join(', ')}`);
  }
  // Forget leases of instances that are gone.
  await sql`
    delete from worker_lease l
    where l.created_at < now() - interval '1 minute'
      and not exists (select 1 from pg_stat_activity a where a.application_name = l.instance)`.execute(db);
  return dead;
}
