// bulk-dispatch (cron, every minute): the sweep of features/jobs/chunk-dispatch.ts. Each account
// has at most a window of bulk chunks queued; the transaction that ends one queues the next, and
// this refills any account still below its window (normally none). It first fails any job a chunk
// task of which graphile-worker gave up on without failing the job (bulk-pipeline.ts failGivenUpJobs).
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../../deps';
import { dispatchAllAccounts } from '../../features/jobs/chunk-dispatch';
import { failGivenUpJobs } from '../../features/jobs/bulk-pipeline';

export function bulkDispatchTask(deps: AppDeps): Task {
  return async (_payload, helpers) => {
    const failed = await failGivenUpJobs(deps.db);
    if (failed > 0) helpers.logger.warn(`bulk-dispatch: failed ${failed} job(s) whose chunk task had run out of attempts`);
    const n = await dispatchAllAccounts(deps.db);
    if (n > 0) helpers.logger.warn(`bulk-dispatch: queued ${n} chunk(s) no transaction had queued`);
  };
}
