// SQL for bulk jobs. Every read takes the account id: another tenant's job is simply not found.
import { sql, type Kysely } from 'kysely';
import type { Database, JobSource, JobStatus } from '../../../db/types';
import type { TaskName, TaskPayloads } from '../../lib/tasks';
import { RESULT_FIELDS } from '../validation/results.queries';

type Db = Kysely<Database>;

/** The columns a job is shown with (dashboard and CLI); never the raw row. */
export const jobColumns = [
  'validation_job.id',
  'validation_job.account_id',
  'validation_job.filename',
  'validation_job.source',
  'validation_job.status',
  'validation_job.total_emails',
  'validation_job.processed_emails',
  'validation_job.valid_count',
  'validation_job.invalid_count',
  'validation_job.risky_count',
  'validation_job.error',
  'validation_job.schedule_id',
  'validation_job.replay_of',
  'validation_job.is_sandbox',
  'validation_job.created_at',
  'validation_job.started_at',
  'validation_job.completed_at',
] as const;

/**
 * True while one of the job's unfinished chunks last failed to reach the verification service (it is
 * retried with backoff, for days at worst): History says why the job does not move. Select it beside jobColumns.
 */
export const jobStalled = sql<boolean>`exists (select 1 from validation_job_chunk c where c.job_id = validation_job.id and c.completed_at is null and c.last_error is not null)`.as('stalled');

export interface JobView {
  id: string;
  filename: string;
  source: JobSource;
  status: JobStatus;
  total_emails: number;
  processed_emails: number;
  /** Rounded percent of processed over total (spec section 4). */
  progress: number;
  valid_count: number;
  invalid_count: number;
  risky_count: number;
  error: string | null;
  schedule_id: string | null;
  replay_of: string | null;
  /** Started with a test key: sandbox results, no credits. */
  is_sandbox: boolean;
  /** Unfinished, and waiting for the verification service to answer again (its chunks are retried). */
  stalled: boolean;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/** A job as selected with jobColumns: JobView's fields with Date times (and the account id). */
type JobRow = Omit<JobView, 'progress' | 'stalled' | 'created_at' | 'started_at' | 'completed_at'> & { stalled?: boolean; account_id?: string; created_at: Date; started_at: Date | null; completed_at: Date | null };

export function progressPercent(processed: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.round((processed * 100) / total));
}

export function toJobView({ account_id: _account, created_at, started_at, completed_at, stalled, ...r }: JobRow): JobView {
  return {
    ...r,
    stalled: (r.status === 'pending' || r.status === 'processing') && stalled === true,
    progress: progressPercent(r.processed_emails, r.total_emails),
    created_at: created_at.toISOString(),
    started_at: started_at?.toISOString() ?? null,
    completed_at: completed_at?.toISOString() ?? null,
  };
}

/**
 * A page of the account's jobs, newest first (created_at, then id, descending: a stable order).
 * `afterId` is the last job of the previous page; null when that job is not the account's.
 */
/**
 * A page of the account's jobs, newest first, after `after` (the last job of the previous page):
 * by its (created_at, id) place in the order, `at` (created_at in microseconds since the epoch), so
 * the walk goes on when that job was deleted meanwhile (the retention purge takes the oldest). A
 * cursor without `at` (issued before it carried one) is looked up by id; null when that job is gone.
 * Each job comes with its own `at`, for the next cursor.
 */
export async function listJobsAfter(db: Db, accountId: string, o: { after?: { id: string; at?: string }; limit: number; sandbox?: boolean }): Promise<Array<JobView & { at: string }> | null> {
  let q = db
    .selectFrom('validation_job')
    .select(jobColumns)
    .select(jobStalled)
    .select(sql<string>`(extract(epoch from created_at) * 1000000)::bigint::text`.as('at'))
    .where('account_id', '=', accountId)
    .$if(o.sandbox !== undefined, (b) => b.where('is_sandbox', '=', o.sandbox!));
  if (o.after?.at !== undefined) {
    q = q.where(sql<boolean>`(created_at, id) < (timestamptz 'epoch' + ${o.after.at}::bigint * interval '1 microsecond', ${o.after.id}::uuid)`);
  } else if (o.after !== undefined) {
    const anchor = await db.selectFrom('validation_job').select(['created_at', 'id']).where('account_id', '=', accountId).where('id', '=', o.after.id).executeTakeFirst();
    if (!anchor) return null;
    q = q.where(sql<boolean>`(created_at, id) < (select created_at, id from validation_job where id = ${anchor.id}::uuid)`);
  }
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(o.limit).execute();
  return rows.map((r) => ({ ...toJobView(r), at: r.at }));
}

/** The account's job; with `sandbox`, only a job of that kind (test keys see sandbox jobs only, live keys live ones only). */
export async function findJob(db: Db, accountId: string, jobId: string, o: { sandbox?: boolean } = {}): Promise<JobView | null> {
  const row = await db
    .selectFrom('validation_job')
    .select(jobColumns)
    .select(jobStalled)
    .where('account_id', '=', accountId)
    .where('id', '=', jobId)
    .$if(o.sandbox !== undefined, (q) => q.where('is_sandbox', '=', o.sandbox!))
    .executeTakeFirst();
  return row ? toJobView(row) : null;
}

/** The dashboard's result row (spec section 3, Validation result) plus the engine's reason. */
export const resultColumns = ['id', 'email', ...RESULT_FIELDS, 'checked_at', 'job_id'] as const;

export async function jobResultsPage(db: Db, accountId: string, jobId: string, page: number, pageSize: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('validation_result')
      .select(resultColumns)
      .where('account_id', '=', accountId)
      .where('job_id', '=', jobId)
      .orderBy('checked_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom('validation_result')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('job_id', '=', jobId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, checked_at: r.checked_at.toISOString() })), total: Number(total.n) };
}

/** What a result filter may ask for: verdicts, reason codes, and rows after a cursor (row id). */
export interface ResultFilter {
  results?: ReadonlyArray<'valid' | 'invalid' | 'risky'>;
  reasons?: readonly string[];
  after?: number;
  limit?: number;
}

/** A job's results in a stable order (insertion: row id ascending), filtered; for downloads and /v1. */
export async function jobResultRows(db: Db, accountId: string, jobId: string, f: ResultFilter = {}) {
  let q = db
    .selectFrom('validation_result')
    .select(['id', 'email', 'result', 'reason', 'deliverability_score', 'is_syntax_valid', 'is_dns_valid', 'is_mx_valid', 'is_smtp_valid', 'role_detected', 'disposable_provider', 'charged', 'checked_at'])
    .where('account_id', '=', accountId)
    .where('job_id', '=', jobId);
  if (f.results && f.results.length > 0) q = q.where('result', 'in', [...f.results]);
  if (f.reasons && f.reasons.length > 0) q = q.where('reason', 'in', [...f.reasons]);
  if (f.after !== undefined) q = q.where('id', '>', f.after);
  q = q.orderBy('id', 'asc');
  if (f.limit !== undefined) q = q.limit(f.limit);
  return q.execute();
}
export type JobResultRow = Awaited<ReturnType<typeof jobResultRows>>[number];

export async function reasonBreakdown(db: Db, accountId: string, jobId: string): Promise<Array<{ reason: string; result: string; count: number }>> {
  const rows = await db
    .selectFrom('validation_result')
    .select(['reason', 'result', (eb) => eb.fn.countAll<number>().as('count')])
    .where('account_id', '=', accountId)
    .where('job_id', '=', jobId)
    .groupBy(['reason', 'result'])
    .orderBy('count', 'desc')
    .execute();
  return rows.map((r) => ({ reason: r.reason, result: r.result, count: Number(r.count) }));
}

/** Every input address of a job (from its chunks), in chunk order. */
export async function jobInputEmails(db: Db, jobId: string): Promise<string[]> {
  const chunks = await db.selectFrom('validation_job_chunk').select('emails').where('job_id', '=', jobId).orderBy('chunk_no').execute();
  return chunks.flatMap((c) => c.emails);
}

export async function enqueueTask<N extends TaskName>(trx: Db, identifier: N, payload: TaskPayloads[N], o: { jobKey?: string; maxAttempts?: number; runAt?: Date; priority?: number } = {}): Promise<void> {
  await sql`
    select graphile_worker.add_job(
      ${identifier}::text,
      ${JSON.stringify(payload)}::json,
      run_at := coalesce(${o.runAt ?? null}::timestamptz, now()),
      job_key := ${o.jobKey ?? null}::text,
      max_attempts := ${o.maxAttempts ?? 25}::int,
      priority := ${o.priority ?? 0}::int
    )`.execute(trx);
}
