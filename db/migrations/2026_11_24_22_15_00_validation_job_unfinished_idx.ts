// Frozen: never edit a landed migration; add a new one.
// The unfinished jobs of an account, found without walking its history: each chunk that completes
// refills the account's window of queued chunks from them (server/features/jobs/chunk-dispatch.ts),
// a new job's credit check adds up what they hold, and the bulk-dispatch sweep lists the accounts
// that have any (every minute, over every account's jobs).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists validation_job_unfinished_idx on validation_job (account_id, created_at) where status in ('pending', 'processing')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists validation_job_unfinished_idx`.execute(db);
}
