// Frozen: never edit a landed migration; add a new one.
// Issue #12: sandbox (test) keys, scoped keys and a per-key rate limit. Existing keys keep every
// scope, stay live and follow the plan's rate. A job started with a test key is a sandbox job: its
// results come from the sandbox table, it costs nothing and analytics leave it out.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_key')
    .addColumn('is_test', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('scopes', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{validate,bulk,results,account}'::text[]`))
    .addColumn('rate_limit_per_second', 'integer', (c) => c.check(sql`rate_limit_per_second is null or rate_limit_per_second > 0`))
    .execute();
  await db.schema.alterTable('validation_job').addColumn('is_sandbox', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('validation_job').dropColumn('is_sandbox').execute();
  await db.schema.alterTable('api_key').dropColumn('rate_limit_per_second').dropColumn('scopes').dropColumn('is_test').execute();
}
