// One attempt of one webhook delivery (webhook-queue.ts creates and queues them): the checks that
// it may still go out (plan, endpoint not deleted, public address), the signed POST bounded as a
// whole, and the attempt's row in the delivery log. A failed attempt throws, so graphile-worker
// retries it with its backoff until MAX_WEBHOOK_ATTEMPTS.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { checkAddress } from '../../../probe/index';
import { WEBHOOK_RESPONSE_CAP_BYTES } from '../../contracts/webhooks';
import { planAllows } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { accountById } from '../account/account.queries';
import { writeAudit } from '../audit/audit';
import { currentSigningSecret } from './webhook-secret';
import { DELIVERY_HEADER, SIGNATURE_HEADER, SIGNATURE_V2_HEADER, signWebhookBody, signWebhookV2, TIMESTAMP_HEADER, unixSeconds } from './webhook-signing';
import { checkWebhookUrl, guardedLookup } from './webhook-url';
import { finishedJob, insertJobUrlDelivery } from './webhook-queue';

/** Default of WEBHOOK_TIMEOUT_MS: the whole exchange of one attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

type Q = Kysely<Database>;

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

/** What the delivery log says of an attempt whose signing secret could not be read. */
export const SECRET_UNREADABLE_ERROR = 'The webhook signing secret could not be read, so nothing was sent. Rotate the signing secret on the API Keys page; the next attempt is signed with the new one.';

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

  // Signed now, for this attempt: a retry carries its own timestamp (webhook-signing.ts). A secret
  // that cannot be read (WEBHOOK_SECRET_KEY changed under it) is a logged failed attempt that says
  // what fixes it, not an error before anything is logged (the log said "Queued" for ever).
  let secret: string;
  try {
    secret = await currentSigningSecret(deps, d.account_id);
  } catch {
    return failedAttempt({ statusCode: null, latencyMs: 0, error: SECRET_UNREADABLE_ERROR });
  }
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

/** What the delivery log says of a delivery whose endpoint was removed before it got through. */
export const ENDPOINT_DELETED_ERROR = 'The webhook endpoint was deleted; this delivery was not retried.';

/**
 * Whether a delivery that names no endpoint is one to its job's own webhook_url (a job's delivery,
 * or a replay of one): the URL is the one the job still names. A delivery of an account endpoint
 * since deleted names none either (the delete clears endpoint_id), and must not be sent.
 */
export async function goesToJobOwnUrl(q: Q, d: { account_id: string; job_id: string | null; url: string }): Promise<boolean> {
  if (d.job_id === null) return false;
  const job = await q.selectFrom('validation_job').select('webhook_url').where('id', '=', d.job_id).where('account_id', '=', d.account_id).executeTakeFirst();
  return job?.webhook_url === d.url;
}

