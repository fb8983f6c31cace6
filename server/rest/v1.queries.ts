// Reads behind GET /v1/jobs/{id} and /results. Scoped to the key's account: another tenant's job is
// simply not found.
import type { Db } from '../../db/client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PublicJobRow {
  id: string;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  total_emails: number;
  processed_emails: number;
  created_at: Date;
  completed_at: Date | null;
}

export async function findAccountJob(db: Db, accountId: string, jobId: string): Promise<PublicJobRow | null> {
  if (!UUID.test(jobId)) return null;
  const row = await db
    .selectFrom('validation_job')
    .select(['id', 'status', 'total_emails', 'processed_emails', 'created_at', 'completed_at'])
    .where('id', '=', jobId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ?? null;
}

/** One page of a job's results in insertion order; `after` is the last row id of the previous page. */
export async function jobResultsAfter(db: Db, accountId: string, jobId: string, after: number, limit: number) {
  return db
    .selectFrom('validation_result')
    .select(['id', 'email', 'result', 'reason', 'deliverability_score', 'is_syntax_valid', 'is_mx_valid', 'is_smtp_valid', 'disposable_provider', 'role_detected', 'charged'])
    .where('account_id', '=', accountId)
    .where('job_id', '=', jobId)
    .where('id', '>', after)
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
}
