// Reads and writes of single-check results. Every read takes the account id: tenancy lives here.
import { sql, type Kysely } from 'kysely';
import type { Database, NewValidationResult } from '../../../db/types';

export async function insertSingleResult(trx: Kysely<Database>, row: NewValidationResult): Promise<{ id: number; checked_at: Date; charged: boolean }> {
  const inserted = await trx.insertInto('validation_result').values({ ...row, job_id: null }).returning(['id', 'checked_at', 'charged']).executeTakeFirstOrThrow();
  return { id: Number(inserted.id), checked_at: inserted.checked_at, charged: inserted.charged };
}

export interface RecentSingleCheck {
  id: number;
  email: string;
  result: 'valid' | 'invalid' | 'risky';
  deliverability_score: number;
  checked_at: Date;
}

/** The account's latest single checks (job_id null), newest first. */
export async function recentSingleChecks(db: Kysely<Database>, accountId: string, limit: number): Promise<RecentSingleCheck[]> {
  const rows = await db
    .selectFrom('validation_result')
    .select(['id', 'email', 'result', 'deliverability_score', 'checked_at'])
    .where('account_id', '=', accountId)
    .where('job_id', 'is', null)
    .orderBy('checked_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Whether the account has validated anything yet (a single check or a job). */
export async function hasAnyValidation(db: Kysely<Database>, accountId: string): Promise<boolean> {
  const single = await db.selectFrom('validation_result').select('id').where('account_id', '=', accountId).limit(1).executeTakeFirst();
  if (single) return true;
  const job = await db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).limit(1).executeTakeFirst();
  return job !== undefined;
}

/**
 * Validations per calendar day (in the viewer's time zone) over the last `days` days, oldest
 * first, with zero-filled days. Counts every stored result, single checks and job rows alike.
 */
export async function validationsPerDay(db: Kysely<Database>, accountId: string, days: number, timeZone: string): Promise<Array<{ date: string; count: number }>> {
  const result = await sql<{ date: string; count: string }>`
    with bounds as (
      select (now() at time zone ${timeZone})::date as today
    ), series as (
      select generate_series(today - (${days}::int - 1), today, interval '1 day')::date as day from bounds
    ), counts as (
      select (checked_at at time zone ${timeZone})::date as day, count(*) as n
      from validation_result, bounds
      where account_id = ${accountId}
        and checked_at >= ((today - (${days}::int - 1))::timestamp at time zone ${timeZone})
      group by 1
    )
    select to_char(series.day, 'YYYY-MM-DD') as date, coalesce(counts.n, 0)::text as count
    from series left join counts on counts.day = series.day
    order by series.day asc`.execute(db);
  return result.rows.map((r) => ({ date: r.date, count: Number(r.count) }));
}
