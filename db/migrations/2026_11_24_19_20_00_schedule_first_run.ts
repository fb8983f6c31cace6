// Frozen: never edit a landed migration; add a new one.
// A monthly schedule keeps the day of month of its first run (31st → Feb 28 → Mar 31 → Apr 30 …):
// its runs are counted in months from first_run_at, not from the last run, which slid to the 28th
// for good after one February. Existing schedules that have run take the day of their first run
// still on record (a run's job is made in the run's transaction, so its created_at is the run's
// time), else the day they were created (first runs follow creation within the minute).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('schedule').addColumn('first_run_at', 'timestamptz').execute();
  await sql`
    update schedule s
       set first_run_at = least(
             s.last_run_at,
             coalesce(
               (select min(j.created_at) from validation_job j where j.schedule_id = s.id having count(*) >= s.total_runs),
               s.created_at))
     where s.last_run_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('schedule').dropColumn('first_run_at').execute();
}
