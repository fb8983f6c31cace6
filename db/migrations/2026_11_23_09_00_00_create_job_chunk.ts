// Frozen: never edit a landed migration; add a new one.
// Bulk jobs keep their input addresses as domain-grouped chunks (one worker task each), so a
// crashed or retried chunk knows exactly what it still owes; jobs remember the schedule or job
// they came from; workers register their ids so the locks of a killed worker are released at once.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('validation_job_chunk')
    .addColumn('job_id', 'uuid', (c) => c.notNull().references('validation_job.id').onDelete('cascade'))
    .addColumn('chunk_no', 'integer', (c) => c.notNull())
    .addColumn('emails', sql`text[]`, (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('completed_at', 'timestamptz')
    .addPrimaryKeyConstraint('validation_job_chunk_pkey', ['job_id', 'chunk_no'])
    .execute();

  await db.schema
    .alterTable('validation_job')
    .addColumn('schedule_id', 'uuid', (c) => c.references('schedule.id').onDelete('set null'))
    .addColumn('replay_of', 'uuid')
    .addColumn('depth', 'text', (c) => c.notNull().defaultTo('smtp').check(sql`depth in ('syntax','mx','smtp')`))
    .addColumn('charge_credits', 'boolean', (c) => c.notNull().defaultTo(true))
    // Tallies of committed results, kept by the same transaction that inserts them.
    .addColumn('valid_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invalid_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('risky_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('validation_job_schedule_idx').on('validation_job').columns(['schedule_id', 'created_at']).execute();
  await db.schema.createIndex('validation_job_created_idx').on('validation_job').column('created_at').execute();
  await db.schema.createIndex('validation_result_checked_idx').on('validation_result').column('checked_at').execute();

  await db.schema
    .createTable('worker_lease')
    .addColumn('worker_id', 'text', (c) => c.primaryKey())
    .addColumn('instance', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('worker_lease').ifExists().execute();
  await db.schema.dropIndex('validation_result_checked_idx').ifExists().execute();
  await db.schema.dropIndex('validation_job_created_idx').ifExists().execute();
  await db.schema.dropIndex('validation_job_schedule_idx').ifExists().execute();
  await db.schema.alterTable('validation_job').dropColumn('risky_count').dropColumn('invalid_count').dropColumn('valid_count').dropColumn('charge_credits').dropColumn('depth').dropColumn('replay_of').dropColumn('schedule_id').execute();
  await db.schema.dropTable('validation_job_chunk').ifExists().execute();
}
