// Frozen: never edit a landed migration; add a new one.
// Idempotency-Key on /v1 POSTs: one row per (account, key) for 24 hours, with a hash of the
// request it answered and, once answered, the stored response (status and body) to replay.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_key')
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer') // null while the first request is still running
    .addColumn('body', 'text')
    .addColumn('content_type', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_key_pkey', ['account_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_key_created_idx').on('idempotency_key').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_key').execute();
}
