// Bulk jobs for the dashboard (Bulk Upload, History). Thin: input → service/query → output.
import { jobIdInput, jobResultsInput, listJobsInput } from '../../contracts/jobs';
import { middleware, router } from '../../trpc/init';
import { accountProcedure } from '../../trpc/procedures';
import { accountJobEvents, type JobChangeEvent } from './job-events';
import { findJob, jobResultsPage, reasonBreakdown } from './jobs.queries';
import { listAccountJobs } from './job-results';
import { AppError } from '../../lib/app-error';
import { isStillMember } from '../account/account.queries';
import { cancelJob } from './job-cancel';

// Uploads arrive through POST /api/jobs/upload and downloads leave through GET /api/jobs/:id/export
// (jobs.http.ts): one door each, for bytes JSON carries badly.
/**
 * Live job streams one user may hold at once in one server process (the SPA keeps one per browser).
 * Each is a socket, a listener and a membership query per job event of the account: unbounded, one
 * session could hold thousands and turn a bulk job's progress updates into thousands of queries.
 */
export const MAX_JOB_STREAMS_PER_USER = 10;
const openStreams = new Map<string, number>();

/** Refuses a new stream past the cap before it starts, so the client hears a 429 rather than a stream that ends. */
const withinStreamCap = middleware(({ ctx, next }) => {
  const { user } = ctx as { user: { id: string } };
  if ((openStreams.get(user.id) ?? 0) >= MAX_JOB_STREAMS_PER_USER) {
    throw new AppError('RATE_LIMITED', `You have at most ${MAX_JOB_STREAMS_PER_USER} live update connections open; close other tabs or windows (pages refresh on their own meanwhile).`);
  }
  return next();
});

export const jobsRouter = router({
  /** The account's jobs, newest first, a page at a time (the same cursors as GET /v1/jobs). */
  list: accountProcedure
    .input(listJobsInput)
    .query(({ ctx, input }) => listAccountJobs(ctx.deps.db, ctx.accountId, { cursor: input?.cursor ?? undefined, limit: input?.limit ?? 50 })),

  byId: accountProcedure.input(jobIdInput).query(async ({ ctx, input }) => {
    const job = await findJob(ctx.deps.db, ctx.accountId, input.jobId);
    if (!job) throw new AppError('NOT_FOUND', 'Job not found');
    return job;
  }),

  /** A page of a job's results, newest first. Not while pending or processing (spec section 4). */
  results: accountProcedure.input(jobResultsInput).query(async ({ ctx, input }) => {
    const job = await findJob(ctx.deps.db, ctx.accountId, input.jobId);
    if (!job) throw new AppError('NOT_FOUND', 'Job not found');
    if (job.status === 'pending' || job.status === 'processing') throw new AppError('CONFLICT', 'Results can be viewed once the job has finished.');
    const page = await jobResultsPage(ctx.deps.db, ctx.accountId, input.jobId, input.page, input.pageSize);
    return { ...page, page: input.page, pageSize: input.pageSize };
  }),

  /** Stops a running job: what is done stays, nothing more is checked or charged (job-cancel.ts). */
  cancel: accountProcedure.input(jobIdInput).mutation(async ({ ctx, input }) => {
    const out = await cancelJob(ctx.deps.db, { accountId: ctx.accountId, jobId: input.jobId, userId: ctx.user.id, actor: 'user' });
    return { jobId: out.job.id, status: out.job.status, processed: out.processed, unprocessed: out.unprocessed, creditsCharged: out.creditsCharged };
  }),

  /** Valid / invalid / risky counts and the reasons behind them. */
  breakdown: accountProcedure.input(jobIdInput).query(async ({ ctx, input }) => {
    const job = await findJob(ctx.deps.db, ctx.accountId, input.jobId);
    if (!job) throw new AppError('NOT_FOUND', 'Job not found');
    return {
      jobId: job.id,
      status: job.status,
      total: job.total_emails,
      processed: job.processed_emails,
      valid: job.valid_count,
      invalid: job.invalid_count,
      risky: job.risky_count,
      reasons: await reasonBreakdown(ctx.deps.db, ctx.accountId, job.id),
    };
  }),

  /**
   * Every change to one of the caller's jobs (SSE: use httpSubscriptionLink). Refetch `list` on each.
   * Membership, session and the session's active account are checked again before each event: a
   * member removed from the team (or signed out, or switched to another of their accounts) gets no
   * further events; the stream ends and a reconnect resolves their account anew.
   */
  onChange: accountProcedure.use(withinStreamCap).subscription(async function* ({ ctx, signal }): AsyncGenerator<JobChangeEvent> {
    if (!ctx.deps.pool) throw new AppError('INTERNAL_ERROR', 'Live job updates are unavailable.');
    const userId = ctx.user.id;
    // Counted from the stream's start to its end (the cap is checked before it starts: withinStreamCap).
    openStreams.set(userId, (openStreams.get(userId) ?? 0) + 1);
    try {
      for await (const e of accountJobEvents(ctx.deps.pool, ctx.accountId, signal)) {
        if (!(await isStillMember(ctx.deps.db, { userId, accountId: ctx.accountId, sessionId: ctx.sessionId }))) return;
        yield e;
      }
    } finally {
      const left = (openStreams.get(userId) ?? 1) - 1;
      if (left > 0) openStreams.set(userId, left);
      else openStreams.delete(userId);
    }
  }),
});
