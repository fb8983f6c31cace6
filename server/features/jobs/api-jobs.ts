// POST /v1/bulk over the bulk job service: the list is normalised and de-duplicated the way a CSV
// is (csv-import normalizeEmail), the job is created by jobs.service.ts (credits checked, chunks
// queued) and, in the same transaction, given the caller's webhook_url.
import type { Db } from '../../../db/client';
import type { PlanType } from '../../contracts/plans';
import { addressKey, normalizeEmail } from './csv-cells';
import { createJobInTransaction } from './jobs.service';
import { apiKeyAuditFacts } from '../api-keys/api-keys.queries';
import { depthForPlan } from '../validation/validation.service';

export const API_JOB_FILENAME = 'api-request';

/** Unique normalised addresses (addressKey) in request order, as first written; blanks dropped. */
export function uniqueAddresses(emails: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of emails) {
    const e = normalizeEmail(raw);
    const key = addressKey(e);
    if (e !== '' && !seen.has(key)) seen.set(key, e);
  }
  return [...seen.values()];
}

export async function createApiBulkJob(
  db: Db,
  o: { accountId: string; keyId: string; plan: PlanType; emails: string[]; webhookUrl: string | null; sandbox?: boolean; filename?: string },
): Promise<{ jobId: string; totalEmails: number }> {
  return db.transaction().execute(async (trx) => {
    const job = await createJobInTransaction(trx, {
      accountId: o.accountId,
      userId: null,
      filename: o.filename ?? API_JOB_FILENAME,
      emails: o.emails,
      source: 'api',
      depth: depthForPlan(o.plan),
      // A test key's job: answered from the sandbox table by the same workers, free of charge.
      chargeCredits: !o.sandbox,
      // Logged as the key's work, naming the key (not as a user's: there is none).
      actor: 'api_key',
      auditFacts: await apiKeyAuditFacts(trx, o.accountId, o.keyId),
    });
    if (o.webhookUrl || o.sandbox) {
      await trx
        .updateTable('validation_job')
        .set({ ...(o.webhookUrl ? { webhook_url: o.webhookUrl } : {}), ...(o.sandbox ? { is_sandbox: true } : {}) })
        .where('id', '=', job.jobId)
        .execute();
    }
    return job;
  });
}
