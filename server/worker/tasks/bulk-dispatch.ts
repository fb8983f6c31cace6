// bulk-dispatch (cron, every minute): the sweep of features/jobs/chunk-dispatch.ts. Each account
// has at most a window of bulk chunks queued; the transaction that ends one queues the next, and
// this refills any account still below its window (normally none).
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../../deps';
import { dispatchAllAccounts } from '../../features/jobs/chunk-dispatch';

export function bulkDispatchTask(deps: AppDeps): Task {
  return async (_payload, helpers) => {
    const n = await dispatchAllAccounts(deps.db);
    if (n > 0) helpers.logger.warn(`bulk-dispatch: queued ${n} chunk(s) no transaction had queued`);
  };
}
