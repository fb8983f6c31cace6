// The documented public shapes of /v1 (spec section 3 "Public documented result shape", the API
// docs), built here once: the REST API, the webhooks and the documentation use these. Pure zod and
// pure functions: shared with the browser.
import { z } from 'zod';
import { reasonSchema, resultSchema, type Reason } from '../../probe/contract';
import { FAIR_CHARGING_RULE } from './charging';
import { jobStatusSchema, type JobStatusValue } from './jobs';
import { REASON_TEXT } from './reasons';
import { MAX_CHANGES_PER_PAYLOAD } from './webhooks';

/** One line per reason code, for the OpenAPI document (the docs page renders it from there). */
const reasonList = reasonSchema.options.map((r) => `\`${r}\`: ${REASON_TEXT[r].description}`).join('\n');

export const publicResultSchema = z
  .object({
    email: z.string().meta({
      description:
        'POST /validate: the address you sent, without surrounding spaces. A bulk job\'s results: the address as the job lists it — surrounding spaces, a mailto: prefix or a "Name <…>" wrapper removed and the domain in lower case (the local part is kept as first sent), so an address sent twice is checked once, also when its local part differs only in letter case (John@, john@) or its domain is written as its A-label (xn--).',
    }),
    result: resultSchema.meta({
      description: 'valid (the mailbox accepts mail), invalid (it will bounce) or risky (catch-all, disposable, greylisted or not conclusively verifiable).',
    }),
    reason: reasonSchema.meta({ description: `Machine-readable cause of the result:\n${reasonList}` }),
    deliverability_score: z.number().int().min(0).max(100).meta({ description: '0–100. Weighs SMTP status, domain age, MX reputation and blacklists.' }),
    syntax_valid: z.boolean().meta({ description: 'The address is a well-formed RFC 5321 mailbox.' }),
    mx_valid: z.boolean().meta({ description: 'The domain publishes usable mail exchangers.' }),
    smtp_valid: z.boolean().meta({ description: 'The receiving server accepted the recipient in an SMTP handshake. Always false on plans without the SMTP check.' }),
    disposable_provider: z.boolean().meta({ description: 'The domain belongs to a disposable / temporary inbox provider.' }),
    role_detected: z.boolean().meta({ description: 'The local part is a role address such as admin@, info@ or support@.' }),
    charged: z.boolean().meta({ description: FAIR_CHARGING_RULE }),
  })
  .meta({ id: 'ValidationResult' });
export type PublicResult = z.infer<typeof publicResultSchema>;

/** Any dashboard-shaped result (a stored row or a fresh check) → the public shape. */
export function toPublicResult(r: {
  email: string;
  result: 'valid' | 'invalid' | 'risky';
  reason: string;
  deliverability_score: number;
  is_syntax_valid: boolean;
  is_mx_valid: boolean;
  is_smtp_valid: boolean;
  disposable_provider: boolean;
  role_detected: boolean;
  charged: boolean;
}): PublicResult {
  return {
    email: r.email,
    result: r.result,
    reason: r.reason as Reason,
    deliverability_score: r.deliverability_score,
    syntax_valid: r.is_syntax_valid,
    mx_valid: r.is_mx_valid,
    smtp_valid: r.is_smtp_valid,
    disposable_provider: r.disposable_provider,
    role_detected: r.role_detected,
    charged: r.charged,
  };
}

/** A time as toISOString writes it, declared `format: date-time` (generated clients read a time). */
const isoTime = z.string().meta({ format: 'date-time' });

export const publicJobSchema = z
  .object({
    job_id: z.string().meta({ description: 'The job id.' }),
    status: jobStatusSchema.meta({ description: 'pending, then processing, then completed; failed when it could not finish, cancelled when stopped.' }),
    total_emails: z.number().int().min(0).meta({ description: 'Addresses in the job.' }),
    processed_emails: z.number().int().min(0).meta({ description: 'Addresses checked so far.' }),
    created_at: isoTime.meta({ description: 'When the job was created (ISO 8601).' }),
    completed_at: isoTime.nullable().meta({ description: 'When it finished (ISO 8601); null while it runs.' }),
    test: z.boolean().meta({ description: 'Started with a test key (mv_test_…): sandbox answers, no credits, and readable only with a test key (a live key gets 404).' }),
  })
  .meta({ id: 'Job' });
export type PublicJob = z.infer<typeof publicJobSchema>;

/** A job row (any source: /v1, webhooks) → the public job shape. */
export function toPublicJob(j: {
  id: string;
  status: JobStatusValue;
  total_emails: number;
  processed_emails: number;
  created_at: Date | string;
  completed_at: Date | string | null;
  is_sandbox: boolean;
}): PublicJob {
  const iso = (d: Date | string) => (typeof d === 'string' ? d : d.toISOString());
  return {
    job_id: j.id,
    status: j.status,
    total_emails: j.total_emails,
    processed_emails: j.processed_emails,
    created_at: iso(j.created_at),
    completed_at: j.completed_at === null ? null : iso(j.completed_at),
    test: j.is_sandbox,
  };
}

// ── Webhook payloads (the JSON bodies we POST; the OpenAPI document's `webhooks` section) ────────

export const jobWebhookPayloadSchema = z
  .object({
    event: z.enum(['job.completed', 'job.failed', 'job.cancelled']).meta({ description: 'job.completed when the job finished, job.failed when it could not, job.cancelled when it was stopped (the results done so far are kept).' }),
    ...publicJobSchema.shape,
  })
  .meta({ id: 'JobWebhookPayload', description: 'The body of job.completed, job.failed and job.cancelled: the event name, then the job as GET /v1/jobs/{id} returns it.' });
export type JobWebhookPayload = z.infer<typeof jobWebhookPayloadSchema>;

export const scheduleRunWebhookPayloadSchema = z
  .object({
    event: z.literal('schedule.run_completed').meta({ description: 'The event name.' }),
    schedule_id: z.string().meta({ description: 'The schedule that ran.' }),
    schedule_name: z.string().meta({ description: 'Its name, as shown on the Schedules page.' }),
    job_id: z.string().meta({ description: "The run's bulk job (its results: GET /v1/jobs/{id}/results)." }),
    previous_job_id: z.string().nullable().meta({ description: "The schedule's previous completed run, compared with this one (null on a first run)." }),
    total_emails: z.number().int().min(0).meta({ description: 'Addresses in this run.' }),
    processed_emails: z.number().int().min(0).meta({ description: 'Addresses checked in this run.' }),
    completed_at: isoTime.nullable().meta({ description: 'When the run finished (ISO 8601).' }),
    changed: z
      .array(
        z.object({
          email: z.string().meta({ description: 'The address.' }),
          previous: resultSchema.meta({ description: 'The result in the previous run.' }),
          current: resultSchema.meta({ description: 'The result in this run.' }),
          reason: reasonSchema.meta({ description: "This run's reason code." }),
        }),
      )
      
      .meta({ description: `The addresses whose result differs from the previous run, by address (empty on a first run; at most ${MAX_CHANGES_PER_PAYLOAD.toLocaleString('en-US')}).` }),
    changed_count: z.number().int().min(0).meta({ description: 'How many addresses changed in all.' }),
    truncated: z.boolean().meta({ description: 'True when more addresses changed than changed lists.' }),
  })
  .meta({ id: 'ScheduleRunWebhookPayload', description: 'The body of schedule.run_completed: what changed since the schedule\'s previous run.' });
export type ScheduleRunWebhookPayload = z.infer<typeof scheduleRunWebhookPayloadSchema>;
