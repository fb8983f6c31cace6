import { FileUp, History as HistoryIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '../../../components/layouts/page-header';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ListEmpty, ListFailed, ListLoading } from '../../../components/ui/list-states';
import { paths } from '../../../config/paths';
import { toJobItem, useCancelJob, useDownloadJob, useFetchFirstPage, useJobBreakdown, useJobResults, useJobs, useLiveJobs } from '../../../features/jobs/api';
import { JobsTable } from '../../../features/jobs/jobs-table';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import type { ResultKind } from '../../../features/jobs/status-badge';
import { HISTORY_TEXT } from '../../../features/jobs/messages';
import { errorMessage } from '../../../lib/error-message';
import { ResultsDialog } from '../../../features/jobs/results-dialog';
import type { JobItem } from '../../../features/jobs/types';
import { useConfirmAction } from '../../../hooks/use-confirm-action';
import { cn } from '../../../lib/cn';

const PAGE_SIZE = 25;

/** How long the stream may take to connect before the indicator says the list is being refreshed instead. */
const CONNECT_GRACE_MS = 8000;

function LiveIndicator({ live }: { live: boolean }) {
  // Not live for a while (a proxy that blocks server-sent events): the list is polled (useJobs),
  // so say that rather than "Connecting..." for ever.
  const [polling, setPolling] = useState(false);
  useEffect(() => {
    if (live) {
      setPolling(false);
      return;
    }
    const t = setTimeout(() => setPolling(true), CONNECT_GRACE_MS);
    return () => clearTimeout(t);
  }, [live]);
  return (
    <span
      className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1 text-xs font-medium text-slate-600"
      data-testid="live-status"
      data-state={live ? 'live' : 'offline'}
      title={live ? 'The list updates as jobs change' : polling ? 'Live updates are unavailable; the list is reloaded every few seconds' : 'Connecting to live updates'}
    >
      <span className="relative flex size-2">
        {live && <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60" />}
        <span className={cn('relative inline-flex size-2 rounded-full', live ? 'bg-emerald-500' : 'bg-slate-300')} />
      </span>
      {live ? 'Live' : polling ? 'Refreshing every few seconds' : 'Connecting...'}
    </span>
  );
}

export default function HistoryRoute() {
  const live = useLiveJobs();
  const jobs = useJobs({ live: live.live });
  const fetchFirstPage = useFetchFirstPage();
  const download = useDownloadJob();
  const cancel = useCancelJob();
  const [openJobId, setOpenJobId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<string | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  const results = useJobResults(openJobId, page, PAGE_SIZE);
  const breakdown = useJobBreakdown(openJobId);

  const items = jobs.data?.pages.flatMap((p) => p.jobs.map(toJobItem)) ?? [];
  const openJob = items.find((j) => j.id === openJobId) ?? null;

  // A load failure (first load or a live refetch) is reported once, then logged.
  const reported = useRef(false);
  useEffect(() => {
    if (jobs.isError && !reported.current) {
      reported.current = true;
      console.error('Failed to load validation history:', jobs.error);
      toast.error(HISTORY_TEXT.errorTitle, { description: HISTORY_TEXT.loadHistoryFailed });
    }
    if (!jobs.isError) reported.current = false;
  }, [jobs.isError, jobs.error]);

  useEffect(() => {
    if (results.isError && openJobId) {
      console.error('Failed to load validation results:', results.error);
      toast.error(HISTORY_TEXT.errorTitle, { description: HISTORY_TEXT.loadResultsFailed });
    }
  }, [results.isError, results.error, openJobId]);

  async function view(job: JobItem) {
    setViewing(job.id);
    try {
      const first = await fetchFirstPage(job.id, PAGE_SIZE);
      if (first.total === 0) {
        toast.error(HISTORY_TEXT.noResultsTitle, { description: HISTORY_TEXT.noResultsBody });
        return;
      }
      setPage(1);
      setOpenJobId(job.id);
    } catch (e) {
      console.error('Failed to load validation results:', e);
      toast.error(HISTORY_TEXT.errorTitle, { description: HISTORY_TEXT.loadResultsFailed });
    } finally {
      setViewing(null);
    }
  }

  const cancellation = useConfirmAction<JobItem>({
    async run(job) {
      const out = await cancel.mutateAsync({ jobId: job.id });
      toast.success(HISTORY_TEXT.cancelledTitle, { description: HISTORY_TEXT.cancelledBody(out.processed, out.unprocessed) });
    },
    onError(e) {
      toast.error(HISTORY_TEXT.errorTitle, { description: errorMessage(e, 'The job could not be cancelled.') });
    },
    closeOnError: true,
  });

  async function save(job: JobItem, only?: ResultKind) {
    setDownloading(job.id);
    try {
      const filename = await download(job.id, only);
      toast.success(HISTORY_TEXT.downloadStartedTitle, { description: filename });
    } catch (e) {
      console.error('Download failed:', e);
      toast.error(HISTORY_TEXT.downloadFailedTitle, { description: errorMessage(e, 'The results could not be downloaded.') });
    } finally {
      setDownloading(null);
    }
  }

  return (
    <>
      <PageHeader
        title="History"
        description="Every bulk validation job and its results. The list updates live as jobs progress."
        actions={
          <>
            <LiveIndicator live={live.live} />
            <Button to={paths.dashboard.bulk}>
              <FileUp className="size-4" aria-hidden /> New Upload
            </Button>
          </>
        }
      />
      <Card>
        {jobs.isPending ? (
          <ListLoading />
        ) : jobs.isError && !jobs.data ? (
          <ListFailed message={HISTORY_TEXT.loadHistoryFailed} onRetry={() => void jobs.refetch()} />
        ) : items.length === 0 ? (
          <ListEmpty
            data-testid="history-empty"
            icon={HistoryIcon}
            tone="bg-slate-100 text-slate-500"
            title="No validation jobs yet"
            action={
              <Button to={paths.dashboard.bulk} variant="outline">
                <FileUp className="size-4" aria-hidden /> Upload a CSV
              </Button>
            }
          >
            Upload a CSV file and its progress will show here.
          </ListEmpty>
        ) : (
          <JobsTable jobs={items} onView={(j) => void view(j)} onDownload={(j, only) => void save(j, only)} onCancel={cancellation.ask} viewing={viewing} downloading={downloading} />
        )}
      </Card>
      {jobs.hasNextPage && (
        <div className="mt-4 flex justify-center">
          <Button variant="outline" onClick={() => void jobs.fetchNextPage()} loading={jobs.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      )}

      <ConfirmDialog
        {...cancellation.dialog}
        title={HISTORY_TEXT.cancelTitle}
        description={cancellation.target ? HISTORY_TEXT.cancelBody(cancellation.target.filename) : ''}
        confirmLabel="Cancel Job"
        cancelLabel="Keep Running"
      />

      <ResultsDialog
        job={openJob}
        onClose={() => setOpenJobId(null)}
        rows={results.data?.rows}
        total={results.data?.total ?? 0}
        page={page}
        pageSize={PAGE_SIZE}
        onPage={setPage}
        loading={results.isFetching}
        breakdown={breakdown.data ? { valid: breakdown.data.valid, invalid: breakdown.data.invalid, risky: breakdown.data.risky } : openJob?.breakdown}
        reasons={breakdown.data?.reasons}
        onDownload={(j) => void save(j)}
        downloading={openJob !== null && downloading === openJob.id}
      />
    </>
  );
}
