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
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Db } from '../../../db/client';
import type { Database, WebhookDeliveryTable, WebhookEvent } from '../../../db/types';
import { checkAddress, type Reason } from '../../../probe/index';
import { MAX_CHANGES_PER_PAYLOAD, MAX_WEBHOOK_ENDPOINTS, WEBHOOK_RESPONSE_CAP_BYTES, type WebhookDelivery, type WebhookEndpoint } from '../../contracts/webhooks';
import { planAllows, type PlanType } from '../../contracts/plans';
import { GATE_MESSAGES } from '../../trpc/procedures';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { TASKS } from '../../lib/tasks';
import { toPublicJob, type JobWebhookPayload, type ScheduleRunWebhookPayload } from '../../contracts/public-api';
import { accountById } from '../account/account.queries';
import { writeAudit } from '../audit/audit';
import { currentSigningSecret } from './webhook-secret';
import { DELIVERY_HEADER, SIGNATURE_HEADER, SIGNATURE_V2_HEADER, signWebhookBody, signWebhookV2, TIMESTAMP_HEADER, unixSeconds } from './webhook-signing';
import { checkWebhookUrl, guardedLookup } from './webhook-url';

export const WEBHOOK_TASK = TASKS.webhookDeliver;
export const MAX_WEBHOOK_ATTEMPTS = 10;
/** Default of WEBHOOK_TIMEOUT_MS: the whole exchange of one attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

type Q = Kysely<Database>;

/** The bodies we POST, as documented (server/contracts/public-api.ts → the OpenAPI `webhooks`). */
export function webhookBody(p: JobWebhookPayload | ScheduleRunWebhookPayload): string {
  return JSON.stringify(p);
}

// ── Queueing ─────────────────────────────────────────────────────────────────────────────────────

async function queueDelivery(db: Q, d: { id: string; account_id: string }): Promise<void> {
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

interface FinishedJob {
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

async function finishedJob(db: Q, jobId: string): Promise<FinishedJob | 'no_job' | 'not_finished'> {
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
async function insertJobUrlDelivery(db: Q, job: FinishedJob): Promise<{ id: string; account_id: string } | null> {
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

// ── Delivering ───────────────────────────────────────────────────────────────────────────────────

export type DeliveryOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'skipped'; reason: 'no_job' | 'no_webhook' | 'not_finished' | 'already_delivered' | 'no_delivery' | 'already_failed' }
  | { kind: 'refused'; message: string };

interface SendResult {
  status: number;
}

/**
 * One POST bounded as a whole: connect, headers and body must all arrive within `deadlineMs`, and at
 * most `capBytes` of the answer are read (then the connection is closed; the status counts).
 */
export function postWithDeadline(url: URL, body: string, headers: Record<string, string>, o: { allowPrivate: boolean; deadlineMs: number; capBytes?: number; dnsServers?: readonly string[] }): Promise<SendResult> {
  const cap = o.capBytes ?? WEBHOOK_RESPONSE_CAP_BYTES;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (err: Error | null, status?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve({ status: status ?? 0 });
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        agent: false, // no pooled sockets: each attempt is its own connection, closed when it ends
        ...(o.allowPrivate ? {} : { lookup: guardedLookup(o.dnsServers) }),
      },
      (res) => {
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen >= cap) {
            settle(null, res.statusCode);
            req.destroy();
          }
        });
        res.on('end', () => settle(null, res.statusCode));
        res.on('error', (e) => settle(e));
        res.on('close', () => settle(new Error('the receiver closed the connection before the answer ended')));
      },
    );
    const timer = setTimeout(() => {
      const e = new Error(`no complete answer within ${o.deadlineMs} ms`);
      settle(e);
      req.destroy(e);
    }, o.deadlineMs);
    req.on('error', (e) => settle(e));
    req.end(body);
  });
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}

/** What the delivery log says of an account endpoint's delivery once the plan no longer includes account webhooks. */
export const ENDPOINTS_OFF_PLAN_ERROR = 'Account webhooks are no longer on your plan (Enterprise); this delivery was not sent.';

/**
 * Sends one delivery (one attempt). Returns what happened; throws when the receiver did not take
 * it (non-2xx, deadline, network error) so the task is retried. Every attempt is logged.
 */
export async function deliverWebhook(deps: Pick<AppDeps, 'db' | 'auth' | 'env'>, deliveryId: string, attempt: { number: number; max: number }): Promise<DeliveryOutcome> {
  const { db } = deps;
  const d = await db.selectFrom('webhook_delivery').selectAll().where('id', '=', deliveryId).executeTakeFirst();
  if (!d) return { kind: 'skipped', reason: 'no_delivery' };
  if (d.status === 'delivered') return { kind: 'skipped', reason: 'already_delivered' };
  if (d.status === 'failed') return { kind: 'skipped', reason: 'already_failed' };
  // An account endpoint's delivery (a replay of one too) goes out only while the plan includes
  // account webhooks: after a fall below Enterprise nothing more is sent to them, retries included.
  if (d.endpoint_id !== null) {
    const account = await accountById(db, d.account_id);
    if (!account || !planAllows(account.plan, 'integrations')) {
      await db.updateTable('webhook_delivery').set({ status: 'failed', last_error: ENDPOINTS_OFF_PLAN_ERROR, completed_at: new Date() }).where('id', '=', d.id).where('status', '=', 'pending').execute();
      return { kind: 'refused', message: ENDPOINTS_OFF_PLAN_ERROR };
    }
  } else if (!(await goesToJobOwnUrl(db, d))) {
    // Named no endpoint and is not to its job's own webhook_url: its endpoint was deleted (which
    // clears endpoint_id) after it was queued. Nothing goes to a URL the account took away.
    await db.updateTable('webhook_delivery').set({ status: 'failed', last_error: ENDPOINT_DELETED_ERROR, completed_at: new Date() }).where('id', '=', d.id).where('status', '=', 'pending').execute();
    return { kind: 'refused', message: ENDPOINT_DELETED_ERROR };
  }
  // A job's own webhook_url keeps its audit trail (webhook.delivered / webhook.failed on the job).
  const jobUrl = d.endpoint_id === null && d.replay_of === null && d.job_id === d.id;
  const audit = (action: string, data: Record<string, unknown>) =>
    jobUrl ? writeAudit(db, { accountId: d.account_id, actor: 'system', action, targetType: 'validation_job', targetId: d.id, data: { url: d.url, attempt: attempt.number, ...data } }) : Promise.resolve();
  const record = async (r: { statusCode: number | null; latencyMs: number; error: string | null; final: 'delivered' | 'failed' | null }) => {
    await db.transaction().execute(async (trx) => {
      // The delivery may be gone meanwhile (its account deleted): then there is nothing to log.
      const still = await trx
        .updateTable('webhook_delivery')
        .set({
          attempts: attempt.number,
          last_status_code: r.statusCode,
          last_latency_ms: r.latencyMs,
          last_error: r.error,
          ...(r.final ? { status: r.final, completed_at: new Date() } : {}),
        })
        .where('id', '=', d.id)
        .returning('id')
        .executeTakeFirst();
      if (still) await trx.insertInto('webhook_attempt').values({ delivery_id: d.id, account_id: d.account_id, attempt: attempt.number, status_code: r.statusCode, latency_ms: r.latencyMs, error: r.error }).execute();
    });
  };

  /** An attempt the receiver did not take: logged, then thrown so the task is retried (the last one ends the delivery). */
  const failedAttempt = async (r: { statusCode: number | null; latencyMs: number; error: string }): Promise<never> => {
    const final = attempt.number >= attempt.max;
    await record({ ...r, final: final ? 'failed' : null });
    if (final) await audit('webhook.failed', { error: r.error, final: true });
    throw new Error(`webhook ${d.id} (${d.event}) not delivered (attempt ${attempt.number}/${attempt.max}): ${r.error}`);
  };

  const allowPrivate = deps.env.WEBHOOK_ALLOW_PRIVATE;
  const checkStarted = performance.now();
  const check = await checkWebhookUrl(d.url, { allowPrivate, dnsServers: deps.env.WEBHOOK_DNS_SERVERS });
  if (!check.ok && check.unresolved) {
    // DNS did not answer now (a timeout, SERVFAIL, a zone being changed): a network error like a
    // refused connection, retried with the backoff; only the last attempt ends the delivery.
    return failedAttempt({ statusCode: null, latencyMs: Math.round(performance.now() - checkStarted), error: check.message });
  }
  const host = check.ok ? check.url.hostname.replace(/^\[(.*)\]$/, '$1') : '';
  if (!check.ok || (!allowPrivate && net.isIP(host) && !checkAddress(host).ok)) {
    const message = check.ok ? 'webhook_url points to a non-public address' : check.message;
    await record({ statusCode: null, latencyMs: 0, error: message, final: 'failed' });
    await audit('webhook.failed', { error: message, final: true });
    return { kind: 'refused', message };
  }

  // Signed now, for this attempt: a retry carries its own timestamp (webhook-signing.ts).
  const secret = await currentSigningSecret(deps, d.account_id);
  const timestamp = unixSeconds();
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'Mailvet-Webhooks/1.0',
    [SIGNATURE_HEADER]: signWebhookBody(secret, d.body),
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_V2_HEADER]: signWebhookV2(secret, { timestamp, deliveryId: d.id, rawBody: d.body }),
    'X-Mailvet-Event': d.event,
    [DELIVERY_HEADER]: d.id,
    'X-Mailvet-Attempt': String(attempt.number),
  };

  const started = performance.now();
  let error: string;
  let statusCode: number | null = null;
  try {
    const res = await postWithDeadline(check.url, d.body, headers, { allowPrivate, deadlineMs: deps.env.WEBHOOK_TIMEOUT_MS ?? WEBHOOK_TIMEOUT_MS, dnsServers: deps.env.WEBHOOK_DNS_SERVERS });
    statusCode = res.status;
    if (res.status >= 200 && res.status < 300) {
      await record({ statusCode, latencyMs: Math.round(performance.now() - started), error: null, final: 'delivered' });
      await audit('webhook.delivered', { status: res.status });
      return { kind: 'delivered', status: res.status };
    }
    error = `receiver answered HTTP ${res.status}`;
  } catch (err) {
    error = errorText(err);
  }
  return failedAttempt({ statusCode, latencyMs: Math.round(performance.now() - started), error });
}

/**
 * Delivers a finished job's own webhook_url (creating its delivery row if the job was never queued):
 * the task's path for payloads queued before delivery rows existed, and the tests' direct door.
 */
export async function deliverJobWebhook(deps: Pick<AppDeps, 'db' | 'auth' | 'env'>, jobId: string, attempt: { number: number; max: number }): Promise<DeliveryOutcome> {
  const job = await finishedJob(deps.db, jobId);
  if (job === 'no_job') return { kind: 'skipped', reason: 'no_job' };
  if (job === 'not_finished') return { kind: 'skipped', reason: 'not_finished' };
  if (!job.webhook_url) return { kind: 'skipped', reason: 'no_webhook' };
  await insertJobUrlDelivery(deps.db, job);
  return deliverWebhook(deps, job.id, attempt);
}

// ── The dashboard: endpoints, the delivery log, replay ──────────────────────────────────────────

function endpointView(r: { id: string; url: string; events: WebhookEvent[]; created_at: Date }): WebhookEndpoint {
  return { id: r.id, url: r.url, events: r.events, created_at: r.created_at.toISOString() };
}

export async function listEndpoints(db: Db, accountId: string): Promise<WebhookEndpoint[]> {
  const rows = await db.selectFrom('webhook_endpoint').select(['id', 'url', 'events', 'created_at']).where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
  return rows.map(endpointView);
}

export async function createEndpoint(deps: Pick<AppDeps, 'db' | 'env'>, o: { accountId: string; userId: string; url: string; events: WebhookEvent[] }): Promise<WebhookEndpoint> {
  const check = await checkWebhookUrl(o.url, { allowPrivate: deps.env.WEBHOOK_ALLOW_PRIVATE, dnsServers: deps.env.WEBHOOK_DNS_SERVERS });
  if (!check.ok) throw new AppError('BAD_INPUT', check.message);
  const url = check.url.toString();
  return deps.db.transaction().execute(async (trx) => {
    // Serialised per account, so two tabs cannot both add the last allowed endpoint.
    await trx.selectFrom('account').select('id').where('id', '=', o.accountId).forUpdate().executeTakeFirst();
    const existing = await trx.selectFrom('webhook_endpoint').select(['url']).where('account_id', '=', o.accountId).execute();
    if (existing.some((e) => e.url === url)) throw new AppError('CONFLICT', 'This webhook URL is already registered; change its events instead.');
    if (existing.length >= MAX_WEBHOOK_ENDPOINTS) throw new AppError('BAD_INPUT', `An account can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`);
    const events = [...new Set(o.events)];
    const row = await trx.insertInto('webhook_endpoint').values({ account_id: o.accountId, url, events, created_by: o.userId }).returning(['id', 'url', 'events', 'created_at']).executeTakeFirstOrThrow();
    await writeAudit(trx as unknown as Db, { accountId: o.accountId, actorUserId: o.userId, action: 'webhook.endpoint_created', targetType: 'webhook_endpoint', targetId: row.id, data: { url, events } });
    return endpointView(row);
  });
}

/** What the delivery log says of a delivery whose event its endpoint stopped subscribing to before it got through. */
export const EVENT_UNSUBSCRIBED_ERROR = 'The webhook endpoint no longer subscribes to this event; this delivery was not retried.';

/**
 * Ends the endpoint's deliveries still pending (waiting for a retry) as failed, with `reason` in the
 * log, and removes their queued retries; `keep` lists the events whose deliveries go on. An attempt
 * already under way finishes and is logged.
 */
async function stopPendingDeliveries(trx: Q, o: { accountId: string; endpointId: string; keep: WebhookEvent[]; reason: string }): Promise<void> {
  let q = trx
    .updateTable('webhook_delivery')
    .set({ status: 'failed', last_error: o.reason, completed_at: new Date() })
    .where('account_id', '=', o.accountId)
    .where('endpoint_id', '=', o.endpointId)
    .where('status', '=', 'pending');
  if (o.keep.length > 0) q = q.where('event', 'not in', o.keep);
  const stopped = await q.returning('id').execute();
  for (const d of stopped) await sql`select graphile_worker.remove_job(${`${WEBHOOK_TASK}:${d.id}`}::text)`.execute(trx);
}

export async function updateEndpoint(db: Db, o: { accountId: string; userId: string; id: string; events: WebhookEvent[] }): Promise<WebhookEndpoint> {
  return db.transaction().execute(async (trx) => {
    const events = [...new Set(o.events)];
    const row = await trx.updateTable('webhook_endpoint').set({ events }).where('id', '=', o.id).where('account_id', '=', o.accountId).returning(['id', 'url', 'events', 'created_at']).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
    // Unsubscribed events: their pending retries stop, as when the endpoint is deleted.
    await stopPendingDeliveries(trx, { accountId: o.accountId, endpointId: row.id, keep: events, reason: EVENT_UNSUBSCRIBED_ERROR });
    await writeAudit(trx as unknown as Db, { accountId: o.accountId, actorUserId: o.userId, action: 'webhook.endpoint_updated', targetType: 'webhook_endpoint', targetId: row.id, data: { url: row.url, events } });
    return endpointView(row);
  });
}

/**
 * Whether a delivery that names no endpoint is one to its job's own webhook_url (a job's delivery,
 * or a replay of one): the URL is the one the job still names. A delivery of an account endpoint
 * since deleted names none either (the delete clears endpoint_id), and must not be sent.
 */
async function goesToJobOwnUrl(q: Q, d: { account_id: string; job_id: string | null; url: string }): Promise<boolean> {
  if (d.job_id === null) return false;
  const job = await q.selectFrom('validation_job').select('webhook_url').where('id', '=', d.job_id).where('account_id', '=', d.account_id).executeTakeFirst();
  return job?.webhook_url === d.url;
}

/** Why a delivery of a deleted endpoint cannot be replayed. */
export const REPLAY_ENDPOINT_DELETED_MESSAGE = "This delivery's webhook endpoint was deleted; nothing more is sent to its URL. Add the endpoint again to receive new events.";

/** What the delivery log says of a delivery whose endpoint was removed before it got through. */
export const ENDPOINT_DELETED_ERROR = 'The webhook endpoint was deleted; this delivery was not retried.';

/**
 * Removes an endpoint. Its deliveries still pending (waiting for a retry) end here as failed, with
 * their queued retries removed: nothing more is sent to a URL the account took away. An attempt
 * already under way finishes and is logged.
 */
export async function deleteEndpoint(db: Db, o: { accountId: string; userId: string; id: string }): Promise<{ id: string }> {
  return db.transaction().execute(async (trx) => {
    // Locked first: a replay under way (which holds it FOR SHARE) has inserted its delivery by now,
    // so it is stopped below with the rest; one that comes after finds the endpoint gone.
    await trx.selectFrom('webhook_endpoint').select('id').where('id', '=', o.id).where('account_id', '=', o.accountId).forUpdate().executeTakeFirst();
    // Before the delete, which sets their endpoint_id to null (replays carry it too). Nothing is
    // changed if the endpoint is not this account's: the NOT_FOUND below rolls this back.
    await stopPendingDeliveries(trx, { accountId: o.accountId, endpointId: o.id, keep: [], reason: ENDPOINT_DELETED_ERROR });
    const row = await trx.deleteFrom('webhook_endpoint').where('id', '=', o.id).where('account_id', '=', o.accountId).returning(['id', 'url']).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
    await writeAudit(trx as unknown as Db, { accountId: o.accountId, actorUserId: o.userId, action: 'webhook.endpoint_deleted', targetType: 'webhook_endpoint', targetId: row.id, data: { url: row.url } });
    return { id: row.id };
  });
}

type DeliveryRow = Pick<
  Selectable<WebhookDeliveryTable>,
  'id' | 'event' | 'url' | 'status' | 'attempts' | 'last_status_code' | 'last_latency_ms' | 'last_error' | 'job_id' | 'replay_of' | 'created_at' | 'completed_at'
>;

function deliveryView(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    event: r.event,
    url: r.url,
    status: r.status,
    attempts: r.attempts,
    status_code: r.last_status_code,
    latency_ms: r.last_latency_ms,
    error: r.last_error,
    job_id: r.job_id,
    replay_of: r.replay_of,
    created_at: r.created_at.toISOString(),
    completed_at: r.completed_at?.toISOString() ?? null,
  };
}

const DELIVERY_COLUMNS = ['id', 'event', 'url', 'status', 'attempts', 'last_status_code', 'last_latency_ms', 'last_error', 'job_id', 'replay_of', 'created_at', 'completed_at'] as const;

/** The account's deliveries, newest first, a page at a time (cursor: the last id of the previous page). */
export async function listDeliveries(
  db: Db,
  accountId: string,
  o: { cursor?: string; event?: WebhookEvent; status?: 'pending' | 'delivered' | 'failed'; limit: number },
): Promise<{ items: WebhookDelivery[]; next_cursor: string | null }> {
  let q = db.selectFrom('webhook_delivery').select([...DELIVERY_COLUMNS]).where('account_id', '=', accountId);
  if (o.event) q = q.where('event', '=', o.event);
  if (o.status) q = q.where('status', '=', o.status);
  if (o.cursor) {
    const at = await db.selectFrom('webhook_delivery').select(['created_at', 'id']).where('id', '=', o.cursor).where('account_id', '=', accountId).executeTakeFirst();
    if (!at) throw new AppError('BAD_INPUT', 'Invalid cursor.');
    q = q.where((eb) => eb.or([eb('created_at', '<', at.created_at), eb.and([eb('created_at', '=', at.created_at), eb('id', '<', at.id)])]));
  }
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(o.limit + 1).execute();
  const items = rows.slice(0, o.limit).map(deliveryView);
  return { items, next_cursor: rows.length > o.limit ? items[items.length - 1]!.id : null };
}

/** One delivery with its attempts (and the exact body sent). */
export async function getDelivery(db: Db, accountId: string, id: string) {
  const d = await db.selectFrom('webhook_delivery').select([...DELIVERY_COLUMNS, 'body']).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  if (!d) throw new AppError('NOT_FOUND', 'Delivery not found.');
  const attempts = await db.selectFrom('webhook_attempt').select(['attempt', 'status_code', 'latency_ms', 'error', 'created_at']).where('delivery_id', '=', id).where('account_id', '=', accountId).orderBy('id').execute();
  return { ...deliveryView(d), body: d.body, attempt_log: attempts.map((a) => ({ attempt: a.attempt, status_code: a.status_code, latency_ms: a.latency_ms, error: a.error, at: a.created_at.toISOString() })) };
}

/**
 * Sends a delivery's exact body again as a new delivery (own id, own log), signed with today's secret.
 * An account endpoint's delivery needs the plan that includes account webhooks (Enterprise); a job's
 * own webhook_url, the plan with job webhooks (the router's gate).
 */
export async function replayDelivery(db: Db, o: { accountId: string; userId: string; plan: PlanType; id: string }): Promise<WebhookDelivery> {
  return db.transaction().execute(async (trx) => {
    const d = await trx.selectFrom('webhook_delivery').select(['id', 'account_id', 'endpoint_id', 'job_id', 'event', 'url', 'body']).where('id', '=', o.id).where('account_id', '=', o.accountId).executeTakeFirst();
    if (!d) throw new AppError('NOT_FOUND', 'Delivery not found.');
    if (d.endpoint_id !== null && !planAllows(o.plan, 'integrations')) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES.integrations);
    if (d.endpoint_id !== null) {
      // Held until this replay commits: deleteEndpoint then stops it with the endpoint's other pending deliveries.
      const endpoint = await trx.selectFrom('webhook_endpoint').select('id').where('id', '=', d.endpoint_id).forShare().executeTakeFirst();
      if (!endpoint) throw new AppError('CONFLICT', REPLAY_ENDPOINT_DELETED_MESSAGE);
    } else if (!(await goesToJobOwnUrl(trx, d))) throw new AppError('CONFLICT', REPLAY_ENDPOINT_DELETED_MESSAGE);
    const row = await trx
      .insertInto('webhook_delivery')
      .values({ account_id: d.account_id, endpoint_id: d.endpoint_id, job_id: d.job_id, event: d.event, url: d.url, body: d.body, replay_of: d.id, created_by: o.userId })
      .returning([...DELIVERY_COLUMNS, 'account_id'])
      .executeTakeFirstOrThrow();
    await writeAudit(trx as unknown as Db, { accountId: o.accountId, actorUserId: o.userId, action: 'webhook.replayed', targetType: 'webhook_delivery', targetId: row.id, data: { replay_of: d.id, event: d.event, url: d.url } });
    await queueDelivery(trx, row);
    return deliveryView(row);
  });
}

/**
 * Retention: deliveries (their bodies hold addresses) and their attempts older than the cutoff are
 * deleted, a batch at a time. Pending ones too: retries end within hours (WEBHOOK_RETRY_WINDOW_HOURS),
 * so a delivery still pending after 90 days is stuck (its task lost) and would otherwise keep its
 * addresses for ever. Called by the retention purge.
 */
export async function purgeWebhookDeliveries(db: Db, cutoff: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await db
      .deleteFrom('webhook_delivery')
      .where('id', 'in', (eb) => eb.selectFrom('webhook_delivery').select('id').where('created_at', '<', cutoff).limit(1000))
      .returning('id')
      .execute();
    total += gone.length;
    if (gone.length < 1000) return total;
  }
}
