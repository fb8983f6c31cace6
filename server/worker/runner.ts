// The graphile-worker runner of a worker process.
//
// Crash recovery: graphile-worker only frees the jobs of a dead worker after 4 hours. Each runner
// here connects with its own application_name and records its worker ids (worker_lease), so any
// runner can see that a lock belongs to a process whose connections are gone (killed, OOM, lost
// machine) and has beaten no heartbeat for LEASE_TTL_SECONDS (a live runner whose connections were
// cut for a moment keeps its jobs), and release it with graphile's force_unlock_workers; a job whose last allowed
// attempt was the one cut short gets that attempt back (worker-lease.service.ts). The tasks are
// idempotent, so running such a job again is always safe.
//
// Two runners share the process and its pool: the main one (WORKER_CONCURRENCY slots: bulk chunks,
// schedules, cron) and one for webhook deliveries only (WEBHOOK_CONCURRENCY slots). graphile-worker
// hands a runner only the tasks in its task list, so a receiver that answers slowly can hold webhook
// slots (at most one per account: deliveries queue per account) but never a bulk-job slot.
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { parseCrontab, run, type Runner, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { logPoolError } from '../../db/client';
import type { AppDeps } from '../deps';
import { dropInstanceLeases, recordWorkerLease, releaseDeadWorkers, touchInstanceLeases } from '../features/workers/worker-lease.service';
import { TASKS } from '../lib/tasks';
import { crontab } from './crontab';
import { createTaskList, type TaskListOptions } from './task-list';

export interface WorkerHandle {
  runner: Runner;
  /** Runs `webhook-deliver` only. */
  webhookRunner: Runner;
  instance: string;
  stop(): Promise<void>;
}

const SWEEP_MS = 3_000;

export async function startWorker(deps: AppDeps, o: { concurrency?: number; webhookConcurrency?: number; pollInterval?: number; cron?: boolean } & TaskListOptions = {}): Promise<WorkerHandle> {
  const instance = `mailvet-worker:${randomBytes(8).toString('hex')}`;
  const concurrency = o.concurrency ?? deps.env.WORKER_CONCURRENCY;
  const webhookConcurrency = o.webhookConcurrency ?? deps.env.WEBHOOK_CONCURRENCY;
  const pool = new pg.Pool({ connectionString: deps.pool.options.connectionString, application_name: instance, max: concurrency + webhookConcurrency + 6 });
  pool.on('error', (err) => logPoolError('[worker] idle client error', err));
  pool.on('connect', (client) => client.on('error', (err) => logPoolError('[worker] client error', err)));

  const events: WorkerEvents = new EventEmitter();
  // graphile-worker 0.18 locks jobs in the name of the worker pool (locked_by = pool id); older
  // paths use the worker id. Record both as belonging to this instance.
  const lease = (id: string) =>
    recordWorkerLease(deps.db, id, instance).catch((err: Error) => console.error('[worker] lease:', err.message));
  const leases: Array<Promise<unknown>> = [];
  events.on('pool:create', ({ workerPool }) => void leases.push(lease(workerPool.id)));
  events.on('worker:create', ({ worker }) => void leases.push(lease(worker.workerId)));

  await releaseDeadWorkers(deps.db).catch((err: Error) => console.error('[worker] sweep:', err.message));
  const { [TASKS.webhookDeliver]: webhookTask, ...mainTasks } = createTaskList(deps, o);
  const runner = await run({
    pgPool: pool,
    concurrency,
    noHandleSignals: true,
    pollInterval: o.pollInterval ?? 1000,
    events,
    taskList: mainTasks,
    parsedCronItems: o.cron === false ? [] : parseCrontab(crontab),
  });
  const webhookRunner = await run({
    pgPool: pool,
    concurrency: webhookConcurrency,
    noHandleSignals: true,
    pollInterval: o.pollInterval ?? 1000,
    events,
    taskList: { [TASKS.webhookDeliver]: webhookTask },
    parsedCronItems: [],
  });
  await Promise.all(leases);
  const sweeper = setInterval(() => {
    void touchInstanceLeases(deps.db, instance)
      .then(() => releaseDeadWorkers(deps.db))
      .catch((err: Error) => console.error('[worker] sweep:', err.message));
  }, SWEEP_MS);
  sweeper.unref();

  return {
    runner,
    webhookRunner,
    instance,
    async stop() {
      clearInterval(sweeper);
      await Promise.all([runner.stop(), webhookRunner.stop()].map((p) => p.catch((err: Error) => console.error('[worker] stop:', err.message))));
      await dropInstanceLeases(deps.db, instance).catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
