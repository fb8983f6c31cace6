// Retention (run daily by the retention-purge task): results, jobs, stored files and webhook deliveries older than 90 days are deleted
// (spec section 9). Idempotent: a second run finds nothing.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { writeAudit } from '../audit/audit';
import { purgeIdempotencyKeys } from '../idempotency/idempotency.service';
import { deleteValidationFile, purgeValidationFiles } from '../storage/storage';
import { purgeWebhookDeliveries } from '../webhooks/webhooks.service';

export const RETENTION_DAYS = 90;

export interface PurgeCounts {
  jobs: number;
  results: number;
  files: number;
}

const BATCH = 5_000;

export async function purgeExpired(deps: { db: Db; storageDir: string }, now: Date): Promise<PurgeCounts> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * 86_400_000);
  const counts: PurgeCounts = { jobs: 0, results: 0, files: 0 };
  // Jobs first: their results go with them (on delete cascade), their files right after.
  for (;;) {
    const jobs = await deps.db
      .deleteFrom('validation_job')
      .where('id', 'in', (eb) => eb.selectFrom('validation_job').select('id').where('created_at', '<', cutoff).limit(200))
      .returning(['id', 'file_path'])
      .execute();
    counts.jobs += jobs.length;
    for (const j of jobs) {
      if (!j.file_path) continue;
      await deleteValidationFile(deps.storageDir, j.file_path).catch(() => undefined);
      counts.files++;
    }
    if (jobs.length < 200) break;
  }
  // Then any other result older than the cutoff (single checks, results of younger jobs are kept whole).
  for (;;) {
    const r = await sql<{ n: number }>`
      with gone as (
        delete from validation_result where id in (select id from validation_result where checked_at < ${cutoff} and job_id is null limit ${BATCH}) returning 1
      ) select count(*)::int as n from gone`.execute(deps.db);
    const n = r.rows[0]?.n ?? 0;
    counts.results += n;
    if (n < BATCH) break;
  }
  // Files whose job is gone (or never got one): by the timestamp in their name.
  counts.files += await purgeValidationFiles(deps.storageDir, cutoff);
  if (counts.jobs + counts.results + counts.files > 0) {
    await writeAudit(deps.db, { accountId: null, actor: 'system', action: 'retention.purged', data: { cutoff: cutoff.toISOString(), ...counts } });
  }
  await purgeIdempotencyKeys(deps.db); // Idempotency-Key answers are kept 24 hours
  await purgeWebhookDeliveries(deps.db, cutoff); // the webhook delivery log: 90 days, like results
  return counts;
}

