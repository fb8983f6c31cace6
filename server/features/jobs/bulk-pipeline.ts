// One chunk of a bulk job: send its addresses (one or a few domains) to the probe over HTTP and
// commit the results in small batches. Each batch inserts rows ON CONFLICT (job_id, email) DO
// NOTHING and, in the same transaction, takes one credit per row actually inserted and advances
// the job's counters; so a crash, a retry or a second worker delivering the same chunk never
// loses, duplicates or double-charges an address. Only addresses without a result are sent again.
// A batch the balance no longer covers (real-time checks took the last credits) keeps and charges
// the results the balance pays for, in order, and the job fails saying it ran out.
// A cancelled job (job-cancel.ts) stops here: each batch reads the job's status under its row lock
// and stores nothing once it is cancelled, and the probe stream is aborted (checked on every batch
// and every CANCEL_POLL_MS while the probe is silent), so no further address is probed or charged.
// A failed job stops the same way: when one chunk runs out of attempts (or credits) and fails the
// job, the job's other chunks still running store and charge nothing more, so the failed job's
// counts, its job.failed webhook and the balance stay as they were when it failed.
// A chunk of a suspended account's job (one queued before the suspension) probes nothing: the job
// fails with the suspension message; one running when the suspension comes stores and charges
// nothing from its next batch on, and fails the job the same way. Nor does one of a job asked deeper than the account's plan now
// checks (a job queued on a paid plan, the account since refunded or its cancelled period ended:
// Free, no bulk and no SMTP mailbox check): it fails saying so.
import { sql } from 'kysely';
import { ProbeClient } from '../../../probe/client/probe-client';
import type { VerificationResult } from '../../../probe/contract';
import type { Db } from '../../../db/client';
import { takeCredits } from '../credits/credits';
import { SUSPENDED_MESSAGE } from '../billing/service-state';
import { depthForPlan } from '../validation/validation.service';
import type { Depth } from '../../../probe/contract';
import { resultRow } from '../validation/results.queries';
import { creditsNeededMessage } from './jobs.service';
import { enqueueWebhook } from '../webhooks/webhook-queue';
import { sandboxResult } from '../api-keys/sandbox';
import { TASKS } from '../../lib/tasks';
import { dispatchChunks } from './chunk-dispatch';

export interface ChunkRunOptions {
  db: Db;
  probe: { urls: string[]; token: string };
  /** Rows per committed batch. */
  batchSize?: number;
  /** Longest a batch waits before it is committed (progress stays live). */
  flushMs?: number;
  /** In-task retries while the probe is unreachable: first wait, cap, and total budget. */
  retry?: { initialMs: number; maxMs: number; budgetMs: number };
  signal?: AbortSignal;
  log?: (msg: string) => void;
}

export const DEFAULT_RETRY = { initialMs: 250, maxMs: 4_000, budgetMs: 45_000 };

class OutOfCredits extends Error {}
class JobStopped extends Error {}

/** How often a chunk waiting on the probe looks whether its job was cancelled. */
export const CANCEL_POLL_MS = 500;

export type ChunkOutcome = 'done' | 'job-gone' | 'job-finished' | 'out-of-credits' | 'cancelled' | 'suspended' | 'plan-changed';

/** The failed job's reason when the account fell to a plan that does not check this deep (Free). */
export const PLAN_CHANGED_MESSAGE =
  'Your account is now on the Free plan, which includes neither bulk validation nor the SMTP mailbox check, so this job stopped. Its results so far are kept; upgrade from the Billing page to validate the rest.';

const DEPTH_RANK: Record<Depth, number> = { syntax: 0, mx: 1, smtp: 2 };

/** Why a paid job's chunk may do no more work now (a suspension, a plan below the job's depth), or null. */
async function accountStop(db: Db, accountId: string, depth: Depth): Promise<'suspended' | 'plan-changed' | null> {
  const row = await db.selectFrom('account').select(['subscription_status', 'plan']).where('id', '=', accountId).executeTakeFirst();
  if (!row) return null;
  if (row.subscription_status === 'suspended') return 'suspended';
  return DEPTH_RANK[depth] > DEPTH_RANK[depthForPlan(row.plan)] ? 'plan-changed' : null;
}

export async function runChunk(o: ChunkRunOptions, jobId: string, chunkNo: number): Promise<ChunkOutcome> {
  const { db } = o;
  const job = await db
    .selectFrom('validation_job')
    .select(['id', 'account_id', 'created_by', 'status', 'depth', 'charge_credits', 'is_sandbox'])
    .where('id', '=', jobId)
    .executeTakeFirst();
  if (!job) return 'job-gone';
  if (job.status === 'cancelled') return 'cancelled';
  if (job.status === 'completed' || job.status === 'failed') return 'job-finished';
  const chunk = await db.selectFrom('validation_job_chunk').select(['emails', 'completed_at']).where('job_id', '=', jobId).where('chunk_no', '=', chunkNo).executeTakeFirst();
  if (!chunk) return 'job-gone';

  if (job.status === 'pending') {
    await db.updateTable('validation_job').set({ status: 'processing', started_at: new Date(), updated_at: new Date() }).where('id', '=', jobId).where('status', '=', 'pending').execute();
  }

  if (!chunk.completed_at) {
    await db.updateTable('validation_job_chunk').set({ attempts: sql`attempts + 1` }).where('job_id', '=', jobId).where('chunk_no', '=', chunkNo).execute();
    const retry = o.retry ?? DEFAULT_RETRY;
    const started = Date.now();
    let wait = retry.initialMs;
    for (;;) {
      const stopped = await jobStopped(db, jobId); // also between retries: never probe a cancelled or failed job
      if (stopped) return stopped;
      // A job queued before its account was suspended (an unpaid renewal) does no more paid work:
      // it fails with the suspension message; what it stored so far stays readable and exportable.
      // Likewise a job asked deeper than the account's plan now allows (fallen to Free).
      const stop = job.charge_credits && !job.is_sandbox ? await accountStop(db, job.account_id, job.depth) : null;
      if (stop) {
        await failJob(db, jobId, stop === 'suspended' ? SUSPENDED_MESSAGE : PLAN_CHANGED_MESSAGE);
        return stop;
      }
      const remaining = await unansweredEmails(db, jobId, chunk.emails);
      if (remaining.length === 0) break;
      try {
        await verifyAndStore(o, job, remaining, () => clearChunkError(db, jobId, chunkNo));
        continue; // re-check: anything the probe skipped is asked again
      } catch (err) {
        if (err instanceof OutOfCredits) {
          await failJob(db, jobId, err.message);
          return 'out-of-credits';
        }
        if (err instanceof JobStopped) return (await jobStopped(db, jobId)) ?? 'job-finished';
        if (o.signal?.aborted) throw err;
        const message = err instanceof Error ? err.message : String(err);
        await db.updateTable('validation_job_chunk').set({ last_error: message.slice(0, 500) }).where('job_id', '=', jobId).where('chunk_no', '=', chunkNo).execute();
        // Touch the job so History's live list hears of it (it shows the job as waiting for the service).
        await db.updateTable('validation_job').set({ updated_at: new Date() }).where('id', '=', jobId).execute();
        if (Date.now() - started + wait > retry.budgetMs) throw err; // graphile-worker retries later, with its own backoff
        o.log?.(`chunk ${jobId}#${chunkNo}: ${message}; retrying in ${wait} ms`);
        await sleep(wait, o.signal);
        wait = Math.min(wait * 2, retry.maxMs);
      }
    }
  }
  await completeChunk(db, jobId, chunkNo);
  return 'done';
}

/**
 * The service answers this chunk again after it failed: it no longer reads as waiting (the job is
 * touched, so History hears of it), and every chunk task still waiting out graphile-worker's backoff
 * after a failed attempt (hours, after a long outage) is run now instead: the service is back.
 */
async function clearChunkError(db: Db, jobId: string, chunkNo: number): Promise<void> {
  const cleared = await db.updateTable('validation_job_chunk').set({ last_error: null }).where('job_id', '=', jobId).where('chunk_no', '=', chunkNo).where('last_error', 'is not', null).executeTakeFirst();
  if (Number(cleared.numUpdatedRows) === 0) return;
  await db.updateTable('validation_job').set({ updated_at: new Date() }).where('id', '=', jobId).execute();
  // The queue holds only tasks still to run: a small table, whatever the history of jobs.
  await sql`
    update graphile_worker._private_jobs set run_at = now()
    where key like ${`${TASKS.bulkValidateChunk}:%`} and locked_at is null and attempts > 0 and attempts < max_attempts and run_at > now()`.execute(db);
}

async function unansweredEmails(db: Db, jobId: string, emails: string[]): Promise<string[]> {
  const done = await db.selectFrom('validation_result').select('email').where('job_id', '=', jobId).where('email', '=', sql<string>`any(${emails}::text[])`).execute();
  if (done.length === 0) return emails;
  const answered = new Set(done.map((r) => r.email));
  return emails.filter((e) => !answered.has(e));
}

type JobInfo = { id: string; account_id: string; created_by: string | null; depth: 'syntax' | 'mx' | 'smtp'; charge_credits: boolean; is_sandbox?: boolean };

// One client per probe fleet, kept across chunks: which daemons are down, and each big domain's
// catch-all answer (shared with the other nodes as a hint), hold for the whole job and the next.
const clients = new Map<string, ProbeClient>();
function fleetClient(probe: { urls: string[]; token: string }): ProbeClient {
  const key = `${probe.token}\n${probe.urls.join(',')}`;
  let client = clients.get(key);
  if (!client) {
    client = new ProbeClient({ urls: probe.urls, token: probe.token, retry: { rounds: 1 } });
    clients.set(key, client);
  }
  return client;
}

async function verifyAndStore(o: ChunkRunOptions, job: JobInfo, emails: string[], onAnswer?: () => Promise<void>): Promise<void> {
  if (job.is_sandbox) {
    // A test key's job: the sandbox table answers, no probe is asked, nothing is charged.
    const batchSize = o.batchSize ?? 100;
    for (let i = 0; i < emails.length; i += batchSize) {
      if ((await storeBatch(o.db, job, emails.slice(i, i + batchSize).map(sandboxResult))) === 'stopped') throw new JobStopped();
    }
    return;
  }
  const client = fleetClient(o.probe);
  // Aborted when the worker stops (o.signal) or the job is cancelled or failed.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    stop.abort();
  };
  const poll = setInterval(() => {
    void jobStopped(o.db, job.id)
      .then((c) => c && cancel())
      .catch(() => undefined);
  }, CANCEL_POLL_MS);
  const wanted = new Set(emails);
  const batchSize = o.batchSize ?? 100;
  const flushMs = o.flushMs ?? 300;
  let batch: VerificationResult[] = [];
  let lastFlush = Date.now();
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    const rows = batch;
    batch = [];
    lastFlush = Date.now();
    // One write at a time, in order; the probe keeps streaming meanwhile.
    writing = writing.then(async () => {
      if (cancelled) return;
      if ((await storeBatch(o.db, job, rows)) === 'stopped') cancel();
    });
    return writing;
  };
  const timer = setInterval(() => {
    if (batch.length > 0 && Date.now() - lastFlush >= flushMs) void flush().catch(() => undefined);
  }, Math.max(50, Math.floor(flushMs / 2)));
  try {
    for await (const r of client.verify(emails, { depth: job.depth, mode: 'bulk', signal: stop.signal })) {
      if (cancelled) break;
      if (!wanted.has(r.email)) continue;
      wanted.delete(r.email);
      if (onAnswer) {
        const first = onAnswer;
        onAnswer = undefined;
        await first().catch(() => undefined);
      }
      batch.push(r);
      if (batch.length >= batchSize) await flush();
    }
  } catch (err) {
    if (!cancelled) throw err;
  } finally {
    clearInterval(timer);
    clearInterval(poll);
    o.signal?.removeEventListener('abort', onAbort);
    // Whatever arrived before a failure is still committed (unless the job was cancelled or failed).
    if (batch.length > 0) void flush().catch(() => undefined);
    await writing;
  }
  if (cancelled) throw new JobStopped();
}

/** 'cancelled' or 'job-finished' (failed) when the job takes no more results, else null. */
async function jobStopped(db: Db, jobId: string): Promise<'cancelled' | 'job-finished' | null> {
  const row = await db.selectFrom('validation_job').select('status').where('id', '=', jobId).executeTakeFirst();
  return row?.status === 'cancelled' ? 'cancelled' : row?.status === 'failed' ? 'job-finished' : null;
}

/**
 * One batch: results, credits and counters in one transaction, under the job's row lock (the same
 * lock a cancel and failJob take): a batch either commits before the cancel (or failure) or finds
 * the job cancelled (or failed) and stores nothing.
 */
export async function storeBatch(db: Db, job: JobInfo, results: VerificationResult[]): Promise<'stored' | 'stopped'> {
  if (results.length === 0) return 'stored';
  const outcome = await db.transaction().execute(async (trx): Promise<'stored' | 'stopped' | { short: string }> => {
    const current = await trx.selectFrom('validation_job').select('status').where('id', '=', job.id).forUpdate().executeTakeFirst();
    if (!current || current.status === 'cancelled' || current.status === 'failed') return 'stopped';
    // Suspended, or fallen below the job's depth, while this chunk ran (up to 500 addresses, four
    // chunks at once): nothing more is stored or charged, and the job fails with the reason.
    const stop = job.charge_credits && !job.is_sandbox ? await accountStop(trx, job.account_id, job.depth) : null;
    if (stop) {
      await failJobIn(trx, job.id, stop === 'suspended' ? SUSPENDED_MESSAGE : PLAN_CHANGED_MESSAGE);
      return 'stopped';
    }
    const inserted = await trx
      .insertInto('validation_result')
      .values(results.map((r) => ({ ...resultRow({ accountId: job.account_id, jobId: job.id, userId: job.created_by, result: r }), ...(job.is_sandbox ? { charged: false } : {}) })))
      .onConflict((oc) => oc.columns(['job_id', 'email']).where('job_id', 'is not', null).doNothing())
      .returning(['email', 'result', 'charged'])
      .execute();
    if (inserted.length === 0) return 'stored';
    // Fair charging (contracts/charging.ts): undecided results are stored with charged = false.
    let kept = inserted;
    let short: string | null = null;
    if (job.charge_credits) {
      const billable = inserted.filter((r) => r.charged).length;
      if (!(await takeCredits(trx, job.account_id, billable))) {
        // The balance no longer covers the batch (real-time checks took the last credits): keep the
        // results it pays for, in the order they came, charge exactly those, and stop the job.
        const account = await trx.selectFrom('account').select('credits_balance').where('id', '=', job.account_id).forUpdate().executeTakeFirstOrThrow();
        const byEmail = new Map(inserted.map((r) => [r.email, r]));
        const ordered = results.map((r) => byEmail.get(r.email)).filter((r) => r !== undefined);
        let left = account.credits_balance;
        let cut = 0;
        while (cut < ordered.length && (!ordered[cut]!.charged || left > 0)) {
          if (ordered[cut]!.charged) left -= 1;
          cut += 1;
        }
        kept = ordered.slice(0, cut);
        const dropped = ordered.slice(cut).map((r) => r.email);
        if (dropped.length > 0) await trx.deleteFrom('validation_result').where('job_id', '=', job.id).where('email', '=', sql<string>`any(${dropped}::text[])`).execute();
        await takeCredits(trx, job.account_id, account.credits_balance - left);
        short = `Ran out of credits while validating. ${creditsNeededMessage(billable, account.credits_balance)}`;
      }
    }
    const count = (kind: string) => kept.filter((r) => r.result === kind).length;
    if (kept.length > 0) {
      await trx
        .updateTable('validation_job')
        .set({
          processed_emails: sql`processed_emails + ${kept.length}`,
          valid_count: sql`valid_count + ${count('valid')}`,
          invalid_count: sql`invalid_count + ${count('invalid')}`,
          risky_count: sql`risky_count + ${count('risky')}`,
          updated_at: new Date(),
        })
        .where('id', '=', job.id)
        .execute();
    }
    return short === null ? 'stored' : { short };
  });
  if (typeof outcome === 'object') throw new OutOfCredits(outcome.short);
  return outcome;
}

/** Marks the chunk done; the last chunk completes the job (rows are serialised on the job's lock). */
async function completeChunk(db: Db, jobId: string, chunkNo: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const job = await trx.selectFrom('validation_job').select(['status', 'account_id']).where('id', '=', jobId).forUpdate().executeTakeFirst();
    if (!job) return;
    await trx.updateTable('validation_job_chunk').set({ completed_at: new Date(), last_error: null }).where('job_id', '=', jobId).where('chunk_no', '=', chunkNo).where('completed_at', 'is', null).execute();
    if (job.status !== 'processing' && job.status !== 'pending') return;
    const open = await trx.selectFrom('validation_job_chunk').select('chunk_no').where('job_id', '=', jobId).where('completed_at', 'is', null).limit(1).executeTakeFirst();
    if (!open) {
      await trx.updateTable('validation_job').set({ status: 'completed', completed_at: new Date(), updated_at: new Date(), error: null }).where('id', '=', jobId).execute();
      await enqueueWebhook(trx, { jobId }); // only when the job has a webhook_url
    }
    // The account's next chunk goes to the tail of the queue, behind other accounts' (chunk-dispatch.ts).
    await dispatchChunks(trx, job.account_id);
  });
}

/** The failed job's reason when a chunk task ran out of graphile-worker's attempts. */
export function givenUpMessage(attempts: number, reason: string): string {
  return `The verification service was unavailable; the job stopped after ${attempts} attempts (${reason}).`;
}

/**
 * The sweep's other half (bulk-dispatch): a chunk task graphile-worker gave up on (its last attempt
 * failed, and so did the failJob meant to end the job: the database away a moment, or a task that
 * killed its worker at every attempt) stays in its queue for good, never run again. Its job stayed
 * pending or processing for ever, and the task held one of the account's window of slots, its other
 * jobs queued behind it until someone cancelled the job. Such a job fails now, with the reason, and
 * its slots go to the account's next job (failJob). Returns how many jobs failed.
 */
export async function failGivenUpJobs(db: Db): Promise<number> {
  const r = await sql<{ job_id: string; attempts: number; last_error: string | null }>`
    select distinct on (j.id) j.id as job_id, q.attempts, q.last_error
      from graphile_worker._private_jobs q
      join validation_job j on j.id = (q.payload->>'jobId')::uuid
     where q.key like ${`${TASKS.bulkValidateChunk}:%`} and q.locked_at is null and q.attempts >= q.max_attempts
       and j.status in ('pending', 'processing')
     order by j.id, q.attempts desc`.execute(db);
  for (const row of r.rows) await failJob(db, row.job_id, givenUpMessage(row.attempts, row.last_error ?? 'no error was recorded'));
  return r.rows.length;
}

/** A job that cannot finish: failed, with the reason History shows. */
export async function failJob(db: Db, jobId: string, reason: string): Promise<void> {
  await db.transaction().execute((trx) => failJobIn(trx, jobId, reason));
}

/** failJob in the caller's transaction. */
async function failJobIn(trx: Db, jobId: string, reason: string): Promise<void> {
  const job = await trx.selectFrom('validation_job').select(['status', 'account_id']).where('id', '=', jobId).forUpdate().executeTakeFirst();
  if (!job || job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled') return;
  await trx.updateTable('validation_job').set({ status: 'failed', error: reason.slice(0, 1000), completed_at: new Date(), updated_at: new Date() }).where('id', '=', jobId).execute();
  await enqueueWebhook(trx, { jobId }); // only when the job has a webhook_url
  // Its queued chunks no longer hold the account's window: its other jobs' chunks take their place.
  await sql`
    select graphile_worker.remove_job(${TASKS.bulkValidateChunk}::text || ':' || ${jobId}::text || ':' || c.chunk_no)
    from validation_job_chunk c where c.job_id = ${jobId}::uuid and c.completed_at is null`.execute(trx);
  await dispatchChunks(trx, job.account_id);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}
