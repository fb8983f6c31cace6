// Frozen: never edit a landed migration; add a new one.
// Fair charging: a result whose verdict is unknown because nothing could be decided (DNS failure,
// unreachable or refusing server, greylisting past the deadline) costs nothing. Each result row says
// whether its credit was kept; rows stored before this rule were all charged.
import { type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('validation_result').addColumn('charged', 'boolean', (c) => c.notNull().defaultTo(true)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('validation_result').dropColumn('charged').execute();
}
