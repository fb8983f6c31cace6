import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { AlertTriangle, Ban, ChevronDown, Clock, Download, Eye } from 'lucide-react';
import { Fragment } from 'react';
import { Button } from '../../components/ui/button';
import { Table, cellClass, type TableColumn } from '../../components/ui/table';
import { Tooltip } from '../../components/ui/tooltip';
import { cn } from '../../lib/cn';
import { BreakdownBar } from './breakdown';
import { canCancel, canDownload, canViewResults, formatCount, formatDate, formatTime, progressPercent } from './format';
import { JobStatusBadge, type ResultKind } from './status-badge';
import type { JobItem } from './types';

const JOB_COLUMNS: TableColumn[] = [
  { header: 'File' },
  { header: 'Status' },
  { header: 'Created' },
  { header: 'Total', align: 'right' },
  { header: 'Processed', align: 'right' },
  { header: 'Progress' },
  { header: 'Actions', align: 'right', srOnly: true },
];
const cell = (extra?: string) => cellClass('compact', extra);

/** A running job whose chunks cannot reach the verification service (retried with backoff, for days at worst). */
export const STALLED_NOTE = 'The verification service is not answering right now. This job is retried automatically and continues where it stopped; no address is checked or charged twice.';

const SOURCE_LABEL = { upload: 'Upload', api: 'API', schedule: 'Scheduled run', replay: 'Replay' } as const;

export interface JobsTableProps {
  jobs: JobItem[];
  onView: (job: JobItem) => void;
  /** All results, or only one verdict. */
  onDownload: (job: JobItem, only?: ResultKind) => void;
  /** Asks to cancel a running job (the caller confirms). */
  onCancel?: (job: JobItem) => void;
  /** Job ids whose results or download are being fetched. */
  viewing?: string | null;
  downloading?: string | null;
}

function Progress({ job }: { job: JobItem }) {
  const pct = job.status === 'completed' ? progressPercent(job.processed_emails, job.total_emails || job.processed_emails) : progressPercent(job.processed_emails, job.total_emails);
  return (
    <div className="w-20 space-y-1.5">
      <span className="text-sm font-medium text-slate-900 tabular-nums" data-testid="job-percent">
        {pct}%
      </span>
      {job.status === 'processing' && (
        <div
          role="progressbar"
          aria-label={`${job.filename} progress`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          className="h-1.5 w-full overflow-hidden rounded-full bg-slate-100"
        >
          <div className="h-full rounded-full bg-brand-600 transition-[width] duration-500" style={{ width: `${pct}%` }} />
        </div>
      )}
      {job.status === 'completed' && job.breakdown && <BreakdownBar breakdown={job.breakdown} />}
    </div>
  );
}

/** Spec "History": filename, status, date and time, total, processed, percent, progress bar, actions. */
export function JobsTable({ jobs, onView, onDownload, onCancel, viewing, downloading }: JobsTableProps) {
  return (
    // relative: the header's sr-only text is absolutely positioned and must stay inside the scroller.
    <div className="relative overflow-x-auto">
      <Table columns={JOB_COLUMNS} density="compact" className="w-full min-w-[50rem]">
          {jobs.map((job) => {
            const viewable = canViewResults(job.status);
            const downloadable = canDownload(job.status);
            const failure = job.status === 'failed' && job.error ? job.error : null;
            const stalled = canCancel(job.status) && job.stalled === true;
            return (
              <Fragment key={job.id}>
              <tr data-testid="job-row" data-job-id={job.id} className={cn('group align-top transition-colors hover:bg-slate-50/70', (failure || stalled) && 'border-b-0')}>
                <td className={cell()}>
                  <div>
                    <div className="min-w-0">
                      <p className="max-w-[10rem] truncate font-medium text-slate-900" title={job.filename} data-testid="job-filename">
                        {job.filename}
                      </p>
                      <p className="flex items-center gap-1.5 text-[11px] text-slate-400">
                        <span className="font-mono">{job.id.slice(0, 8)}</span>
                        {job.source && job.source !== 'upload' && <span className="rounded bg-slate-100 px-1.5 py-px font-medium text-slate-600">{SOURCE_LABEL[job.source]}</span>}
                        {job.sandbox && (
                          <span className="rounded bg-amber-100 px-1.5 py-px font-medium text-amber-800" title="Started with a test key: sandbox results, no credits used" data-testid="job-sandbox">
                            Test
                          </span>
                        )}
                      </p>
                    </div>
                  </div>
                </td>
                <td className={cell()}>
                  <JobStatusBadge status={job.status} />
                </td>
                <td className={cell('whitespace-nowrap text-slate-600')} data-testid="job-created">
                  <span className="block text-slate-900">{formatDate(job.created_at)}</span>
                  <span className="block text-xs text-slate-500">{formatTime(job.created_at)}</span>
                </td>
                <td className={cell('text-right text-slate-900 tabular-nums')} data-testid="job-total">{formatCount(job.total_emails)}</td>
                <td className={cell('text-right text-slate-900 tabular-nums')} data-testid="job-processed">{formatCount(job.processed_emails)}</td>
                <td className={cell()}>
                  <Progress job={job} />
                </td>
                <td className={cell()}>
                  <div className="flex justify-end gap-2">
                    {onCancel && canCancel(job.status) && (
                      <Button variant="outline" size="sm" onClick={() => onCancel(job)}>
                        <Ban className="size-4" aria-hidden /> Cancel
                      </Button>
                    )}
                    <ActionTip show={!viewable} tip="Results are available once processing finishes">
                      <Button variant="outline" size="sm" disabled={!viewable} loading={viewing === job.id} onClick={() => onView(job)}>
                        <Eye className="size-4" aria-hidden /> View Results
                      </Button>
                    </ActionTip>
                    {downloadable ? (
                      <div className="flex">
                        <Tooltip content="Download results (CSV)">
                          <Button variant="outline" size="sm" className="w-9 rounded-r-none px-0" loading={downloading === job.id} onClick={() => onDownload(job)} aria-label="Download">
                            {downloading !== job.id && <Download className="size-4 shrink-0" aria-hidden />}
                          </Button>
                        </Tooltip>
                        <FilteredDownload onPick={(only) => onDownload(job, only)} disabled={downloading === job.id} />
                      </div>
                    ) : (
                      <span className="w-14" aria-hidden />
                    )}
                  </div>
                </td>
              </tr>
              {stalled && (
                <tr data-testid="job-stalled" data-job-id={job.id}>
                  <td colSpan={7} className="px-5 pt-0 pb-4">
                    <p className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-800 ring-1 ring-amber-600/10 ring-inset">
                      <Clock className="mt-px size-3.5 shrink-0" aria-hidden />
                      <span>{STALLED_NOTE}</span>
                    </p>
                  </td>
                </tr>
              )}
              {failure && (
                <tr data-testid="job-failure" data-job-id={job.id}>
                  <td colSpan={7} className="px-5 pt-0 pb-4">
                    <p className="flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2 text-xs text-red-800 ring-1 ring-red-600/10 ring-inset" data-testid="job-error">
                      <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden />
                      <span>
                        <span className="font-semibold">This job failed:</span> {failure}
                      </span>
                    </p>
                  </td>
                </tr>
              )}
              </Fragment>
            );
          })}
      </Table>
    </div>
  );
}

const FILTERS: Array<{ only: ResultKind; label: string }> = [
  { only: 'valid', label: 'Valid only' },
  { only: 'invalid', label: 'Invalid only' },
  { only: 'risky', label: 'Risky only' },
];

/** The download's other choices: one verdict at a time (the same CSV columns). */
function FilteredDownload({ onPick, disabled }: { onPick: (only: ResultKind) => void; disabled: boolean }) {
  return (
    <Menu>
      <MenuButton
        disabled={disabled}
        aria-label="One verdict only"
        className="-ml-px inline-flex h-8 w-6 items-center justify-center rounded-r-lg border border-slate-300 bg-white text-slate-600 shadow-sm hover:bg-slate-50 disabled:opacity-60"
      >
        <ChevronDown className="size-3.5" aria-hidden />
      </MenuButton>
      <MenuItems anchor="bottom end" className="z-50 mt-1 w-40 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg focus:outline-none">
        {FILTERS.map((f) => (
          <MenuItem key={f.only}>
            <button type="button" className="block w-full rounded-md px-3 py-1.5 text-left text-slate-700 data-focus:bg-slate-100" onClick={() => onPick(f.only)}>
              {f.label}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}

function ActionTip({ show, tip, children }: { show: boolean; tip: string; children: React.ReactElement }) {
  if (!show) return children;
  return (
    <Tooltip content={tip}>
      <span tabIndex={0} className={cn('rounded-lg')}>{children}</span>
    </Tooltip>
  );
}
