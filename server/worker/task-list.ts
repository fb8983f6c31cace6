import type { Task } from 'graphile-worker';
import type { AppDeps } from '../deps';
import type { TaskName } from '../lib/tasks';
import type { ChunkRunOptions } from '../features/jobs/bulk-pipeline';
import { billingReconcileTask } from './tasks/billing-reconcile';
import { billingTickTask } from './tasks/billing-tick';
import { bulkDispatchTask } from './tasks/bulk-dispatch';
import { bulkValidateChunkTask } from './tasks/bulk-validate-chunk';
import { quotaResetTask } from './tasks/quota-reset';
import { retentionPurgeTask } from './tasks/retention-purge';
import { scheduleRunTask } from './tasks/schedule-run';
import { scheduleTickTask } from './tasks/schedule-tick';
import { unverifiedPurgeTask } from './tasks/unverified-purge';
import { webhookDeliverTask } from './tasks/webhook-deliver';

export interface TaskListOptions {
  /** Tunes chunk batching/retries (tests and benchmarks). */
  chunk?: Partial<ChunkRunOptions>;
}

/** One task per file under tasks/; the identifier equals the file name and is one of lib/tasks.ts's TaskName. */
export function createTaskList(deps: AppDeps, o: TaskListOptions = {}): Record<TaskName, Task> {
  return {
    'bulk-validate-chunk': bulkValidateChunkTask(deps, o.chunk),
    'bulk-dispatch': bulkDispatchTask(deps),
    'schedule-tick': scheduleTickTask(deps),
    'schedule-run': scheduleRunTask(deps),
    'retention-purge': retentionPurgeTask(deps),
    'unverified-purge': unverifiedPurgeTask(deps),
    'quota-reset': quotaResetTask(deps),
    'webhook-deliver': webhookDeliverTask(deps),
    'billing-tick': billingTickTask(deps),
    'billing-reconcile': billingReconcileTask(deps),
  };
}
