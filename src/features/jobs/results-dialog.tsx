import type { ReactNode } from 'react';
import { Check, ChevronLeft, ChevronRight, Download, Minus } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { Table, cellClass, type TableColumn } from '../../components/ui/table';
import { cn } from '../../lib/cn';
import { BreakdownPanel, type Breakdown } from './breakdown';
import { canDownload, formatCount, formatDateTime, formatShortDateTime } from './format';
import { reasonLabel } from '../../../server/contracts/reasons';
import { JobStatusBadge, ResultBadge } from './status-badge';
import type { JobItem, ResultItem } from './types';

export interface ResultsDialogProps {
  job: JobItem | null;
  onClose: () => void;
  rows: ResultItem[] | undefined;
  total: number;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  loading: boolean;
  breakdown: Breakdown | null | undefined;
  /** Result counts per reason (jobs.breakdown), most frequent first. */
  reasons?: Array<{ reason: string; result: string; count: number }>;
  onDownload: (job: JobItem) => void;
  downloading: boolean;
}

const tick = (header: ReactNode): TableColumn => ({ header, align: 'center', className: 'px-2' });
const RESULT_COLUMNS: TableColumn[] = [
  { header: 'Email' },
  { header: 'Result' },
  { header: 'Reason' },
  { header: 'Score', align: 'right' },
  ...['Syntax', 'DNS', 'MX', 'SMTP', 'Role'].map(tick),
  tick(<abbr title="Disposable provider" className="no-underline">Disp.</abbr>),
  { header: 'Checked' },
];
const cell = (extra?: string) => cellClass('dense', extra);

const DOT: Record<string, string> = { valid: 'bg-emerald-500', risky: 'bg-amber-500', invalid: 'bg-red-500' };

function Tick({ ok, label }: { ok: boolean; label: string }) {
  return ok ? (
    <Check className="mx-auto size-4 text-emerald-600" aria-label={`${label}: yes`} />
  ) : (
    <Minus className="mx-auto size-4 text-slate-300" aria-label={`${label}: no`} />
  );
}

/** Spec "History": the results of one job in a paginated table, with its breakdown. */
export function ResultsDialog({ job, onClose, rows, total, page, pageSize, onPage, loading, breakdown, reasons, onDownload, downloading }: ResultsDialogProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <Dialog
      open={job !== null}
      onClose={onClose}
      size="xl"
      className="sm:max-w-6xl"
      title={
        <span className="flex flex-wrap items-center gap-2">
          Validation Results <span className="hidden font-normal text-slate-400 sm:inline">·</span>{' '}
          <span className="max-w-[24rem] truncate font-medium text-slate-700">{job?.filename}</span>
          {job && <JobStatusBadge status={job.status} />}
        </span>
      }
      description={job ? `${formatCount(job.total_emails)} addresses · uploaded ${formatDateTime(job.created_at)}` : undefined}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>Close</Button>
          {job && canDownload(job.status) && (
            <Button onClick={() => onDownload(job)} loading={downloading}>
              <Download className="size-4" aria-hidden /> Download CSV
            </Button>
          )}
        </>
      }
    >
      <div className="space-y-4">
        {breakdown && <BreakdownPanel breakdown={breakdown} />}
        {reasons && reasons.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label="Reasons" data-testid="breakdown-reasons">
            {reasons.slice(0, 8).map((r) => (
              <li key={`${r.reason}-${r.result}`} className="inline-flex items-center gap-1.5 rounded-full bg-white px-2.5 py-0.5 text-xs text-slate-700 ring-1 ring-slate-200 ring-inset">
                <span className={cn('size-1.5 rounded-full', DOT[r.result] ?? 'bg-slate-400')} aria-hidden />
                {reasonLabel(r.reason)} <span className="font-semibold tabular-nums">{formatCount(r.count)}</span>
              </li>
            ))}
          </ul>
        )}
        <div className="relative overflow-hidden rounded-xl border border-slate-200">
          <div className="max-h-[max(12rem,calc(100dvh-28rem))] overflow-auto">
            <Table columns={RESULT_COLUMNS} density="dense" className="w-full min-w-[60rem]" headClassName="sticky top-0 z-[1]" aria-label="Validation results">
                {rows?.map((r) => (
                  <tr key={r.email} data-testid="result-row" className="hover:bg-slate-50/70">
                    <td className={cell('max-w-[16rem] truncate font-medium text-slate-900')} title={r.email}>{r.email}</td>
                    <td className={cell()}><ResultBadge result={r.result} /></td>
                    <td className={cell('whitespace-nowrap text-slate-600')}>{r.reason ? reasonLabel(r.reason) : '—'}</td>
                    <td className={cell('text-right text-slate-700 tabular-nums')}>{r.deliverability_score}%</td>
                    <td className={cell('px-2')}><Tick ok={r.is_syntax_valid} label="Syntax" /></td>
                    <td className={cell('px-2')}><Tick ok={r.is_dns_valid} label="DNS" /></td>
                    <td className={cell('px-2')}><Tick ok={r.is_mx_valid} label="MX" /></td>
                    <td className={cell('px-2')}><Tick ok={r.is_smtp_valid} label="SMTP" /></td>
                    <td className={cell('px-2')}><Tick ok={r.role_detected} label="Role-based" /></td>
                    <td className={cell('px-2')}><Tick ok={r.disposable_provider} label="Disposable" /></td>
                    <td className={cell('whitespace-nowrap text-slate-500')} title={r.checked_at}>{formatShortDateTime(r.checked_at)}</td>
                  </tr>
                ))}
            </Table>
          </div>
          {loading && (
            <div className="absolute inset-0 grid place-items-center bg-white/60">
              <Spinner />
            </div>
          )}
        </div>
        <nav className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600" aria-label="Results pages">
          <span data-testid="results-range">
            Showing <span className="font-medium text-slate-900">{formatCount(from)}</span>–<span className="font-medium text-slate-900">{formatCount(to)}</span> of{' '}
            <span className="font-medium text-slate-900">{formatCount(total)}</span>
          </span>
          <div className="flex items-center gap-2">
            <Button variant="outline" size="sm" disabled={page <= 1 || loading} onClick={() => onPage(page - 1)}>
              <ChevronLeft className="size-4" aria-hidden /> Previous
            </Button>
            <span className="px-1 tabular-nums">
              Page {page} of {pages}
            </span>
            <Button variant="outline" size="sm" disabled={page >= pages || loading} onClick={() => onPage(page + 1)}>
              Next <ChevronRight className="size-4" aria-hidden />
            </Button>
          </div>
        </nav>
      </div>
    </Dialog>
  );
}
