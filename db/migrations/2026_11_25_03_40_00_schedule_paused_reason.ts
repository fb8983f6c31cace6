// Frozen: never edit a landed migration; add a new one.
// A schedule whose creator left the account (removed, left, or deleted their user) is paused and
// says why (paused_reason 'creator_left'): it went on spending the account's credits, its runs in the
// name of someone no longer on the team. Switching it on again clears the reason. Schedules already
// in that state (their creator gone before this) are paused the same way.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('schedule')
    .addColumn('paused_reason', 'text', (c) => c.check(sql`paused_reason in ('creator_left')`))
    .execute();
  await sql`
    update schedule s
       set is_active = false, paused_reason = 'creator_left'
     where s.is_active
       and not exists (select 1 from member m where m."organizationId" = s.account_id and m."userId" = s.created_by)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('schedule').dropColumn('paused_reason').execute();
}
