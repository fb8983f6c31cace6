// Operator view and control of bulk jobs (the `mailvet jobs list`, `show` and `replay` commands).
import type { Db } from '../../../db/client';
import type { JobStatus } from '../../../db/types';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { findJob, jobColumns, jobInputEmails, jobStalled, reasonBreakdown, toJobView } from './jobs.queries';
import { createJob } from './jobs.service';
import { depthForPlan } from '../validation/validation.service';

/** Recent jobs of every account (or one), newest first. */
export async function listJobs(db: Db, o: { accountId?: string; status?: JobStatus; limit: number }) {
  let q = db.selectFrom('validation_job').select(jobColumns).select(jobStalled).orderBy('created_at', 'desc').limit(o.limit);
  if (o.accountId) q = q.where('account_id', '=', o.accountId);
  if (o.status) q = q.where('status', '=', o.status);
  return (await q.execute()).map((r) => ({ ...toJobView(r), account_id: r.account_id }));
}

/** One job of any account with its reasons and chunks. */
export async function showJob(db: Db, id: string) {
  const owner = await db.selectFrom('validation_job').select('account_id').where('id', '=', id).executeTakeFirst().catch(() => undefined);
  if (!owner) throw new AppError('NOT_FOUND', `No job ${id}.`);
  const job = (await findJob(db, owner.account_id, id))!;
  const chunks = await db.selectFrom('validation_job_chunk').select(['chunk_no', 'size', 'attempts', 'completed_at', 'last_error']).where('job_id', '=', id).orderBy('chunk_no').execute();
  const reasons = await reasonBreakdown(db, owner.account_id, id);
  return { accountId: owner.account_id, job, chunks, reasons };
}

export async function replayJob(db: Db, jobId: string, o: { charge?: boolean } = {}) {
  const job = await db.selectFrom('validation_job').select(['id', 'account_id', 'filename']).where('id', '=', jobId).executeTakeFirst();
  if (!job) throw new AppError('NOT_FOUND', `No job ${jobId}.`);
  const account = await db.selectFrom('account').select('plan').where('id', '=', job.account_id).executeTakeFirstOrThrow();
  const emails = await jobInputEmails(db, job.id);
  if (emails.length === 0) throw new AppError('CONFLICT', `Job ${jobId} has no stored addresses to replay.`);
  const created = await createJob(db, {
    accountId: job.account_id,
    userId: null,
    filename: `${job.filename} (replay)`.slice(0, 255),
    emails,
    source: 'replay',
    depth: depthForPlan(account.plan),
    replayOf: job.id,
    chargeCredits: o.charge === true,
    actor: 'operator',
  });
  await writeAudit(db, { accountId: job.account_id, actor: 'operator', action: 'job.replayed', targetType: 'validation_job', targetId: job.id, data: { new_job_id: created.jobId, total_emails: created.totalEmails, charged: o.charge === true } });
  return created;
}
