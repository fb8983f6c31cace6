// Bulk jobs: limits, messages and procedure inputs shared by the server and the dashboard.
import { z } from 'zod';
import { hasLoneSurrogate, hasNul, LONE_SURROGATE_MESSAGE, NUL_MESSAGE } from '../../probe/contract';

/** Spec section 9: max upload 10 MB, max 10,000 emails per CSV. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_EMAILS_PER_FILE = 10_000;

/** Spec section 5 (Bulk file). The title goes in the toast heading, the message below it. */
export const UPLOAD_MESSAGES = {
  invalidType: { title: 'Invalid File Type', message: 'Please upload a CSV file' },
  tooLarge: { title: 'File Too Large', message: 'Maximum file size is 10MB' },
  failed: { title: 'Upload Failed', message: 'An error occurred during upload' },
} as const;

/**
 * The rule for each address of a list sent as JSON (POST /v1/bulk, /v1/estimate, a schedule's
 * list), on top of the door's own length limit: text that cannot be stored as sent (NUL, a lone
 * surrogate) is refused with a 400, never counted into a job. A decoded CSV never holds either.
 */
export function listAddress(schema: z.ZodString) {
  return schema.refine((e) => !hasNul(e), NUL_MESSAGE).refine((e) => !hasLoneSurrogate(e), LONE_SURROGATE_MESSAGE);
}

/** True for a name ending .csv or a text/csv type (spec section 5). */
export function looksLikeCsv(name: string, type?: string | null): boolean {
  return /\.csv$/i.test(name.trim()) || (type ?? '').toLowerCase().startsWith('text/csv');
}

export type JobStatusValue = z.infer<typeof jobStatusSchema>;
export const jobStatusSchema = z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']);
/** A job that will change no more. */
export const FINISHED_JOB_STATUSES: readonly JobStatusValue[] = ['completed', 'failed', 'cancelled'];

export const jobIdInput = z.object({ jobId: z.uuid() });

export const jobResultsInput = z.object({
  jobId: z.uuid(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(500).default(50),
});

/** History, a page at a time: newest first; `cursor` is the previous page's nextCursor (opaque). */
export const listJobsInput = z
  .object({
    cursor: z.string().max(200).nullish(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .optional();

/** The columns of the result download (spec section 9, "Result download"). */
export const RESULT_CSV_COLUMNS = [
  'Email',
  'Result',
  'Deliverability Score',
  'Syntax Valid',
  'DNS Valid',
  'MX Valid',
  'SMTP Valid',
  'Role Detected',
  'Disposable Provider',
  'Checked At',
] as const;
