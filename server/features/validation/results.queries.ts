import { isCharged } from '../../contracts/charging';
import type { Kysely } from 'kysely';
import type { VerificationResult } from '../../../probe/contract';
import type { Database, NewValidationResult } from '../../../db/types';

/** The stored row for one verification (dashboard shape + the engine's reason and evidence). */
export function resultRow(o: { accountId: string; jobId: string | null; userId: string | null; email?: string; result: VerificationResult }): NewValidationResult {
  const r = o.result;
  return {
    account_id: o.accountId,
    job_id: o.jobId,
    created_by: o.userId,
    email: o.email ?? r.email,
    result: r.result,
    verdict: r.verdict,
    reason: r.reason,
    is_syntax_valid: r.is_syntax_valid,
    is_dns_valid: r.is_dns_valid,
    is_mx_valid: r.is_mx_valid,
    is_smtp_valid: r.is_smtp_valid,
    deliverability_score: r.deliverability_score,
    mx_hosts: r.mx_hosts,
    role_detected: r.role_detected,
    disposable_provider: r.disposable_provider,
    free_provider: r.free_provider,
    catch_all: r.catch_all,
    suggestion: r.suggestion,
    domain_age_days: r.domain_age_days,
    evidence: JSON.stringify(r.evidence),
    charged: isCharged(r),
  };
}

/** Inserts job results once each: a retried or duplicated chunk inserts nothing twice. Returns the rows inserted. */
export async function insertJobResults(trx: Kysely<Database>, rows: NewValidationResult[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await trx
    .insertInto('validation_result')
    .values(rows)
    .onConflict((oc) => oc.columns(['job_id', 'email']).where('job_id', 'is not', null).doNothing())
    .returning('id')
    .execute();
  return inserted.length;
}
