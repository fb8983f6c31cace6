// Auto revalidation: saved lists re-validated daily, weekly or monthly. Each run is an ordinary
// bulk job (source 'schedule', visible in History); the worker cron decides when (schedule-tick)
// and creates the run (schedule-run). No transport here.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import type { Frequency, SchedulePausedReason } from '../../../db/types';
import { MAX_SCHEDULES_PER_ACCOUNT, SCHEDULE_MESSAGES } from '../../contracts/schedules';
import { PLANS, planAllows } from '../../contracts/plans';
import { writeAudit } from '../audit/audit';
import { addressKey, normalizeEmail } from '../jobs/csv-cells';
import { parseEmailCsv } from '../jobs/csv-import';
import { createJobInTransaction, creditsNeededMessage, heldCredits } from '../jobs/jobs.service';
import { cancelLockedJob } from '../jobs/job-cancel';
import { depthForPlan } from '../validation/validation.service';
import { AppError } from '../../lib/app-error';
import { SUSPENDED_MESSAGE } from '../billing/service-state';
import { addMonthsClamped } from '../../lib/dates';
import { enqueueWebhook } from '../webhooks/webhook-queue';

export const FREQUENCY_INTERVAL: Record<Frequency, string> = { daily: '1 day', weekly: '7 days', monthly: '1 month' };

/**
 * When a schedule is next due: never run → now; daily and weekly → last run + its period; monthly →
 * the first month-step from its first run that comes after the last run. A monthly schedule keeps
 * its first run's day of month and time (UTC), clamped to shorter months (first run Jan 31 → Feb 28
 * → Mar 31 → Apr 30 …): stepping from the last run instead slid it to the 28th for good after one
 * February. dueScheduleIds' SQL computes the same (`+ k * interval '1 month'` clamps as addMonthsClamped).
 * UTC because no time zone is known for a schedule (none in the spec's entity, nor for its account or
 * its creator; the team may span zones) and its time of day was never chosen (the first tick after it
 * was made): the card shows the instant in each viewer's own time (README, "Auto revalidation").
 */
export function nextRunAt(
  s: { frequency: Frequency; last_run_at: Date | null; first_run_at?: Date | null; is_active: boolean },
  now = new Date(),
): Date | null {
  if (!s.is_active) return null;
  if (!s.last_run_at) return now;
  if (s.frequency === 'monthly') {
    const anchor = s.first_run_at ?? s.last_run_at;
    const last = s.last_run_at;
    const k = Math.max(0, (last.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + last.getUTCMonth() - anchor.getUTCMonth());
    const inLastMonth = addMonthsClamped(anchor, k);
    return inLastMonth.getTime() > last.getTime() ? inLastMonth : addMonthsClamped(anchor, k + 1);
  }
  const d = new Date(s.last_run_at);
  d.setUTCDate(d.getUTCDate() + (s.frequency === 'daily' ? 1 : 7));
  return d;
}

/**
 * nextRunAt in SQL, for `schedule as s` (UTC calendar): the monthly step is counted from
 * first_run_at (k = months from it to the last run; that month's date if still after the last run,
 * else the next month's).
 */
const NEXT_RUN_SQL = sql<Date>`(case
  when s.frequency = 'monthly' then (
    select (case when a.t + m.k * interval '1 month' > l.t then a.t + m.k * interval '1 month' else a.t + (m.k + 1) * interval '1 month' end) at time zone 'UTC'
      from (select coalesce(s.first_run_at, s.last_run_at) at time zone 'UTC' as t) a,
           (select s.last_run_at at time zone 'UTC' as t) l,
           lateral (select greatest(0, ((extract(year from l.t) - extract(year from a.t)) * 12 + extract(month from l.t) - extract(month from a.t))::int) as k) m)
  else ((s.last_run_at at time zone 'UTC') + (case s.frequency when 'daily' then interval '1 day' else interval '7 days' end)) at time zone 'UTC'
end)`;

/** Unique (addressKey), normalised addresses from typed lines; only entries that look like addresses count. */
export function cleanScheduleEmails(list: string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of list) {
    const e = normalizeEmail(raw);
    if (e && e.includes('@') && e.length <= 320 && !seen.has(addressKey(e))) seen.set(addressKey(e), e);
  }
  return [...seen.values()];
}

export interface ScheduleView {
  id: string;
  name: string;
  description: string | null;
  frequency: Frequency;
  is_active: boolean;
  /** Why the system paused it ('creator_left': whoever created it left the account); null once switched by hand. */
  paused_reason: SchedulePausedReason | null;
  email_count: number;
  total_runs: number;
  last_run_at: string | null;
  next_run_at: string | null;
  created_at: string;
  /** The latest run's job; `error` is why it failed (too few credits, a suspension, the service down). */
  last_job: { id: string; status: string; invalid_count: number; processed_emails: number; total_emails: number; error: string | null } | null;
}

export async function listSchedules(db: Db, accountId: string): Promise<ScheduleView[]> {
  // Below Pro the cron runs none of the account's schedules (dueScheduleIds): no next run to show.
  const account = await db.selectFrom('account').select('plan').where('id', '=', accountId).executeTakeFirst();
  const runs = account ? planAllows(account.plan, 'autoRevalidation') : false;
  const rows = await db
    .selectFrom('schedule as s')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('validation_job as j')
          .select(['j.id as job_id', 'j.status as job_status', 'j.invalid_count', 'j.processed_emails', 'j.total_emails', 'j.error as job_error'])
          .whereRef('j.schedule_id', '=', 's.id')
          .orderBy('j.created_at', 'desc')
          .limit(1)
          .as('lj'),
      (join) => join.onTrue(),
    )
    .select([
      's.id',
      's.name',
      's.description',
      's.frequency',
      's.is_active',
      's.paused_reason',
      sql<number>`cardinality(s.email_list)`.as('email_count'),
      's.total_runs',
      's.last_run_at',
      's.first_run_at',
      's.created_at',
      'lj.job_id',
      'lj.job_status',
      'lj.invalid_count',
      'lj.processed_emails',
      'lj.total_emails',
      'lj.job_error',
    ])
    .where('s.account_id', '=', accountId)
    .orderBy('s.created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    frequency: r.frequency,
    is_active: r.is_active,
    paused_reason: r.paused_reason,
    email_count: Number(r.email_count),
    total_runs: r.total_runs,
    last_run_at: r.last_run_at?.toISOString() ?? null,
    next_run_at: runs ? (nextRunAt(r)?.toISOString() ?? null) : null,
    created_at: r.created_at.toISOString(),
    last_job: r.job_id
      ? { id: r.job_id, status: r.job_status!, invalid_count: r.invalid_count ?? 0, processed_emails: r.processed_emails ?? 0, total_emails: r.total_emails ?? 0, error: r.job_status === 'failed' ? (r.job_error ?? null) : null }
      : null,
  }));
}

export async function createSchedule(
  db: Db,
  caller: { accountId: string; userId: string },
  input: { name: string; description: string | null; frequency: Frequency; emails: string[] },
): Promise<{ id: string; email_count: number }> {
  const emails = cleanScheduleEmails(input.emails);
  if (emails.length === 0) throw new AppError('BAD_INPUT', SCHEDULE_MESSAGES.noValidEmails);
  return db.transaction().execute(async (trx) => {
    // Serialise concurrent creates per account so the cap holds (as API keys do).
    await trx.selectFrom('account').select('id').where('id', '=', caller.accountId).forUpdate().executeTakeFirstOrThrow();
    const held = await trx.selectFrom('schedule').select((eb) => eb.fn.countAll<string>().as('n')).where('account_id', '=', caller.accountId).executeTakeFirstOrThrow();
    if (Number(held.n) >= MAX_SCHEDULES_PER_ACCOUNT) throw new AppError('CONFLICT', SCHEDULE_MESSAGES.tooMany(MAX_SCHEDULES_PER_ACCOUNT));
    const row = await trx
      .insertInto('schedule')
      .values({ account_id: caller.accountId, created_by: caller.userId, name: input.name, description: input.description, email_list: emails, frequency: input.frequency })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeAudit(trx, {
      accountId: caller.accountId,
      actorUserId: caller.userId,
      action: 'schedule.created',
      targetType: 'schedule',
      targetId: row.id,
      data: { name: input.name, frequency: input.frequency, email_count: emails.length },
    });
    return { id: row.id, email_count: emails.length };
  });
}

export async function setScheduleActive(db: Db, caller: { accountId: string; userId: string }, scheduleId: string, isActive: boolean): Promise<{ id: string; is_active: boolean }> {
  return db.transaction().execute(async (trx) => {
    // Switched by hand, it is no longer "paused because its creator left" (pauseSchedulesOfLeavingUser, schedules-of-leavers.ts).
    const row = await trx.updateTable('schedule').set({ is_active: isActive, paused_reason: null }).where('id', '=', scheduleId).where('account_id', '=', caller.accountId).returning(['id', 'is_active']).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'Schedule not found');
    await writeAudit(trx, { accountId: caller.accountId, actorUserId: caller.userId, action: isActive ? 'schedule.activated' : 'schedule.deactivated', targetType: 'schedule', targetId: scheduleId });
    return row;
  });
}

/**
 * Deletes a schedule; a run of it still being validated is cancelled with it (cancelLockedJob, as
 * History's Cancel): nobody wants the list of a schedule they deleted checked, and the run went on
 * to charge a credit an address. The results it stored stay in History with what they cost; nothing
 * more is checked or charged. Locks: the schedule row (which a run's creation holds, so a run being
 * created now is committed first and cancelled here), then its jobs, then the account's dispatch.
 */
export async function deleteSchedule(db: Db, caller: { accountId: string; userId: string }, scheduleId: string): Promise<{ id: string; runs_cancelled: number }> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx.selectFrom('schedule').select('id').where('id', '=', scheduleId).where('account_id', '=', caller.accountId).forUpdate().executeTakeFirst();
    if (!locked) throw new AppError('NOT_FOUND', 'Schedule not found');
    const running = await trx
      .selectFrom('validation_job')
      .select(['id', 'total_emails', 'processed_emails'])
      .where('schedule_id', '=', scheduleId)
      .where('account_id', '=', caller.accountId)
      .where('status', 'in', ['pending', 'processing'])
      .orderBy('id')
      .forUpdate()
      .execute();
    for (const job of running) await cancelLockedJob(trx, job, { accountId: caller.accountId, userId: caller.userId, actor: 'user', reason: 'schedule_deleted' });
    const row = await trx.deleteFrom('schedule').where('id', '=', scheduleId).where('account_id', '=', caller.accountId).returning(['id', 'name']).executeTakeFirstOrThrow();
    await writeAudit(trx, { accountId: caller.accountId, actorUserId: caller.userId, action: 'schedule.deleted', targetType: 'schedule', targetId: scheduleId, data: { name: row.name, runs_cancelled: running.length } });
    return { id: row.id, runs_cancelled: running.length };
  });
}

/** The dialog's "load from CSV": the same parser as Bulk Upload, with section 5's messages. */
export function parseScheduleCsv(filename: string, content: string | Uint8Array): { emails: string[]; count: number; message: string } {
  if (!/\.csv$/i.test(filename)) throw new AppError('BAD_INPUT', SCHEDULE_MESSAGES.csvType);
  if (content.length > 10 * 1024 * 1024) throw new AppError('BAD_INPUT', SCHEDULE_MESSAGES.csvTooLarge);
  const parsed = parseEmailCsv(content);
  if (!parsed.ok) throw new AppError('BAD_INPUT', parsed.error.message, { details: { reason: parsed.error.code } });
  const emails = parsed.value.emails;
  return { emails, count: emails.length, message: SCHEDULE_MESSAGES.found(emails.length) };
}

export interface ScheduleChanges {
  scheduleId: string;
  lastRun: { jobId: string; status: string; at: string } | null;
  previousRun: { jobId: string; status: string; at: string } | null;
  /** Addresses invalid in the last run that were valid or risky in the one before. */
  newlyInvalid: Array<{ email: string; previous: string; reason: string }>;
  /** Addresses invalid before that are no longer invalid. */
  recovered: Array<{ email: string; current: string }>;
}

/**
 * What changed between the last two completed runs of a schedule (as schedule.run_completed
 * compares). A run that failed (too few credits, suspended) has no results, and one still running
 * has only some: compared with either, every change would look like "nothing turned invalid".
 */
export async function scheduleChanges(db: Db, accountId: string, scheduleId: string): Promise<ScheduleChanges> {
  const schedule = await db.selectFrom('schedule').select('id').where('id', '=', scheduleId).where('account_id', '=', accountId).executeTakeFirst();
  if (!schedule) throw new AppError('NOT_FOUND', 'Schedule not found');
  const runs = await db
    .selectFrom('validation_job')
    .select(['id', 'status', 'created_at'])
    .where('account_id', '=', accountId)
    .where('schedule_id', '=', scheduleId)
    .where('status', '=', 'completed')
    .orderBy('created_at', 'desc')
    .limit(2)
    .execute();
  const view = (r: (typeof runs)[number] | undefined) => (r ? { jobId: r.id, status: r.status, at: r.created_at.toISOString() } : null);
  const [last, prev] = runs;
  const out: ScheduleChanges = { scheduleId, lastRun: view(last), previousRun: view(prev), newlyInvalid: [], recovered: [] };
  if (!last || !prev) return out;
  const pairs = await db
    .selectFrom('validation_result as cur')
    .innerJoin('validation_result as old', (j) => j.onRef('old.email', '=', 'cur.email').on('old.job_id', '=', prev.id))
    .select(['cur.email', 'cur.result as current', 'cur.reason', 'old.result as previous'])
    .where('cur.job_id', '=', last.id)
    .where('cur.account_id', '=', accountId)
    .whereRef('cur.result', '<>', 'old.result')
    .orderBy('cur.email')
    .execute();
  out.newlyInvalid = pairs.filter((p) => p.current === 'invalid').map((p) => ({ email: p.email, previous: p.previous, reason: p.reason }));
  out.recovered = pairs.filter((p) => p.previous === 'invalid').map((p) => ({ email: p.email, current: p.current }));
  return out;
}

/** The plans whose schedules run (the autoRevalidation gate of contracts/plans.ts). */
const SCHEDULE_PLANS = PLANS.filter((p) => p.autoRevalidation).map((p) => p.type);

/**
 * Active schedules whose next run is due at `now`, on plans that include auto revalidation. The
 * plan is filtered in SQL, before the batch limit: the schedules of accounts that fell below Pro
 * stay "due" forever (they never run), and as the oldest rows they would otherwise fill every
 * batch and starve the schedules of paying accounts. The due time is computed on the UTC calendar
 * (as nextRunAt, which the run itself checks), not in the database session's time zone, where a
 * day across a daylight-saving change has 23 or 25 hours and a month ends on another date.
 */
export async function dueScheduleIds(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('schedule as s')
    .innerJoin('account as a', 'a.id', 's.account_id')
    .select(['s.id'])
    .where('s.is_active', '=', true)
    .where('a.plan', 'in', SCHEDULE_PLANS)
    .where((eb) =>
      eb.or([
        eb('s.last_run_at', 'is', null),
        eb(NEXT_RUN_SQL, '<=', now),
      ]),
    )
    .where(({ not, exists }) => not(exists(runInProgress)))
    .orderBy('s.last_run_at', (ob) => ob.asc().nullsFirst())
    .limit(500)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The schedule's previous run still being validated (for `schedule as s`). A schedule that comes
 * due meanwhile waits for it (it stays due and runs at the tick after that run ends): a second run
 * over the same list would charge it all again, and during a long probe outage the runs piled up,
 * one a day, to run (and charge) all at once when the fleet came back.
 */
const runInProgress = sql<number>`(select 1 from validation_job j where j.schedule_id = s.id and j.status in ('pending', 'processing'))`;

/**
 * One run of a schedule at `now`: a bulk job over its list (History shows it), total_runs + 1 and
 * last_run_at = now, all in one transaction with the schedule row locked, so a duplicated or
 * retried run creates nothing twice. Not due, inactive or deleted: nothing happens.
 */
export async function runSchedule(db: Db, scheduleId: string, now: Date): Promise<{ jobId: string | null; status: 'created' | 'skipped' | 'failed' }> {
  return db.transaction().execute(async (trx) => {
    const s = await trx
      .selectFrom('schedule as s')
      .innerJoin('account as a', 'a.id', 's.account_id')
      .select(['s.id', 's.account_id', 's.created_by', 's.name', 's.email_list', 's.frequency', 's.is_active', 's.last_run_at', 's.first_run_at', 'a.plan', 'a.credits_balance', 'a.subscription_status'])
      // Its runs are its creator's while they are on the team; switched back on after they left, the account's.
      .select(sql<string | null>`(select m."userId" from member m where m."organizationId" = s.account_id and m."userId" = s.created_by)`.as('runs_as'))
      .where('s.id', '=', scheduleId)
      .forUpdate()
      .executeTakeFirst();
    if (!s || !s.is_active || !planAllows(s.plan, 'autoRevalidation')) return { jobId: null, status: 'skipped' as const };
    const due = nextRunAt(s, now);
    if (!due || due.getTime() > now.getTime()) return { jobId: null, status: 'skipped' as const };
    const running = await trx.selectFrom('validation_job').select('id').where('schedule_id', '=', s.id).where('status', 'in', ['pending', 'processing']).limit(1).executeTakeFirst();
    if (running) return { jobId: null, status: 'skipped' as const }; // waits for its previous run (runInProgress)

    const filename = `${s.name} (scheduled ${s.frequency} run)`;
    await trx
      .updateTable('schedule')
      .set({ total_runs: sql`total_runs + 1`, last_run_at: now, first_run_at: s.first_run_at ?? s.last_run_at ?? now })
      .where('id', '=', s.id)
      .execute();
    const suspended = s.subscription_status === 'suspended';
    // What the account's unfinished jobs have still to charge is held (createJob refuses the same).
    const held = suspended ? 0 : await heldCredits(trx, s.account_id);
    if (suspended || s.credits_balance - held < s.email_list.length) {
      // Shown in History as a failed run with the reason; the schedule tries again next period.
      const job = await trx
        .insertInto('validation_job')
        .values({
          account_id: s.account_id,
          created_by: s.runs_as,
          filename,
          source: 'schedule',
          status: 'failed',
          total_emails: s.email_list.length,
          error: suspended ? SUSPENDED_MESSAGE : creditsNeededMessage(s.email_list.length, s.credits_balance, s.credits_balance < s.email_list.length ? 0 : held),
          schedule_id: s.id,
          file_path: null,
          webhook_url: null,
          completed_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // It ended here, without a worker: the account's job.failed endpoints hear of it all the same.
      await enqueueWebhook(trx, { jobId: job.id });
      await writeAudit(trx, { accountId: s.account_id, actor: 'system', action: 'schedule.run_failed', targetType: 'schedule', targetId: s.id, data: { job_id: job.id, reason: suspended ? 'suspended' : 'insufficient_credits' } });
      return { jobId: job.id, status: 'failed' as const };
    }
    const job = await createJobInTransaction(trx, {
      accountId: s.account_id,
      userId: s.runs_as,
      filename,
      emails: s.email_list,
      source: 'schedule',
      depth: depthForPlan(s.plan),
      scheduleId: s.id,
      actor: 'system',
    });
    return { jobId: job.jobId, status: 'created' as const };
  });
}
