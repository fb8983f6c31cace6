// Cancelling a bulk job (POST /v1/jobs/{id}/cancel, History's Cancel). One transaction under the
// job's row lock (the lock every result batch takes, bulk-pipeline.ts storeBatch): the job becomes
// 'cancelled', its queued chunk tasks are removed, and the workers already on it stop at their
// next batch or poll, storing nothing more. The results done so far stay (viewable, downloadable).
// The job's webhook_url (and account endpoints subscribed to it) get job.cancelled.
//
// Credits: a job takes one credit per stored result, in that result's transaction; nothing is held
// for the addresses still waiting. So the addresses a cancel leaves unchecked cost nothing: the
// balance has paid for exactly the charged results, and it stays so (no later batch can charge).
// Cancelling again returns the same answer and changes nothing.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { TASKS } from '../../lib/tasks';
import { dispatchChunks } from './chunk-dispatch';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { enqueueWebhook } from '../webhooks/webhook-queue';
import { accountJobOr404 } from './job-results';
import { apiKeyAuditFacts } from '../api-keys/api-keys.queries';
import type { JobView } from './jobs.queries';

export interface CancelOutcome {
  job: JobView;
  /** Addresses with a stored result (kept). */
  processed: number;
  /** Addresses never checked. */
  unprocessed: number;
  /** Credits the kept results cost. */
  creditsCharged: number;
  /** Credits the unchecked addresses did not cost (a job is charged per stored result). */
  creditsNotCharged: number;
}

export async function cancelJob(db: Db, o: { accountId: string; jobId: string; userId: string | null; actor: 'user' | 'api_key'; apiKeyId?: string }): Promise<CancelOutcome> {
  const existing = await accountJobOr404(db, o.accountId, o.jobId);
  await db.transaction().execute(async (trx) => {
    const job = await trx
      .selectFrom('validation_job')
      .select(['id', 'status', 'total_emails', 'processed_emails'])
      .where('id', '=', existing.id)
      .where('account_id', '=', o.accountId)
      .forUpdate()
      .executeTakeFirst();
    if (!job) throw new AppError('NOT_FOUND', 'Job not found.');
    if (job.status === 'cancelled') return; // the same answer again, nothing changes
    if (job.status === 'completed' || job.status === 'failed') {
      throw new AppError('CONFLICT', `This job has already ${job.status === 'completed' ? 'completed' : 'failed'}; there is nothing to cancel.`, { details: { job_status: job.status } });
    }
    await cancelLockedJob(trx, job, o);
  });
  return cancelOutcome(db, o.accountId, existing.id);
}

/**
 * Cancels a job still pending or processing whose row the caller's transaction holds locked
 * (SELECT … FOR UPDATE): as cancelJob, for a cancel that is part of another change (deleting the
 * schedule whose run it is). `reason` goes into the audit entry.
 */
export async function cancelLockedJob(
  trx: Db,
  job: { id: string; total_emails: number; processed_emails: number },
  o: { accountId: string; userId: string | null; actor: 'user' | 'api_key' | 'system'; apiKeyId?: string; reason?: string },
): Promise<void> {
  const now = new Date();
  await trx.updateTable('validation_job').set({ status: 'cancelled', cancelled_at: now, completed_at: now, updated_at: now }).where('id', '=', job.id).execute();
  // Queued chunk tasks go now; a chunk a worker holds stops at its next batch (status check under this lock).
  await sql`
    select graphile_worker.remove_job(${TASKS.bulkValidateChunk}::text || ':' || ${job.id}::text || ':' || c.chunk_no)
    from validation_job_chunk c where c.job_id = ${job.id}::uuid and c.completed_at is null`.execute(trx);
  // The account's other jobs take the window the cancelled one held (chunk-dispatch.ts).
  await dispatchChunks(trx, o.accountId);
  await writeAudit(trx, {
    accountId: o.accountId,
    actorUserId: o.userId,
    actor: o.actor,
    action: 'job.cancelled',
    targetType: 'validation_job',
    targetId: job.id,
    data: { total_emails: job.total_emails, processed_emails: job.processed_emails, ...(o.reason ? { reason: o.reason } : {}), ...(o.apiKeyId ? await apiKeyAuditFacts(trx, o.accountId, o.apiKeyId) : {}) },
  });
  // The job ended: its webhook_url and the account endpoints subscribed to job.cancelled are told,
  // queued with this commit (a second cancel finds it cancelled and queues nothing).
  await enqueueWebhook(trx, { jobId: job.id });
}

/** What a cancelled job kept and cost (read after the cancel commits: no batch can change it). */
async function cancelOutcome(db: Db, accountId: string, jobId: string): Promise<CancelOutcome> {
  const job = await accountJobOr404(db, accountId, jobId);
  const charged = await db
    .selectFrom('validation_result as r')
    .innerJoin('validation_job as j', 'j.id', 'r.job_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('r.job_id', '=', jobId)
    .where('r.account_id', '=', accountId)
    .where('r.charged', '=', true)
    .where('j.charge_credits', '=', true)
    .executeTakeFirstOrThrow();
  const unprocessed = Math.max(0, job.total_emails - job.processed_emails);
  return { job, processed: job.processed_emails, unprocessed, creditsCharged: Number(charged.n), creditsNotCharged: unprocessed };
}
