import { parseCrontab, run, type Runner } from 'graphile-worker';
import type { AppDeps } from '../deps';
import { crontab } from './crontab';
import { createTaskList } from './task-list';

export async function startWorker(deps: AppDeps, o: { concurrency?: number } = {}): Promise<Runner> {
  return run({
    pgPool: deps.pool,
    concurrency: o.concurrency ?? deps.env.WORKER_CONCURRENCY,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: createTaskList(deps),
    parsedCronItems: parseCrontab(crontab),
  });
}
