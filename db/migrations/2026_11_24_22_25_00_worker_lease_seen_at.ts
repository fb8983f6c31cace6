// Frozen: never edit a landed migration; add a new one.
// A worker's lease says when the runner last said it was alive (every few seconds): a lock is
// released only when its runner has neither a connection nor a recent heartbeat, so a live worker
// whose connections were cut for a moment (a failover, a pooler closing idle connections; behind a
// transaction pooler its idle connections are not seen at all) keeps the chunks it is running.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('worker_lease').addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('worker_lease').dropColumn('seen_at').execute();
}
