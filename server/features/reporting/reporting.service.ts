// Reporting (issue #10): Pro's analytics — validations over time by result, list quality per
// schedule run, credits used vs quota, top reasons — and Business's advanced reporting: the same
// filtered by source (dashboard, API, schedule) and a date range, exportable as CSV.
// Source of a result: a single check by a signed-in user or an upload/replay → dashboard; a single
// check with an API key (validation_result.via_api, kept when its author's user is deleted) or a /v1
// job → api; a schedule run → schedule.
import { sql, type Expression, type SqlBool } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../../db/client';
import { planAllows, type PlanType } from '../../contracts/plans';
import { AppError } from '../../lib/app-error';
import { GATE_MESSAGES } from '../../trpc/procedures';
import { csvCell } from '../../lib/csv-cell';
import { resolveTimeZone, todayIn } from './time-zone';

export const REPORT_SOURCES = ['dashboard', 'api', 'schedule'] as const;
export type ReportSource = (typeof REPORT_SOURCES)[number];
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;

const isoDate = z.iso.date({ error: 'Dates must be YYYY-MM-DD.' });
export const reportInput = z
  .object({
    from: isoDate.optional(),
    to: isoDate.optional(),
    source: z.enum(REPORT_SOURCES, { error: 'Source must be dashboard, api or schedule.' }).optional(),
    /** The browser's IANA zone: days (and the default range's today) are its calendar days. Not a filter: every plan may send it. */
    timeZone: z.string().max(64, { error: 'Unknown time zone.' }).optional(),
  })
  .default({});
export type ReportInput = z.infer<typeof reportInput>;

export interface ReportRange {
  fromDay: string;
  toDay: string;
  /** Exclusive: the day after `toDay`. */
  nextDay: string;
  /** The IANA zone whose calendar days the report counts ('UTC' unless the caller sent one). */
  timeZone: string;
  source: ReportSource | null;
}

const addDays = (day: string, k: number) => new Date(Date.parse(`${day}T00:00:00Z`) + k * 86_400_000).toISOString().slice(0, 10);

/** Validates the filters against the plan: Pro sees the last 30 days of every source; filters need Business. */
export async function resolveRange(db: Db, plan: PlanType, input: ReportInput, now = new Date()): Promise<ReportRange> {
  if (!planAllows(plan, 'analytics')) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES.analytics);
  const filtered = input.from !== undefined || input.to !== undefined || input.source !== undefined;
  if (filtered && !planAllows(plan, 'advancedReporting')) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES.advancedReporting);
  const timeZone = input.timeZone === undefined ? 'UTC' : await resolveTimeZone(db, input.timeZone);
  if (!timeZone) throw new AppError('BAD_INPUT', 'Unknown time zone.');
  const toDay = input.to ?? todayIn(timeZone, now);
  const fromDay = input.from ?? addDays(toDay, -(DEFAULT_DAYS - 1));
  const span = (Date.parse(`${toDay}T00:00:00Z`) - Date.parse(`${fromDay}T00:00:00Z`)) / 86_400_000 + 1;
  if (span < 1) throw new AppError('BAD_INPUT', 'The start date must be on or before the end date.');
  if (span > MAX_DAYS) throw new AppError('BAD_INPUT', `Reports cover at most ${MAX_DAYS} days.`);
  return { fromDay, toDay, nextDay: addDays(toDay, 1), timeZone, source: input.source ?? null };
}

/** SQL: the first instant of `day` in the range's zone. */
const startOf = (day: string, range: ReportRange) => sql<Date>`(${day}::date::timestamp at time zone ${range.timeZone})`;

/** SQL: the source of a validation_result row `r` (left-joined job `j`). */
const sourceExpr = sql<ReportSource>`case
  when r.job_id is null then (case when r.via_api then 'api' else 'dashboard' end)
  when j.source = 'api' then 'api'
  when j.source = 'schedule' then 'schedule'
  else 'dashboard' end`;

function baseResults(db: Db, accountId: string, range: ReportRange) {
  let q = db
    .selectFrom('validation_result as r')
    .leftJoin('validation_job as j', 'j.id', 'r.job_id')
    .where('r.account_id', '=', accountId)
    // Sandbox jobs (test keys) are free rehearsals, not usage.
    .where((eb) => eb.or([eb('j.is_sandbox', 'is', null), eb('j.is_sandbox', '=', false)]))
    .where('r.checked_at', '>=', startOf(range.fromDay, range))
    .where('r.checked_at', '<', startOf(range.nextDay, range));
  if (range.source) q = q.where(sql<SqlBool>`${sourceExpr} = ${range.source}` as Expression<SqlBool>);
  return q;
}

export interface AnalyticsReport {
  range: { from: string; to: string; source: ReportSource | null; timeZone: string };
  daily: Array<{ day: string; valid: number; invalid: number; risky: number }>;
  totals: { valid: number; invalid: number; risky: number; total: number };
  bySource: Array<{ source: ReportSource; count: number }>;
  topReasons: Array<{ reason: string; count: number }>;
  schedules: Array<{ scheduleId: string; name: string; runs: Array<{ jobId: string; at: string; total: number; valid: number; invalid: number; risky: number; validPercent: number | null }> }>;
  credits: { used: number; quota: number; balance: number; periodStart: string };
  canFilter: boolean;
}

export async function analyticsReport(db: Db, o: { accountId: string; plan: PlanType; input: ReportInput; now?: Date }): Promise<AnalyticsReport> {
  const range = await resolveRange(db, o.plan, o.input, o.now);
  const dayExpr = sql<string>`to_char(r.checked_at at time zone ${range.timeZone}, 'YYYY-MM-DD')`;
  const dailyRows = await baseResults(db, o.accountId, range)
    .select([dayExpr.as('day'), 'r.result', sql<string>`count(*)`.as('n')])
    // By position: the zone is a bound parameter, so the select's and a repeated group by's expressions would differ.
    .groupBy([sql`1`, sql`2`])
    .execute();
  const byDay = new Map<string, { valid: number; invalid: number; risky: number }>();
  for (let d = range.fromDay; d < range.nextDay; d = addDays(d, 1)) byDay.set(d, { valid: 0, invalid: 0, risky: 0 });
  for (const r of dailyRows) {
    const d = byDay.get(r.day);
    if (d) d[r.result] += Number(r.n);
  }
  const daily = [...byDay].map(([day, v]) => ({ day, ...v }));
  const totals = daily.reduce((a, d) => ({ valid: a.valid + d.valid, invalid: a.invalid + d.invalid, risky: a.risky + d.risky, total: a.total + d.valid + d.invalid + d.risky }), { valid: 0, invalid: 0, risky: 0, total: 0 });

  const sources = await baseResults(db, o.accountId, range).select([sourceExpr.as('source'), sql<string>`count(*)`.as('n')]).groupBy(sourceExpr).execute();
  const reasons = await baseResults(db, o.accountId, range)
    .select(['r.reason', sql<string>`count(*)`.as('n')])
    .where('r.result', '<>', 'valid')
    .groupBy('r.reason')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('r.reason')
    .limit(10)
    .execute();

  const runs = await db
    .selectFrom('validation_job as j')
    .innerJoin('schedule as s', 's.id', 'j.schedule_id')
    .select(['s.id as scheduleId', 's.name', 'j.id as jobId', 'j.created_at', 'j.total_emails', 'j.valid_count', 'j.invalid_count', 'j.risky_count'])
    .where('j.account_id', '=', o.accountId)
    .where('j.status', '=', 'completed')
    .where('j.created_at', '>=', startOf(range.fromDay, range))
    .where('j.created_at', '<', startOf(range.nextDay, range))
    .orderBy('s.name')
    .orderBy('j.created_at')
    .limit(2000)
    .execute();
  const schedules = new Map<string, AnalyticsReport['schedules'][number]>();
  if (!range.source || range.source === 'schedule') {
    for (const r of runs) {
      const entry = schedules.get(r.scheduleId) ?? { scheduleId: r.scheduleId, name: r.name, runs: [] };
      const checked = r.valid_count + r.invalid_count + r.risky_count;
      entry.runs.push({ jobId: r.jobId, at: r.created_at.toISOString(), total: r.total_emails, valid: r.valid_count, invalid: r.invalid_count, risky: r.risky_count, validPercent: checked > 0 ? Math.round((r.valid_count / checked) * 1000) / 10 : null });
      schedules.set(r.scheduleId, entry);
    }
  }
  const acct = await db.selectFrom('account').select(['monthly_validations_used', 'monthly_validations_quota', 'credits_balance', 'usage_period_start']).where('id', '=', o.accountId).executeTakeFirstOrThrow();
  return {
    range: { from: range.fromDay, to: range.toDay, source: range.source, timeZone: range.timeZone },
    daily,
    totals,
    bySource: REPORT_SOURCES.map((s) => ({ source: s, count: Number(sources.find((r) => r.source === s)?.n ?? 0) })),
    topReasons: reasons.map((r) => ({ reason: r.reason, count: Number(r.n) })),
    schedules: [...schedules.values()],
    credits: { used: acct.monthly_validations_used, quota: acct.monthly_validations_quota, balance: acct.credits_balance, periodStart: String(acct.usage_period_start).slice(0, 10) },
    canFilter: planAllows(o.plan, 'advancedReporting'),
  };
}

/** Business: the report as CSV (daily results, then sources, then reasons). */
export async function analyticsCsv(db: Db, o: { accountId: string; plan: PlanType; input: ReportInput }): Promise<{ csv: string; fileName: string }> {
  if (!planAllows(o.plan, 'advancedReporting')) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES.advancedReporting);
  const r = await analyticsReport(db, o);
  const lines: string[] = [];
  const row = (...cells: Array<string | number>) => lines.push(cells.map(csvCell).join(','));
  row('section', 'key', 'valid', 'invalid', 'risky', 'total');
  for (const d of r.daily) row('day', d.day, d.valid, d.invalid, d.risky, d.valid + d.invalid + d.risky);
  for (const s of r.bySource) row('source', s.source, '', '', '', s.count);
  for (const x of r.topReasons) row('reason', x.reason, '', '', '', x.count);
  for (const s of r.schedules) for (const run of s.runs) row('schedule_run', `${s.name} ${run.at}`, run.valid, run.invalid, run.risky, run.total);
  row('credits', `used of ${r.credits.quota} since ${r.credits.periodStart}`, '', '', '', r.credits.used);
  const suffix = r.range.source ? `-${r.range.source}` : '';
  return { csv: `${lines.join('\r\n')}\r\n`, fileName: `mailvet-report-${r.range.from}-to-${r.range.to}${suffix}.csv` };
}
