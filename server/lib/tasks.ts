// The graphile-worker tasks, named once: identifier → payload. The worker's task list
// (worker/task-list.ts) must have exactly these, and every enqueue (features/*, in SQL too) takes
// its identifier from TASKS, so a renamed or mistyped task fails typecheck instead of waiting
// forever in the queue. Cron-started tasks take { now? } (a fake clock for tests).
export interface TaskPayloads {
  'bulk-validate-chunk': { jobId: string; chunkNo: number };
  'bulk-dispatch': { now?: string };
  'schedule-tick': { now?: string };
  'schedule-run': { scheduleId: string; now?: string };
  'retention-purge': { now?: string };
  'unverified-purge': { now?: string };
  'quota-reset': { now?: string };
  /** `{ jobId }`: payloads queued before delivery rows existed (a job's own webhook_url). */
  'webhook-deliver': { deliveryId: string } | { jobId: string };
  'billing-tick': { now?: string };
  'billing-reconcile': { now?: string };
}

export type TaskName = keyof TaskPayloads;

export const TASKS = {
  bulkValidateChunk: 'bulk-validate-chunk',
  bulkDispatch: 'bulk-dispatch',
  scheduleTick: 'schedule-tick',
  scheduleRun: 'schedule-run',
  retentionPurge: 'retention-purge',
  unverifiedPurge: 'unverified-purge',
  quotaReset: 'quota-reset',
  webhookDeliver: 'webhook-deliver',
  billingTick: 'billing-tick',
  billingReconcile: 'billing-reconcile',
} as const satisfies Record<string, TaskName>;
