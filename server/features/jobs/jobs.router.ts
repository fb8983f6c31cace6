// Bulk jobs for the dashboard (Bulk Upload, History). Thin: input → service/query → output.
import { jobIdInput, jobResultsInput, listJobsInput, processBulkValidationInput, uploadJobInput } from '../../contracts/jobs';
import { router } from '../../trpc/init';
import { accountProcedure, requirePlan, withinAccountRate } from '../../trpc/procedures';
import { accountJobEvents, type JobChangeEvent } from './job-events';
import { findJob, jobResultsPage, listJobs, reasonBreakdown } from './jobs.queries';
import { exportJobCsv, processBulkValidation, uploadBulkFile } from './jobs.service';
import { AppError } from '../../lib/app-error';
import { isStillMember } from '../account/account.queries';

const csvProcedure = accountProcedure.use(requirePlan('csvUpload')).use(withinAccountRate);

export const jobsRouter = router({
  /** Stores the CSV (validation-files/{userId}/{timestamp}-{filename}) and creates the job. */
  upload: csvProcedure.input(uploadJobInput).mutation(async ({ ctx, input }) => {
    const bytes = Buffer.from(input.contentBase64, 'base64');
    const r = await uploadBulkFile(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id, plan: ctx.plan }, { filename: input.filename, bytes });
    return { jobId: r.jobId, totalEmails: r.totalEmails, fileName: r.fileName, duplicates: r.duplicates };
  }),

  /** process-bulk-validation for a file already stored by POST /api/jobs/upload?store=only. */
  process: csvProcedure.input(processBulkValidationInput).mutation(({ ctx, input }) =>
    processBulkValidation(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id, plan: ctx.plan }, input),
  ),

  /** The account's jobs, newest first. */
  list: accountProcedure.input(listJobsInput).query(({ ctx, input }) => listJobs(ctx.deps.db, ctx.accountId, input?.limit ?? 100)),

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

  /** The result download as CSV text (spec columns), only when completed. Also GET /api/jobs/:id/export. */
  export: accountProcedure.input(jobIdInput).query(({ ctx, input }) => exportJobCsv(ctx.deps.db, ctx.accountId, input.jobId)),

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
   * Membership and session are checked again before each event: a member removed from the team (or
   * signed out) gets no further events; the stream ends and a reconnect resolves their account anew.
   */
  onChange: accountProcedure.subscription(async function* ({ ctx, signal }): AsyncGenerator<JobChangeEvent> {
    if (!ctx.deps.pool) throw new AppError('INTERNAL_ERROR', 'Live job updates are unavailable.');
    for await (const e of accountJobEvents(ctx.deps.pool, ctx.accountId, signal)) {
      if (!(await isStillMember(ctx.deps.db, { userId: ctx.user.id, accountId: ctx.accountId, sessionId: ctx.sessionId }))) return;
      yield e;
    }
  }),
});
