// Frozen: never edit a landed migration; add a new one.
// A bulk job can be cancelled (POST /v1/jobs/{id}/cancel, History's Cancel): it keeps the results
// done so far, its unchecked addresses are never probed or charged, and it says when it stopped.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table validation_job drop constraint if exists validation_job_status_check`.execute(db);
  await sql`alter table validation_job add constraint validation_job_status_check check (status in ('pending','processing','completed','failed','cancelled'))`.execute(db);
  await db.schema.alterTable('validation_job').addColumn('cancelled_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('validation_job').dropColumn('cancelled_at').execute();
  await sql`alter table validation_job drop constraint if exists validation_job_status_check`.execute(db);
  await sql`alter table validation_job add constraint validation_job_status_check check (status in ('pending','processing','completed','failed'))`.execute(db);
}
