// Frozen: never edit a landed migration; add a new one.
// Where a single check came from (reports' source: dashboard or API) is stored with it: it was read
// from created_by being null, which a deleted user's checks also become (on delete set null), so
// their dashboard checks turned into API checks in Business reporting. Rows already stored keep the
// old reading.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('validation_result').addColumn('via_api', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
  await sql`update validation_result set via_api = true where job_id is null and created_by is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('validation_result').dropColumn('via_api').execute();
}
