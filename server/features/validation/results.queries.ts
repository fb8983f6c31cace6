import { isCharged } from '../../contracts/charging';
import type { Kysely } from 'kysely';
import type { VerificationResult } from '../../../probe/contract';
import type { Database, NewValidationResult } from '../../../db/types';

/**
 * The dashboard's result fields (spec section 3, Validation result) plus the engine's reason: the
 * same names in the engine's result and in a stored row.
 */
export const RESULT_FIELDS = [
  'result',
  'reason',
  'is_syntax_valid',
  'is_dns_valid',
  'is_mx_valid',
  'is_smtp_valid',
  'deliverability_score',
  'mx_hosts',
  'role_detected',
  'disposable_provider',
  'free_provider',
  'catch_all',
  'suggestion',
  'domain_age_days',
] as const;
const VERDICT_FIELDS = [...RESULT_FIELDS, 'verdict'] as const;
type VerdictField = (typeof VERDICT_FIELDS)[number];

/** The result fields and the verdict of an engine result or a stored row, copied as they are. */
export function pickVerdictFields<T extends Partial<Record<VerdictField, unknown>>>(r: T): Pick<T, VerdictField> {
  return Object.fromEntries(VERDICT_FIELDS.map((k) => [k, r[k]])) as Pick<T, VerdictField>;
}

/** The stored row for one verification (dashboard shape + the engine's reason and evidence). */
export function resultRow(o: { accountId: string; jobId: string | null; userId: string | null; email?: string; result: VerificationResult }): NewValidationResult {
  const r = o.result;
  return {
    account_id: o.accountId,
    job_id: o.jobId,
    created_by: o.userId,
    email: o.email ?? r.email,
    ...pickVerdictFields(r),
    evidence: JSON.stringify(r.evidence),
    charged: isCharged(r),
    // A single check without a user is an API key's (reports tell the sources apart by this).
    via_api: o.jobId === null && o.userId === null,
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
