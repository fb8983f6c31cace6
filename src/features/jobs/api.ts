// The History and Bulk Upload screens' calls to the `jobs` router (server/features/jobs).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useEffect, useRef } from 'react';
import { FINISHED_JOB_STATUSES } from '../../../server/contracts/jobs';
import type { AppRouter } from '../../../server/trpc/app-router';
import { shownAccountHeaders, useTRPC } from '../../lib/trpc';
import { useJobStream } from './job-stream';
import type { JobItem } from './types';
import type { ResultKind } from './status-badge';

type Outputs = inferRouterOutputs<AppRouter>;
export type JobView = Outputs['jobs']['list']['jobs'][number];
/** skipped: values of the email column too long to be an address (over 1,024 characters), left out of the job. */
export type UploadOutcome = { jobId: string; totalEmails: number; skipped: number };

/** Server job → the list's row (breakdown from the job's running counts). */
export function toJobItem(j: JobView): JobItem {
  return {
    id: j.id,
    filename: j.filename,
    status: j.status,
    total_emails: j.total_emails,
    processed_emails: j.processed_emails,
    created_at: j.created_at,
    source: j.source,
    sandbox: j.is_sandbox,
    error: j.error,
    stalled: j.stalled,
    breakdown: { valid: j.valid_count, invalid: j.invalid_count, risky: j.risky_count },
  };
}

/** How often History reloads while the live stream is down and a job shown is unfinished. */
export const OFFLINE_POLL_MS = 3000;
/** …and while it is down with every job shown finished (a job may still start elsewhere: the API, a schedule, another browser). */
export const OFFLINE_IDLE_POLL_MS = 15_000;

/**
 * History's jobs, newest first, a page at a time (`fetchNextPage` for older ones). A refetch (live
 * update) reloads every page shown, each from the fresh page before it, so none is missed or doubled.
 * While `live` is false (the stream is not connected: a proxy that buffers or blocks server-sent
 * events, a dropped connection), the list is reloaded instead: every few seconds while a job shown
 * is unfinished, so it still moves to Completed without a reload, and now and then otherwise, so a
 * job started elsewhere still appears.
 */
export function useJobs({ live }: { live: boolean }) {
  const trpc = useTRPC();
  return useInfiniteQuery({
    ...trpc.jobs.list.infiniteQueryOptions({}, { getNextPageParam: (page) => page.nextCursor }),
    refetchInterval: (query) =>
      live ? false : query.state.data?.pages.some((p) => p.jobs.some((j) => !FINISHED_JOB_STATUSES.includes(j.status))) ? OFFLINE_POLL_MS : OFFLINE_IDLE_POLL_MS,
  });
}

/**
 * Spec section 7, Realtime: every change to one of the account's jobs (Postgres NOTIFY → SSE)
 * refetches the list, and the breakdown of the job that changed. Bursts (a chunk finishing every
 * few ms) coalesce into one refetch per 300 ms. A (re)connection refetches too, so nothing missed
 * while the stream was down stays stale. The stream is shared by every tab of the browser (job-stream.ts).
 */
export function useLiveJobs() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const changed = useRef(new Set<string>());

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  function refresh(jobId?: string) {
    if (jobId) changed.current.add(jobId);
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      const ids = [...changed.current];
      changed.current.clear();
      void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.infiniteQueryKey() });
      for (const id of ids) {
        void queryClient.invalidateQueries({ queryKey: trpc.jobs.breakdown.queryKey({ jobId: id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.jobs.byId.queryKey({ jobId: id }) });
      }
    }, 300);
  }

  return useJobStream({ onStarted: () => refresh(), onEvent: (e) => refresh(e.jobId) });
}

export function useJobResults(jobId: string | null, page: number, pageSize: number) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.jobs.results.queryOptions({ jobId: jobId ?? '', page, pageSize }),
    enabled: jobId !== null,
    placeholderData: (prev) => prev,
    retry: 1,
  });
}

export function useJobBreakdown(jobId: string | null) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.jobs.breakdown.queryOptions({ jobId: jobId ?? '' }), enabled: jobId !== null });
}

/** Fetches the first page of a job's results once (to decide between the dialog and 'No Results'). */
export function useFetchFirstPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (jobId: string, pageSize: number) =>
    queryClient.fetchQuery({ ...trpc.jobs.results.queryOptions({ jobId, page: 1, pageSize }), staleTime: 0, retry: 1 });
}


/** The file name the server gives in Content-Disposition (attachment; filename="…"). */
function dispositionName(header: string | null): string | null {
  const m = header ? /filename="([^"]+)"/.exec(header) : null;
  return m?.[1] ?? null;
}

/**
 * Fetches the result CSV (always fresh) from GET /api/jobs/:id/export, the one download door, and
 * saves it under the server's name (with the job id). `only` keeps one verdict (valid, invalid, risky).
 */
export function useDownloadJob() {
  return async (jobId: string, only?: ResultKind): Promise<string> => {
    const res = await fetch(`/api/jobs/${encodeURIComponent(jobId)}/export${only ? `?result=${only}` : ''}`, { credentials: 'include', cache: 'no-store' });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      throw new Error(body?.error?.message ?? '');
    }
    const filename = dispositionName(res.headers.get('content-disposition')) ?? `validation-results-${jobId}.csv`;
    // The bytes as sent: res.text() would drop the byte-order mark that makes Excel read the file as UTF-8.
    saveBlob(new Blob([await res.arrayBuffer()], { type: 'text/csv;charset=utf-8' }), filename);
    return filename;
  };
}

/** Cancels a running job (jobs.cancel); the list, the balance and the Overview refresh. */
export function useCancelJob() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.jobs.cancel.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.infiniteQueryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() });
      },
    }),
  );
}

export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A refusal of the upload route: { error: { code, title?, message } }. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly title: string | undefined,
    readonly code: string | undefined,
    /** Refused because the session was switched to another account in another tab (query-client.ts refreshes the page's data). */
    readonly accountChanged = false,
  ) {
    super(message);
  }
}

/**
 * Spec section 7 (Storage, then process-bulk-validation) in one request: the file's bytes go to
 * POST /api/jobs/upload (raw body, up to the full 10 MB), which stores the file and creates the job.
 */
export function useUploadCsv() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const http = useMutation({
    mutationFn: async (file: File): Promise<UploadOutcome> => {
      const res = await fetch(`/api/jobs/upload?filename=${encodeURIComponent(file.name)}`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': file.type || 'text/csv', ...shownAccountHeaders() },
        body: file,
      });
      const body = (await res.json().catch(() => null)) as { jobId?: string; totalEmails?: number; skipped?: number; error?: { message?: string; title?: string; code?: string; accountChanged?: boolean } | string } | null;
      if (!res.ok || !body?.jobId) {
        const err = typeof body?.error === 'object' ? body.error : undefined;
        throw new UploadError(err?.message ?? '', err?.title, err?.code, err?.accountChanged === true);
      }
      return { jobId: body.jobId, totalEmails: body.totalEmails ?? 0, skipped: body.skipped ?? 0 };
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.infiniteQueryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() });
    },
  });
  return { isPending: http.isPending, mutateAsync: http.mutateAsync };
}
