// Frozen: never edit a landed migration; add a new one.
// Outgoing webhooks: each account's signing secret (AES-256-GCM ciphertext, never the plain
// secret), the account's webhook endpoints with the events they subscribe to, one row per
// delivery (the exact body sent on every attempt) and one row per attempt (status, latency, error).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_signing_secret')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('account.id').onDelete('cascade'))
    .addColumn('ciphertext', 'text', (c) => c.notNull())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('webhook_endpoint')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', sql`text[]`, (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('webhook_endpoint_account_idx').on('webhook_endpoint').column('account_id').execute();

  await db.schema
    .createTable('webhook_delivery')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'uuid', (c) => c.references('webhook_endpoint.id').onDelete('set null'))
    .addColumn('job_id', 'uuid', (c) => c.references('validation_job.id').onDelete('set null'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_latency_ms', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('replay_of', 'uuid', (c) => c.references('webhook_delivery.id').onDelete('set null'))
    .addColumn('dedupe_key', 'text')
    .addColumn('created_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('webhook_delivery_account_idx').on('webhook_delivery').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('webhook_delivery_dedupe_idx').on('webhook_delivery').column('dedupe_key').unique().execute();

  await db.schema
    .createTable('webhook_attempt')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'uuid', (c) => c.notNull().references('webhook_delivery.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('webhook_attempt_delivery_idx').on('webhook_attempt').column('delivery_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_attempt').execute();
  await db.schema.dropTable('webhook_delivery').execute();
  await db.schema.dropTable('webhook_endpoint').execute();
  await db.schema.dropTable('webhook_signing_secret').execute();
}
