// A job's results leave through here: the dashboard download (GET /api/jobs/:id/export, filtered
// by verdict) and /v1 (GET /v1/jobs/{id}/results as JSON pages or CSV). One order (row id, the
// order results were stored), one filter, one CSV writer with spreadsheet formulas neutralised.
import type { Db } from '../../../db/client';
import type { Reason } from '../../../probe/contract';
import { RESULT_CSV_COLUMNS } from '../../contracts/jobs';
import { toPublicResult } from '../../contracts/public-api';
import { AppError } from '../../lib/app-error';
import { csvCell } from '../../lib/csv-cell';
import { resultFileBrand } from '../branding/branding.service';
import { decodeCursor, encodeCursor } from './cursor';
import { findJob, jobResultRows, listJobsAfter, type JobResultRow, type JobView } from './jobs.queries';
import { reasonSchema } from '../../../probe/contract';

export type ResultKind = 'valid' | 'invalid' | 'risky';

export const RESULT_KINDS: readonly ResultKind[] = ['valid', 'invalid', 'risky'];

/** A `result` query value (valid, invalid, risky; comma-separated or repeated) → the kinds; 400 otherwise. */
export function parseResultKinds(raw: unknown): ResultKind[] {
  if (raw === undefined) return [];
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [null]));
  const kinds = new Set<ResultKind>();
  for (const p of parts) {
    const k = p?.trim().toLowerCase();
    if (!k || !(RESULT_KINDS as readonly string[]).includes(k)) throw new AppError('BAD_INPUT', `result must be one of ${RESULT_KINDS.join(', ')} (comma-separated).`);
    kinds.add(k as ResultKind);
  }
  return [...kinds];
}

/** A `reason` query value (reason codes, comma-separated) → the codes; 400 for an unknown one. */
export function parseReasons(raw: unknown): Reason[] {
  if (raw === undefined || raw === '') return [];
  if (typeof raw !== 'string') throw new AppError('BAD_INPUT', 'reason must be a comma-separated list of reason codes.');
  const out = new Set<Reason>();
  for (const part of raw.split(',')) {
    const r = reasonSchema.safeParse(part.trim());
    if (!r.success) throw new AppError('BAD_INPUT', `reason must be among: ${reasonSchema.options.join(', ')}.`);
    out.add(r.data);
  }
  return [...out];
}

/** The account's jobs, newest first, a page at a time (opaque cursor; a foreign or forged one is a 400). */
export async function listAccountJobs(db: Db, accountId: string, o: { cursor?: string; limit: number; sandbox?: boolean }): Promise<{ jobs: JobView[]; nextCursor: string | null }> {
  // The cursor names the last job and its place in the order (`at`, microseconds), so a page goes on past a job deleted meanwhile.
  const after = o.cursor === undefined ? undefined : decodeCursor(o.cursor, (v) => (v.k === 'j' && typeof v.id === 'string' && UUID.test(v.id) && (v.at === undefined || (typeof v.at === 'string' && /^\d{1,17}$/.test(v.at))) ? { id: v.id, ...(v.at === undefined ? {} : { at: v.at as string }) } : null));
  const rows = await listJobsAfter(db, accountId, { after, limit: o.limit + 1, sandbox: o.sandbox });
  if (rows === null) throw new AppError('BAD_INPUT', 'cursor is not valid: pass next_cursor from the previous page.');
  const page = rows.slice(0, o.limit);
  const last = page.at(-1);
  const jobs: JobView[] = page.map(({ at: _at, ...job }) => job);
  return { jobs, nextCursor: rows.length > o.limit && last ? encodeCursor({ k: 'j', id: last.id, at: last.at }) : null };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller's job, or 404 (another tenant's id and a malformed id look the same). */
export async function accountJobOr404(db: Db, accountId: string, jobId: string, o: { sandbox?: boolean } = {}): Promise<JobView> {
  const job = UUID.test(jobId) ? await findJob(db, accountId, jobId, o) : null;
  if (!job) throw new AppError('NOT_FOUND', 'Job not found.');
  return job;
}

const yesNo = (b: boolean) => (b ? 'Yes' : 'No');

/** The dashboard download's columns (spec section 9). */
function downloadLine(r: JobResultRow): string {
  return [
    r.email,
    r.result,
    r.deliverability_score,
    yesNo(r.is_syntax_valid),
    yesNo(r.is_dns_valid),
    yesNo(r.is_mx_valid),
    yesNo(r.is_smtp_valid),
    yesNo(r.role_detected),
    yesNo(r.disposable_provider),
    r.checked_at.toISOString(),
  ]
    .map(csvCell)
    .join(',');
}

/** The public result shape's fields as columns (/v1). */
const PUBLIC_COLUMNS = ['email', 'result', 'reason', 'deliverability_score', 'syntax_valid', 'mx_valid', 'smtp_valid', 'disposable_provider', 'role_detected', 'charged'] as const;
function publicLine(r: JobResultRow): string {
  const p = toPublicResult(r);
  return PUBLIC_COLUMNS.map((c) => csvCell(p[c])).join(',');
}

export interface ResultQuery {
  /** Only these verdicts (all when empty). */
  results?: readonly ResultKind[];
  /** Only these reason codes (all when empty). */
  reasons?: readonly Reason[];
  /** next_cursor of the previous page. */
  cursor?: string;
  /** Rows per page (all when omitted). */
  limit?: number;
}

export interface ResultPage {
  job: JobView;
  rows: JobResultRow[];
  nextCursor: string | null;
}

/**
 * A page of a job's results, in the order they were stored (stable while the job runs: new rows
 * only ever come after the last cursor). Works on a running job: what is done so far.
 */
export async function resultsAfterCursor(db: Db, accountId: string, jobId: string, q: ResultQuery = {}): Promise<ResultPage> {
  return pageOf(db, accountId, await accountJobOr404(db, accountId, jobId), q);
}

async function pageOf(db: Db, accountId: string, job: JobView, q: ResultQuery): Promise<ResultPage> {
  // A cursor names its job: one from another job (or another account's) is a 400, never a short or
  // empty page. One issued before cursors named their job (no `job`) is read as this job's, so a
  // client paging across that deploy goes on.
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor, (v) => (v.k === 'r' && (v.job === job.id || v.job === undefined) && Number.isSafeInteger(v.id) && (v.id as number) >= 0 ? (v.id as number) : null));
  const rows = await jobResultRows(db, accountId, job.id, { results: q.results, reasons: q.reasons, after, limit: q.limit === undefined ? undefined : q.limit + 1 });
  const page = q.limit === undefined ? rows : rows.slice(0, q.limit);
  const more = q.limit !== undefined && rows.length > q.limit;
  return { job, rows: page, nextCursor: more ? encodeCursor({ k: 'r', job: job.id, id: Number(page.at(-1)!.id) }) : null };
}

export interface ExportOptions extends ResultQuery {
  /** 'download': the dashboard's spec columns; 'public': the /v1 result fields. */
  columns?: 'download' | 'public';
  /** The dashboard downloads finished jobs only; /v1 serves what is done so far. */
  whileRunning?: boolean;
}

/** The result file: CSV text (CRLF, header row), its download name, and the page's cursor. */
export async function exportJobCsv(
  db: Db,
  accountId: string,
  jobId: string,
  o: ExportOptions = {},
): Promise<{ filename: string; csv: string; rows: number; nextCursor: string | null; job: JobView }> {
  const job = await accountJobOr404(db, accountId, jobId);
  // The dashboard downloads a finished job's file: completed, or cancelled (what was done before the cancel).
  if (!o.whileRunning && job.status !== 'completed' && job.status !== 'cancelled') throw new AppError('CONFLICT', 'Results can be downloaded once the job has completed.');
  const page = await pageOf(db, accountId, job, o);
  const columns = o.columns ?? 'download';
  const header = columns === 'download' ? RESULT_CSV_COLUMNS.join(',') : PUBLIC_COLUMNS.join(',');
  const lines = [header, ...page.rows.map(columns === 'download' ? downloadLine : publicLine)];
  const brand = await resultFileBrand(db, accountId);
  const only = o.results && o.results.length > 0 ? `-${[...o.results].sort().join('-')}` : '';
  return {
    filename: `${brand ? `${brand}-` : ''}validation-results-${job.id}${only}.csv`,
    csv: `${lines.join('\r\n')}\r\n`,
    rows: page.rows.length,
    nextCursor: page.nextCursor,
    job,
  };
}
