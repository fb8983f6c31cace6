// The public REST API (/v1), served by trpc-to-openapi from these procedures and documented by the
// OpenAPI document generated from them (/v1/openapi.json). Every procedure is an
// apiKeyProcedure(scope), which declares the key scope it needs: Bearer key, plan with API access,
// scope, per-key and per-plan rate. A test key's ctx.sandbox routes its work to the sandbox. Services do the work; this file only maps shapes.
import { z } from 'zod';
import { hasNul, NUL_MESSAGE } from '../../probe/contract';
import { API_SCOPES } from '../contracts/api-keys';
import { MAX_EMAILS_PER_FILE } from '../contracts/jobs';
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
import { accountJobOr404, resultsAfterCursor } from '../features/jobs/job-results';

const TAG_VALIDATION = 'Validation';
const TAG_JOBS = 'Jobs';
const COMMON_ERRORS = {
  400: 'Bad input',
  401: 'Missing, invalid or revoked API key',
  403: 'Plan does not include API access (PLAN_REQUIRED), or the key lacks the scope (SCOPE_REQUIRED, with scope)',
  429: 'Rate limit exceeded (see Retry-After)',
};

const validateInput = z.object({
  email: z
    .string({ error: 'email is required and must be a string.' })
    .max(SINGLE_CHECK_MAX_LENGTH, `email must be at most ${SINGLE_CHECK_MAX_LENGTH} characters.`)
    .meta({ description: 'The address to validate.', example: 'jane.cooper@acme-corp.com' }),
});

const bulkInput = z.object({
  emails: z
    .array(z
        .string({ error: 'emails must contain only strings.' })
        .max(SINGLE_CHECK_MAX_LENGTH, `Each address must be at most ${SINGLE_CHECK_MAX_LENGTH} characters.`)
        .refine((e) => !hasNul(e), NUL_MESSAGE), {
      error: 'emails is required and must be an array of strings.',
    })
    .min(1, 'emails must contain at least one address.')
    .max(MAX_EMAILS_PER_FILE, `emails can contain at most ${MAX_EMAILS_PER_FILE.toLocaleString('en-US')} addresses per request.`)
    .meta({ description: `The addresses to validate (1–${MAX_EMAILS_PER_FILE.toLocaleString('en-US')}). Duplicates are validated once.` }),
  webhook_url: z
    .string({ error: 'webhook_url must be a string.' })
    .optional()
    .meta({ description: 'HTTPS URL we POST a signed job.completed / job.failed event to when the job ends.', example: 'https://yourapp.com/hooks/mailvet' }),
});

const bulkOutput = z.object({
  job_id: z.string(),
  total_emails: z.number().int(),
  status: z.literal('pending'),
});

export const MAX_RESULTS_PAGE = MAX_EMAILS_PER_FILE;

const resultsInput = z.object({
  id: z.string().max(100),
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit must be at least 1.')
    .max(MAX_RESULTS_PAGE, `limit can be at most ${MAX_RESULTS_PAGE.toLocaleString('en-US')}.`)
    .optional()
    .meta({ description: `Results per page (1–${MAX_RESULTS_PAGE.toLocaleString('en-US')}, default ${MAX_RESULTS_PAGE.toLocaleString('en-US')}: a whole job).` }),
  cursor: z.string().max(40).optional().meta({ description: 'next_cursor from the previous page.' }),
});

const resultsOutput = z.object({
  job_id: z.string(),
  status: jobStatusSchema,
  total_emails: z.number().int(),
  results: z.array(publicResultSchema),
  next_cursor: z.string().nullable().meta({ description: 'Pass as cursor to get the next page; null on the last page.' }),
});

async function startBulk(ctx: { deps: AppDeps; accountId: string; keyId: string; plan: PlanType; sandbox: boolean }, input: z.infer<typeof bulkInput>) {
  let webhookUrl: string | null = null;
  if (input.webhook_url !== undefined) {
    const check = await checkWebhookUrl(input.webhook_url.trim(), { allowPrivate: ctx.deps.env.WEBHOOK_ALLOW_PRIVATE });
    if (!check.ok) throw new AppError('BAD_INPUT', check.message);
    webhookUrl = check.url.toString();
  }
  const emails = uniqueAddresses(input.emails);
  if (emails.length === 0) throw new AppError('BAD_INPUT', 'No valid email addresses found');
  const job = await createApiBulkJob(ctx.deps.db, { accountId: ctx.accountId, keyId: ctx.keyId, plan: ctx.plan, emails, webhookUrl, sandbox: ctx.sandbox });
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
    .mutation(async ({ ctx, input }) => {
      if (ctx.sandbox) return toPublicResult(checkSandboxEmail(input.email));
      const r = await checkSingleEmail({ db: ctx.deps.db, probe: ctx.deps.probe }, { accountId: ctx.accountId, userId: null, plan: ctx.plan, email: input.email });
      return toPublicResult(r);
    }),

  bulk: bulkProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/bulk',
        tags: [TAG_JOBS],
        summary: 'Start a bulk validation job',
        description: `Queues up to ${MAX_EMAILS_PER_FILE.toLocaleString('en-US')} addresses and returns at once. Follow the job with GET /jobs/{id}, or pass webhook_url. One credit per unique address; the balance must cover them all.`,
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

    results: apiKeyProcedure('results')
      .meta({
        openapi: {
          method: 'GET',
          path: '/jobs/{id}/results',
          tags: [TAG_JOBS],
          summary: "Get a job's results",
          description: 'One result per address, in the public result shape, once the job has completed or failed. Paginate with limit and cursor.',
          errorResponses: { ...COMMON_ERRORS, 404: 'No such job in this account', 409: 'The job is still pending or processing' },
        },
      })
      .input(resultsInput)
      .output(resultsOutput)
      .query(async ({ ctx, input }) => {
        const job = await accountJobOr404(ctx.deps.db, ctx.accountId, input.id, { sandbox: ctx.sandbox });
        if (job.status === 'pending' || job.status === 'processing') {
          throw new AppError('CONFLICT', `Results are available once the job has finished; it is ${job.status}. Poll GET /v1/jobs/${job.id} or use a webhook_url.`);
        }
        const page = await resultsAfterCursor(ctx.deps.db, ctx.accountId, job.id, { cursor: input.cursor, limit: input.limit ?? MAX_RESULTS_PAGE });
        return {
          job_id: job.id,
          status: job.status,
          total_emails: job.total_emails,
          results: page.rows.map(toPublicResult),
          next_cursor: page.nextCursor,
        };
      }),
  }),
});

export type V1Router = typeof v1Router;
