// Job-completion webhooks. A bulk job created with a webhook_url gets one signed POST when it ends
// (completed or failed). Delivery runs as the graphile-worker task `webhook-deliver`; a non-2xx
// answer, a timeout or a network error fails the task and graphile-worker retries it with
// exponential backoff (about 3 s, 7 s, 20 s, 55 s … up to MAX_WEBHOOK_ATTEMPTS, ~2.5 h in all).
// The body is the same bytes on every attempt; receivers de-duplicate with X-Mailvet-Delivery.
import { TASKS } from '../../lib/tasks';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { checkAddress } from '../../../probe/index';
import type { AppDeps } from '../../deps';
import { writeAudit } from '../audit/audit';
import { checkWebhookUrl, guardedLookup } from './webhook-url';
import { SIGNATURE_HEADER, signWebhookBody, webhookSigningSecret } from './webhook-signing';

export const WEBHOOK_TASK = TASKS.webhookDeliver;
export const MAX_WEBHOOK_ATTEMPTS = 10;
export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookPayload {
  event: 'job.completed' | 'job.failed';
  job_id: string;
  status: 'completed' | 'failed';
  total_emails: number;
  processed_emails: number;
  created_at: string;
  completed_at: string | null;
}

/**
 * Queues the completion webhook of a finished job, if it has a webhook_url (otherwise does
 * nothing). Call it from the job's finalize step with the same transaction that marks the job
 * completed or failed, so the webhook is queued exactly when that commits. Calling it twice is
 * harmless: one task per job (job key), and a delivered webhook is never sent again.
 */
export async function enqueueWebhook(db: Db, o: { jobId: string }): Promise<void> {
  await sql`
    select graphile_worker.add_job(
      ${WEBHOOK_TASK}::text,
      json_build_object('jobId', j.id::text),
      max_attempts := ${MAX_WEBHOOK_ATTEMPTS}::smallint,
      job_key := ${WEBHOOK_TASK}::text || ':' || j.id::text,
      job_key_mode := 'unsafe_dedupe'
    )
    from validation_job j
    where j.id = ${o.jobId}::uuid and j.webhook_url is not null`.execute(db);
}

export function webhookBody(p: WebhookPayload): string {
  return JSON.stringify(p);
}

export type DeliveryOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'skipped'; reason: 'no_job' | 'no_webhook' | 'not_finished' | 'already_delivered' }
  | { kind: 'refused'; message: string };

interface SendResult {
  status: number;
}

/** One POST with a hard timeout; the response body is drained and ignored. */
function post(url: URL, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        timeout: WEBHOOK_TIMEOUT_MS,
        ...(allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${WEBHOOK_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function alreadyDelivered(db: Db, jobId: string): Promise<boolean> {
  const row = await db.selectFrom('audit_log').select('id').where('action', '=', 'webhook.delivered').where('target_type', '=', 'validation_job').where('target_id', '=', jobId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Sends a finished job's webhook once. Returns what happened; throws when the receiver did not
 * take it (non-2xx, timeout, network error) so the task is retried.
 */
export async function deliverJobWebhook(deps: Pick<AppDeps, 'db' | 'auth' | 'env'>, jobId: string, attempt: { number: number; max: number }): Promise<DeliveryOutcome> {
  const { db } = deps;
  const job = await db
    .selectFrom('validation_job')
    .select(['id', 'account_id', 'status', 'total_emails', 'processed_emails', 'webhook_url', 'created_at', 'completed_at'])
    .where('id', '=', jobId)
    .executeTakeFirst();
  if (!job) return { kind: 'skipped', reason: 'no_job' };
  if (!job.webhook_url) return { kind: 'skipped', reason: 'no_webhook' };
  if (job.status !== 'completed' && job.status !== 'failed') return { kind: 'skipped', reason: 'not_finished' };
  if (await alreadyDelivered(db, job.id)) return { kind: 'skipped', reason: 'already_delivered' };

  const allowPrivate = deps.env.WEBHOOK_ALLOW_PRIVATE;
  const audit = (action: string, data: Record<string, unknown>) =>
    writeAudit(db, { accountId: job.account_id, actor: 'system', action, targetType: 'validation_job', targetId: job.id, data: { url: job.webhook_url, attempt: attempt.number, ...data } });

  const check = await checkWebhookUrl(job.webhook_url, { allowPrivate });
  const host = check.ok ? check.url.hostname.replace(/^\[(.*)\]$/, '$1') : '';
  if (!check.ok || (!allowPrivate && net.isIP(host) && !checkAddress(host).ok)) {
    const message = check.ok ? 'webhook_url points to a non-public address' : check.message;
    await audit('webhook.failed', { error: message, final: true });
    return { kind: 'refused', message };
  }

  const body = webhookBody({
    event: job.status === 'completed' ? 'job.completed' : 'job.failed',
    job_id: job.id,
    status: job.status,
    total_emails: job.total_emails,
    processed_emails: job.processed_emails,
    created_at: job.created_at.toISOString(),
    completed_at: job.completed_at?.toISOString() ?? null,
  });
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'Mailvet-Webhooks/1.0',
    [SIGNATURE_HEADER]: signWebhookBody(webhookSigningSecret(deps, job.account_id), body),
    'X-Mailvet-Event': job.status === 'completed' ? 'job.completed' : 'job.failed',
    'X-Mailvet-Delivery': job.id,
    'X-Mailvet-Attempt': String(attempt.number),
  };

  let error: string;
  try {
    const res = await post(check.url, body, headers, allowPrivate);
    if (res.status >= 200 && res.status < 300) {
      await audit('webhook.delivered', { status: res.status });
      return { kind: 'delivered', status: res.status };
    }
    error = `receiver answered HTTP ${res.status}`;
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  if (attempt.number >= attempt.max) await audit('webhook.failed', { error, final: true });
  throw new Error(`webhook for job ${job.id} not delivered (attempt ${attempt.number}/${attempt.max}): ${error}`);
}
