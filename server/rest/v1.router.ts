// The public REST API (/v1), served by trpc-to-openapi from these procedures and documented by the
// OpenAPI document generated from them (/v1/openapi.json). Every procedure is an
// apiKeyProcedure(scope), which declares the key scope it needs: Bearer key, plan with API access,
// scope, per-key and per-plan rate. A test key's ctx.sandbox routes its work to the sandbox. Services do the work; this file only maps shapes.
import { z } from 'zod';
import { reasonSchema } from '../../probe/contract';
import { API_SCOPES } from '../contracts/api-keys';
import { listAddress, MAX_EMAILS_PER_FILE } from '../contracts/jobs';
import type { PlanType } from '../contracts/plans';
import type { AppDeps } from '../deps';
import { checkSingleEmail, SINGLE_CHECK_MAX_LENGTH } from '../features/validation/validation.service';
import { checkWebhookUrl } from '../features/webhooks/webhook-url';
import { AppError } from '../lib/app-error';
import { router } from '../trpc/init';
import { requirePlan } from '../trpc/procedures';
import { createApiBulkJob, uniqueAddresses } from '../features/jobs/api-jobs';
import { publicJobSchema, publicResultSchema, toPublicJob, toPublicResult } from '../contracts/public-api';
import { jobStatusSchema } from '../contracts/jobs';
import { apiKeyProcedure } from './rest-procedures';
import { apiAccountSummary, checkSandboxEmail } from '../features/api-keys/api-keys.service';
import { accountJobOr404, exportJobCsv, listAccountJobs, parseReasons, parseResultKinds, resultsAfterCursor } from '../features/jobs/job-results';
import { cancelJob } from '../features/jobs/job-cancel';
import { ESTIMATE_MODEL, MAX_ESTIMATE_EMAILS, estimateForAccount } from '../features/validation/estimate.service';
import { sandboxResult } from '../features/api-keys/sandbox';
import { restStateOf, type RestState } from './rest-context';

const TAG_VALIDATION = 'Validation';
const TAG_JOBS = 'Jobs';
const COMMON_ERRORS = {
  400: 'Bad input',
  401: 'Missing, invalid or revoked API key',
  403: "Plan does not include API access, or the key's creator has no seat in the team on the current plan (PLAN_REQUIRED); or the key lacks the scope (SCOPE_REQUIRED, with scope)",
  429: 'Rate limit exceeded (see Retry-After)',
};

export const validateInput = z.object({
  email: z
    .string({ error: 'email is required and must be a string.' })
    .max(SINGLE_CHECK_MAX_LENGTH, `email must be at most ${SINGLE_CHECK_MAX_LENGTH} characters.`)
    .meta({ description: 'The address to validate.', example: 'jane.cooper@acme-corp.com' }),
});

const bulkInput = z.object({
  emails: z
    .array(listAddress(z.string({ error: 'emails must contain only strings.' }).max(SINGLE_CHECK_MAX_LENGTH, `Each address must be at most ${SINGLE_CHECK_MAX_LENGTH} characters.`)), {
      error: 'emails is required and must be an array of strings.',
    })
    .min(1, 'emails must contain at least one address.')
    .max(MAX_EMAILS_PER_FILE, `emails can contain at most ${MAX_EMAILS_PER_FILE.toLocaleString('en-US')} addresses per request.`)
    .meta({ description: `The addresses to validate (1–${MAX_EMAILS_PER_FILE.toLocaleString('en-US')}). Duplicates are validated once.` }),
  webhook_url: z
    .string({ error: 'webhook_url must be a string.' })
    .optional()
    .meta({ description: 'HTTPS URL we POST a signed job.completed / job.failed / job.cancelled event to when the job ends.', example: 'https://yourapp.com/hooks/mailvet' }),
});

const bulkOutput = z.object({
  job_id: z.string(),
  total_emails: z.number().int(),
  status: z.literal('pending'),
});

export const MAX_RESULTS_PAGE = MAX_EMAILS_PER_FILE;
export const MAX_JOBS_PAGE = 100;

/** A query parameter given twice reaches the schema as a list: say how to send it, not zod's "expected string, received array". */
const ONE_CURSOR = 'cursor must be given once: pass next_cursor from the previous page.';

/**
 * A page size from the query string: plain decimal digits only. z.coerce.number read it as
 * JavaScript's Number() does: limit=0x10 was 16, 1e1 was 10, " 10", "+10" and "10.0" were 10, and
 * an empty limit= was 0; each is now a 400 naming the parameter. Leading zeros stay decimal (010 is 10).
 * The document still says integer (1–max): that is what a client sends.
 */
const LIMIT_DIGITS = 'limit must be a whole number written with the digits 0-9 only (e.g. limit=50).';
function pageLimit(max: number, maxText: string, description: string) {
  return z
    .string({ error: 'limit must be given once, as a whole number (e.g. limit=50).' })
    .regex(/^[0-9]+$/, LIMIT_DIGITS)
    .transform((digits) => Number(digits))
    .pipe(z.number().min(1, 'limit must be at least 1.').max(max, `limit can be at most ${maxText}.`))
    .meta({
      description,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        for (const k of Object.keys(jsonSchema)) delete jsonSchema[k];
        Object.assign(jsonSchema, { type: 'integer', minimum: 1, maximum: max, description });
      },
    })
    .optional();
}

const listJobsInput = z.object({
  limit: pageLimit(MAX_JOBS_PAGE, String(MAX_JOBS_PAGE), `Jobs per page (1–${MAX_JOBS_PAGE}, default 20), newest first.`),
  cursor: z.string({ error: ONE_CURSOR }).max(200).optional().meta({ description: 'next_cursor from the previous page (opaque).' }),
});

const listJobsOutput = z.object({
  jobs: z.array(publicJobSchema),
  next_cursor: z.string().nullable().meta({ description: 'Pass as cursor to get the next page; null on the last page.' }),
});

const cancelOutput = z
  .object({
    job: publicJobSchema,
    processed_emails: z.number().int().meta({ description: 'Addresses checked before the cancel; their results are kept.' }),
    unprocessed_emails: z.number().int().meta({ description: 'Addresses never checked.' }),
    credits_charged: z.number().int().meta({ description: 'Credits the kept results cost.' }),
    credits_not_charged: z.number().int().meta({
      description: 'Credits the unchecked addresses did not cost: a job takes one credit per stored result, so nothing was ever taken for them and your balance stays as it is.',
    }),
  })
  .meta({ id: 'CancelledJob' });

const estimateInput = z.object({
  emails: z
    .array(listAddress(z.string({ error: 'emails must contain only strings.' }).max(SINGLE_CHECK_MAX_LENGTH, `Each address must be at most ${SINGLE_CHECK_MAX_LENGTH} characters.`)), {
      error: 'emails is required and must be an array of strings.',
    })
    .min(1, 'emails must contain at least one address.')
    .max(MAX_ESTIMATE_EMAILS, `emails can contain at most ${MAX_ESTIMATE_EMAILS} addresses per estimate.`)
    .meta({ description: `A sample of up to ${MAX_ESTIMATE_EMAILS} addresses.` }),
});

const estimateOutput = z
  .object({
    results: z.array(
      z.object({
        email: z.string(),
        outcome: z.enum(['deliverable_domain', 'undeliverable', 'undecided']).meta({
          description: 'deliverable_domain: the domain has working mail servers (the mailbox was not asked); undeliverable: bad syntax or a domain that cannot receive mail; undecided: DNS could not be decided.',
        }),
        reason: reasonSchema,
        syntax_valid: z.boolean(),
        mx_valid: z.boolean(),
        disposable_provider: z.boolean(),
        role_detected: z.boolean(),
      }),
    ),
    checked: z.number().int(),
    deliverable_domains: z.number().int(),
    undeliverable: z.number().int(),
    undecided: z.number().int(),
    predicted_bounce_rate: z.number().min(0).max(1).nullable().meta({ description: ESTIMATE_MODEL }),
  })
  .meta({ id: 'Estimate' });

/** CSV when asked by format=csv, or by an Accept header that prefers text/csv over JSON. */
function wantsCsv(format: 'json' | 'csv' | undefined, accept: string | null): boolean {
  if (format !== undefined) return format === 'csv';
  return /\btext\/csv\b/i.test(accept ?? '') && !/application\/(json|\*)/i.test(accept ?? '');
}

const resultsInput = z.object({
  id: z.string().max(100),
  limit: pageLimit(MAX_RESULTS_PAGE, MAX_RESULTS_PAGE.toLocaleString('en-US'), `Results per page (1–${MAX_RESULTS_PAGE.toLocaleString('en-US')}, default ${MAX_RESULTS_PAGE.toLocaleString('en-US')}: a whole job).`),
  cursor: z.string({ error: ONE_CURSOR }).max(200).optional().meta({ description: 'next_cursor from the previous page (opaque).' }),
  result: z.string({ error: 'result must be given once, as a comma-separated list (result=invalid,risky).' }).max(100).optional().meta({ description: 'Only these verdicts: valid, invalid, risky (comma-separated).', example: 'invalid,risky' }),
  reason: z.string({ error: 'reason must be given once, as a comma-separated list (reason=mailbox_not_found,catch_all).' }).max(1000).optional().meta({ description: 'Only these reason codes (comma-separated), e.g. mailbox_not_found,catch_all.' }),
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv.' }).optional().meta({ description: 'csv answers text/csv (the result fields as columns, spreadsheet formulas neutralised, next page in the X-Next-Cursor header); so does Accept: text/csv.' }),
});

const resultsOutput = z.object({
  job_id: z.string(),
  status: jobStatusSchema,
  total_emails: z.number().int(),
  results: z.array(publicResultSchema),
  next_cursor: z.string().nullable().meta({ description: 'Pass as cursor to get the next page; null on the last page.' }),
});

async function startBulk(ctx: { deps: AppDeps; accountId: string; keyId: string; plan: PlanType; sandbox: boolean; rest?: RestState }, input: z.infer<typeof bulkInput>) {
  let webhookUrl: string | null = null;
  if (input.webhook_url !== undefined) {
    const check = await checkWebhookUrl(input.webhook_url.trim(), { allowPrivate: ctx.deps.env.WEBHOOK_ALLOW_PRIVATE, dnsServers: ctx.deps.env.WEBHOOK_DNS_SERVERS });
    if (!check.ok) throw new AppError('BAD_INPUT', check.message);
    webhookUrl = check.url.toString();
  }
  const emails = uniqueAddresses(input.emails);
  if (emails.length === 0) throw new AppError('BAD_INPUT', 'No valid email addresses found');
  const job = await createApiBulkJob(ctx.deps.db, { accountId: ctx.accountId, keyId: ctx.keyId, plan: ctx.plan, emails, webhookUrl, sandbox: ctx.sandbox, filename: ctx.rest?.upload?.filename });
  return { job_id: job.jobId, total_emails: job.totalEmails, status: 'pending' as const };
}

// webhook_url follows the plan table (Pro and up): 403 PLAN_REQUIRED otherwise, before anything is queued.
const bulkProcedure = apiKeyProcedure('bulk')
  .use(requirePlan('csvUpload'))
  .use(requirePlan('webhooks', (input) => (input as { webhook_url?: unknown } | null)?.webhook_url !== undefined))
  .input(bulkInput)
  .output(bulkOutput);

const TAG_ACCOUNT = 'Account';

const accountOutput = z
  .object({
    plan: z.enum(['free', 'starter', 'pro', 'business', 'enterprise']),
    credits_balance: z.number().int(),
    rate_limit_per_second: z.number().int().meta({ description: "Requests per second this key may make: its own limit, or the plan's." }),
    key: z.object({
      id: z.string(),
      name: z.string(),
      key_prefix: z.string(),
      test: z.boolean().meta({ description: 'A test key: answers from the sandbox, never costs credits.' }),
      scopes: z.array(z.enum(API_SCOPES)),
    }),
  })
  .meta({ id: 'Account' });

/** POST /v1/validate's work once the gates passed (also run by rest/mount.ts's direct route). */
export async function validateOne(ctx: { deps: AppDeps; accountId: string; plan: PlanType; sandbox: boolean }, input: z.infer<typeof validateInput>) {
  if (ctx.sandbox) return toPublicResult(checkSandboxEmail(input.email));
  const r = await checkSingleEmail({ db: ctx.deps.db, probe: ctx.deps.probe }, { accountId: ctx.accountId, userId: null, plan: ctx.plan, email: input.email });
  return toPublicResult(r);
}

export const v1Router = router({
  account: apiKeyProcedure('account')
    .meta({
      openapi: {
        method: 'GET',
        path: '/account',
        tags: [TAG_ACCOUNT],
        summary: 'Your plan, credits and this key',
        description: 'The account behind the key: plan, credit balance, and the calling key (test or live, scopes, rate limit).',
        errorResponses: COMMON_ERRORS,
      },
    })
    .input(z.object({}))
    .output(accountOutput)
    .query(({ ctx }) => apiAccountSummary(ctx.deps.db, { accountId: ctx.accountId, keyId: ctx.keyId, plan: ctx.plan })),

  validate: apiKeyProcedure('validate')
    .meta({
      openapi: {
        method: 'POST',
        path: '/validate',
        tags: [TAG_VALIDATION],
        summary: 'Validate a single address',
        description: 'Runs every check your plan includes and returns the verdict synchronously. Uses one credit.',
        errorResponses: { ...COMMON_ERRORS, 402: 'Insufficient credits', 503: 'Verification service unavailable (no credit used)' },
      },
    })
    .input(validateInput)
    .output(publicResultSchema)
    .mutation(({ ctx, input }) => validateOne(ctx, input)),

  estimate: apiKeyProcedure('validate')
    .meta({
      openapi: {
        method: 'POST',
        path: '/estimate',
        tags: [TAG_VALIDATION],
        summary: 'Estimate a list before validating it (free)',
        description: `Checks a sample of up to ${MAX_ESTIMATE_EMAILS} addresses for syntax and DNS/MX only: no SMTP connection, nothing stored, no credit used. Returns each address's outcome and a predicted bounce rate. Model: ${ESTIMATE_MODEL}`,
        errorResponses: { ...COMMON_ERRORS, 402: 'Account suspended (a subscription payment is unpaid)', 503: 'Verification service unavailable' },
      },
    })
    .input(estimateInput)
    .output(estimateOutput)
    .mutation(({ ctx, input }) => estimateForAccount(ctx.deps, { accountId: ctx.accountId, emails: input.emails, answer: ctx.sandbox ? sandboxResult : undefined })),

  bulk: bulkProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/bulk',
        tags: [TAG_JOBS],
        summary: 'Start a bulk validation job',
        description: `Queues up to ${MAX_EMAILS_PER_FILE.toLocaleString('en-US')} addresses and returns at once. Send JSON, or a CSV file as multipart/form-data (field "file", optional field "webhook_url"; the dashboard's CSV rules: up to 10 MB, an email column or the first column, 10,000 unique addresses). Follow the job with GET /jobs/{id}, or pass webhook_url. One credit per unique address; the balance must cover them all.`,
        errorResponses: { ...COMMON_ERRORS, 402: 'Insufficient credits' },
      },
    })
    .mutation(({ ctx, input }) => startBulk(ctx, input)),

  /** The same endpoint under the name the documentation also uses. */
  bulkValidate: bulkProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/bulk-validate',
        tags: [TAG_JOBS],
        summary: 'Start a bulk validation job (alias of POST /bulk)',
        errorResponses: { ...COMMON_ERRORS, 402: 'Insufficient credits' },
      },
    })
    .mutation(({ ctx, input }) => startBulk(ctx, input)),

  jobs: router({
    get: apiKeyProcedure('results')
      .meta({
        openapi: {
          method: 'GET',
          path: '/jobs/{id}',
          tags: [TAG_JOBS],
          summary: "Get a job's status",
          errorResponses: { ...COMMON_ERRORS, 404: 'No such job in this account' },
        },
      })
      .input(z.object({ id: z.string().max(100) }))
      .output(publicJobSchema)
      .query(async ({ ctx, input }) => {
        return toPublicJob(await accountJobOr404(ctx.deps.db, ctx.accountId, input.id, { sandbox: ctx.sandbox }));
      }),

    list: apiKeyProcedure('results')
      .meta({
        openapi: {
          method: 'GET',
          path: '/jobs',
          tags: [TAG_JOBS],
          summary: "List your account's jobs",
          description: 'Newest first, in the public job shape. Paginate with limit and cursor (opaque; a cursor that is not one of ours is a 400).',
          errorResponses: COMMON_ERRORS,
        },
      })
      .input(listJobsInput)
      .output(listJobsOutput)
      .query(async ({ ctx, input }) => {
        const page = await listAccountJobs(ctx.deps.db, ctx.accountId, { cursor: input.cursor, limit: input.limit ?? 20, sandbox: ctx.sandbox });
        return { jobs: page.jobs.map(toPublicJob), next_cursor: page.nextCursor };
      }),

    results: apiKeyProcedure('results')
      .meta({
        openapi: {
          method: 'GET',
          path: '/jobs/{id}/results',
          tags: [TAG_JOBS],
          summary: "Get a job's results",
          description:
            'One result per address, in the public result shape, in a stable order (the order they were checked). While the job runs you get what is done so far: keep the last next_cursor and ask again for the rest. Filter by result and reason; JSON, or CSV with format=csv or Accept: text/csv.',
          errorResponses: { ...COMMON_ERRORS, 404: 'No such job in this account' },
        },
      })
      .input(resultsInput).output(resultsOutput)
      .query(async ({ ctx, input }) => {
        const filter = { results: parseResultKinds(input.result), reasons: parseReasons(input.reason), cursor: input.cursor, limit: input.limit ?? MAX_RESULTS_PAGE };
        const job = await accountJobOr404(ctx.deps.db, ctx.accountId, input.id, { sandbox: ctx.sandbox });
        if (wantsCsv(input.format, ctx.headers.get('accept'))) {
          const out = await exportJobCsv(ctx.deps.db, ctx.accountId, job.id, { ...filter, columns: 'public', whileRunning: true });
          const state = restStateOf(ctx);
          if (state) {
            state.rawBody = { contentType: 'text/csv; charset=utf-8', text: out.csv };
            state.responseHeaders['Content-Disposition'] = `attachment; filename="${out.filename}"`;
            if (out.nextCursor) state.responseHeaders['X-Next-Cursor'] = out.nextCursor;
          }
          return { job_id: job.id, status: out.job.status, total_emails: job.total_emails, results: [], next_cursor: out.nextCursor };
        }
        const page = await resultsAfterCursor(ctx.deps.db, ctx.accountId, job.id, filter);
        return {
          job_id: job.id,
          status: page.job.status,
          total_emails: job.total_emails,
          results: page.rows.map(toPublicResult),
          next_cursor: page.nextCursor,
        };
      }),

    cancel: apiKeyProcedure('bulk')
      .meta({
        openapi: {
          method: 'POST',
          path: '/jobs/{id}/cancel',
          tags: [TAG_JOBS],
          summary: 'Cancel a job',
          description:
            'Stops a pending or processing job: no further address is checked or charged, the results done so far are kept (GET /jobs/{id}/results), and the job ends with status cancelled. Cancelling a cancelled job again returns the same answer and changes nothing.',
          errorResponses: { ...COMMON_ERRORS, 404: 'No such job in this account', 409: 'The job has already completed or failed' },
        },
      })
      .input(z.object({ id: z.string().max(100) }))
      .output(cancelOutput)
      .mutation(async ({ ctx, input }) => {
        await accountJobOr404(ctx.deps.db, ctx.accountId, input.id, { sandbox: ctx.sandbox });
        const out = await cancelJob(ctx.deps.db, { accountId: ctx.accountId, jobId: input.id, userId: null, actor: 'api_key', apiKeyId: ctx.keyId });
        return { job: toPublicJob(out.job), processed_emails: out.processed, unprocessed_emails: out.unprocessed, credits_charged: out.creditsCharged, credits_not_charged: out.creditsNotCharged };
      }),
  }),
});

export type V1Router = typeof v1Router;
