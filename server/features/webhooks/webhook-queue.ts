// Outgoing webhooks. Two kinds of target get the same signed POSTs:
//  - a bulk job's own `webhook_url` (POST /v1/bulk, Pro and up): `job.completed` / `job.failed` /
//    `job.cancelled` (cancelled from History or through the API: the job ended all the same);
//  - the account's webhook endpoints (Enterprise, API Keys page): the events each subscribes to,
//    `job.completed`, `job.failed`, `job.cancelled` and `schedule.run_completed`.
// Every POST is a delivery row (webhook_delivery: the exact body, sent unchanged on every attempt)
// with one row per attempt (webhook_attempt: status code, latency, error). Deliveries run as the
// graphile-worker task `webhook-deliver` on a runner of their own (server/worker/runner.ts:
// WEBHOOK_CONCURRENCY slots, apart from the bulk-job runner) in one named queue per account, so a
// slow receiver holds at most one webhook slot and never a bulk-job slot. One attempt is bounded as a
// whole — connect, headers and body within WEBHOOK_TIMEOUT_MS — and reads at most 64 KB of the
// answer. A non-2xx answer, a timeout or a network error fails the task and graphile-worker retries
// it with exponential backoff (about 3 s, 7 s, 20 s, 55 s … up to MAX_WEBHOOK_ATTEMPTS, ~3.5 h in
// all: WEBHOOK_RETRY_WINDOW_HOURS). Receivers de-duplicate with X-Mailvet-Delivery (a job's own webhook_url uses the job id).
// This file queues them: a finished job's deliveries are created (one row each, keyed so that a
// second call creates none) and handed to graphile-worker. webhook-delivery.ts sends one attempt;
// webhooks.service.ts is the dashboard's side (endpoints, the delivery log, replay, retention).
import { sql, type Kysely } from 'kysely';
import type { Database, WebhookEvent } from '../../../db/types';
import type { Reason } from '../../../probe/index';
import { MAX_CHANGES_PER_PAYLOAD, MAX_WEBHOOK_ATTEMPTS } from '../../contracts/webhooks';
import { planAllows } from '../../contracts/plans';
import { TASKS } from '../../lib/tasks';
import { toPublicJob, type JobWebhookPayload, type ScheduleRunWebhookPayload } from '../../contracts/public-api';
import { accountById } from '../account/account.queries';

export const WEBHOOK_TASK = TASKS.webhookDeliver;
export { MAX_WEBHOOK_ATTEMPTS };

type Q = Kysely<Database>;

/** The bodies we POST, as documented (server/contracts/public-api.ts → the OpenAPI `webhooks`). */
export function webhookBody(p: JobWebhookPayload | ScheduleRunWebhookPayload): string {
  return JSON.stringify(p);
}

export async function queueDelivery(db: Q, d: { id: string; account_id: string }): Promise<void> {
  await sql`
    select graphile_worker.add_job(
      ${WEBHOOK_TASK}::text,
      json_build_object('deliveryId', ${d.id}::text),
      queue_name := ${`webhooks:${d.account_id}`}::text,
      max_attempts := ${MAX_WEBHOOK_ATTEMPTS}::smallint,
      job_key := ${`${WEBHOOK_TASK}:${d.id}`}::text,
      job_key_mode := 'unsafe_dedupe'
    )`.execute(db);
}

export interface FinishedJob {
  id: string;
  account_id: string;
  status: 'completed' | 'failed' | 'cancelled';
  total_emails: number;
  processed_emails: number;
  webhook_url: string | null;
  schedule_id: string | null;
  created_at: Date;
  completed_at: Date | null;
  is_sandbox: boolean;
}

export async function finishedJob(db: Q, jobId: string): Promise<FinishedJob | 'no_job' | 'not_finished'> {
  const job = await db
    .selectFrom('validation_job')
    .select(['id', 'account_id', 'status', 'total_emails', 'processed_emails', 'webhook_url', 'schedule_id', 'created_at', 'completed_at', 'is_sandbox'])
    .where('id', '=', jobId)
    .executeTakeFirst();
  if (!job) return 'no_job';
  if (job.status !== 'completed' && job.status !== 'failed' && job.status !== 'cancelled') return 'not_finished';
  return { ...job, status: job.status };
}

const JOB_EVENTS = { completed: 'job.completed', failed: 'job.failed', cancelled: 'job.cancelled' } as const satisfies Record<FinishedJob['status'], WebhookEvent>;

function jobPayload(job: FinishedJob): JobWebhookPayload {
  return { event: JOB_EVENTS[job.status], ...toPublicJob(job) };
}

/** The delivery to a job's own webhook_url: its id is the job id (X-Mailvet-Delivery), one per job. */
export async function insertJobUrlDelivery(db: Q, job: FinishedJob): Promise<{ id: string; account_id: string } | null> {
  if (!job.webhook_url) return null;
  const payload = jobPayload(job);
  const row = await db
    .insertInto('webhook_delivery')
    .values({ id: job.id, account_id: job.account_id, job_id: job.id, event: payload.event, url: job.webhook_url, body: webhookBody(payload), dedupe_key: `job:${job.id}` })
    .onConflict((oc) => oc.doNothing())
    .returning(['id', 'account_id'])
    .executeTakeFirst();
  return row ?? null;
}

/** What changed between a schedule's run (this job) and its previous completed run. */
export async function scheduleRunPayload(db: Q, job: FinishedJob): Promise<ScheduleRunWebhookPayload | null> {
  if (!job.schedule_id) return null;
  const schedule = await db.selectFrom('schedule').select(['id', 'name']).where('id', '=', job.schedule_id).where('account_id', '=', job.account_id).executeTakeFirst();
  if (!schedule) return null;
  const previous = await db
    .selectFrom('validation_job')
    .select('id')
    .where('account_id', '=', job.account_id)
    .where('schedule_id', '=', schedule.id)
    .where('status', '=', 'completed')
    .where('id', '<>', job.id)
    .where('created_at', '<', job.created_at)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  let changed: ScheduleRunWebhookPayload['changed'] = [];
  let changedCount = 0;
  if (previous) {
    const base = db
      .selectFrom('validation_result as cur')
      .innerJoin('validation_result as old', (j) => j.onRef('old.email', '=', 'cur.email').on('old.job_id', '=', previous.id).on('old.account_id', '=', job.account_id))
      .where('cur.job_id', '=', job.id)
      .where('cur.account_id', '=', job.account_id)
      .whereRef('cur.result', '<>', 'old.result');
    changedCount = Number((await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    changed = await base.select(['cur.email', 'old.result as previous', 'cur.result as current', 'cur.reason']).$narrowType<{ reason: Reason }>().orderBy('cur.email').limit(MAX_CHANGES_PER_PAYLOAD).execute();
  }
  return {
    event: 'schedule.run_completed',
    schedule_id: schedule.id,
    schedule_name: schedule.name,
    job_id: job.id,
    previous_job_id: previous?.id ?? null,
    total_emails: job.total_emails,
    processed_emails: job.processed_emails,
    completed_at: job.completed_at?.toISOString() ?? null,
    changed,
    changed_count: changedCount,
    truncated: changedCount > changed.length,
  };
}

/**
 * Queues every webhook a finished job owes: its own webhook_url, and the account's endpoints
 * subscribed to job.completed / job.failed / job.cancelled (and, for a completed schedule run,
 * schedule.run_completed). Call it from the job's finalize step (or its cancel) with the same
 * transaction that marks the job completed, failed or cancelled, so the webhooks are queued exactly when that commits. Calling it
 * twice is harmless: each delivery has a key of its own and is created once.
 */
export async function enqueueWebhook(db: Q, o: { jobId: string }): Promise<void> {
  const job = await finishedJob(db, o.jobId);
  if (typeof job === 'string') return;
  const created: Array<{ id: string; account_id: string }> = [];
  const own = await insertJobUrlDelivery(db, job);
  if (own) created.push(own);

  // Endpoints are an Enterprise feature: the plan comes from the account's own door.
  const account = await accountById(db, job.account_id);
  if (account && planAllows(account.plan, 'integrations')) {
    const event: WebhookEvent = JOB_EVENTS[job.status];
    const endpoints = await db.selectFrom('webhook_endpoint').select(['id', 'url', 'events']).where('account_id', '=', job.account_id).execute();
    const want = (e: WebhookEvent) => endpoints.filter((x) => x.events.includes(e));
    const rows: Array<{ endpoint_id: string; url: string; event: WebhookEvent; body: string }> = want(event).map((x) => ({ endpoint_id: x.id, url: x.url, event, body: webhookBody(jobPayload(job)) }));
    if (job.status === 'completed' && job.schedule_id && want('schedule.run_completed').length > 0) {
      const payload = await scheduleRunPayload(db, job);
      if (payload) for (const x of want('schedule.run_completed')) rows.push({ endpoint_id: x.id, url: x.url, event: 'schedule.run_completed', body: webhookBody(payload) });
    }
    if (rows.length > 0) {
      const inserted = await db
        .insertInto('webhook_delivery')
        .values(rows.map((r) => ({ ...r, account_id: job.account_id, job_id: job.id, dedupe_key: `${r.endpoint_id}:${r.event}:${job.id}` })))
        .onConflict((oc) => oc.doNothing())
        .returning(['id', 'account_id'])
        .execute();
      created.push(...inserted);
    }
  }
  for (const d of created) await queueDelivery(db, d);
}
