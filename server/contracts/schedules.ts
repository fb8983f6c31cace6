// Auto revalidation schedules: inputs and messages shared by the server and the dashboard (spec 5).
import { z } from 'zod';
import { trimAddress } from '../../probe/contract';
import { listAddress, MAX_EMAILS_PER_FILE } from './jobs';
import { TEXT_CONTROLS } from './text-controls';

export const frequencySchema = z.enum(['daily', 'weekly', 'monthly']);
export type FrequencyValue = z.infer<typeof frequencySchema>;

export const SCHEDULE_MESSAGES = {
  nameRequired: 'Please enter a schedule name',
  nameControls: 'The schedule name cannot contain control characters (such as a line break) or text-direction characters.',
  emailsRequired: 'Please enter email addresses or upload a CSV file',
  noValidEmails: 'No valid email addresses found',
  csvType: 'Please upload a CSV file',
  csvTooLarge: 'Maximum file size is 10MB',
  csvEmpty: 'CSV file is empty',
  csvNoEmailColumn: "CSV must contain an 'email' column",
  deleteConfirm: 'Are you sure you want to delete this schedule?',
  // Section 5's text for every N, as written ('Found 1 email addresses' too): where the spec allows a
  // singular it writes 'team member(s)'; here it does not, and tests/e2e/spec-readings.spec.ts holds
  // the literal. N is never 0: a file with no address gets noValidEmails instead.
  found: (n: number) => `Found ${n} email addresses`,
  tooMany: (n: number) => `You can have at most ${n} schedules. Delete one you no longer use, then create this one.`,
} as const;

/**
 * Schedules an account may hold at once (active or not), as API keys are capped: each keeps a list
 * of up to MAX_EMAILS_PER_FILE addresses and the cron weighs every active one each minute.
 */
export const MAX_SCHEDULES_PER_ACCOUNT = 100;

/** Splits typed text the way the dialog does: one address per line, trimmed, blanks dropped. */
export function splitEmailLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map(trimAddress)
    .filter((l) => l.length > 0);
}

export const createScheduleInput = z.object({
  // The name is its runs' file name in History: no control or text-direction character (U+202E drew
  // 'invoices\u202Evsc.exe' as 'invoicesexe.csv'), as uploads' file names (jobs.service.ts).
  name: z
    .string({ error: SCHEDULE_MESSAGES.nameRequired })
    .trim()
    .min(1, SCHEDULE_MESSAGES.nameRequired)
    .max(200)
    .refine((v) => !TEXT_CONTROLS.test(v), SCHEDULE_MESSAGES.nameControls),
  description: z
    .string()
    .trim()
    .max(1000)
    .optional()
    .nullable()
    .transform((v) => (v ? v : null)),
  frequency: frequencySchema.default('weekly'),
  emails: z
    .array(listAddress(z.string().max(1024)), { error: SCHEDULE_MESSAGES.emailsRequired })
    .min(1, SCHEDULE_MESSAGES.emailsRequired)
    .max(MAX_EMAILS_PER_FILE, `At most ${MAX_EMAILS_PER_FILE.toLocaleString('en-US')} email addresses per schedule`)
    .transform((list) => list.map(trimAddress).filter((e) => e.length > 0))
    .refine((list) => list.length > 0, SCHEDULE_MESSAGES.noValidEmails),
});
export type CreateScheduleInput = z.input<typeof createScheduleInput>;

export const scheduleIdInput = z.object({ scheduleId: z.uuid() });
export const setScheduleActiveInput = z.object({ scheduleId: z.uuid(), isActive: z.boolean() });

/** The longest base64 text of a 10 MB file. */
export const MAX_CSV_BASE64_CHARS = Math.ceil((10 * 1024 * 1024) / 3) * 4;

export const parseScheduleCsvInput = z.object({
  filename: z.string().trim().min(1).max(255),
  /**
   * The file's bytes, base64 (what the dialog sends): read on the server as Bulk Upload reads a file
   * (UTF-16 with a BOM, else each line UTF-8 or Windows-1252). A browser's File.text() would read every file as
   * UTF-8, so an Excel "Unicode Text" export looked like binary data and Latin-1 names came out as U+FFFD.
   */
  contentBase64: z
    .string()
    .max(MAX_CSV_BASE64_CHARS, SCHEDULE_MESSAGES.csvTooLarge)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The file must be sent as base64')
    .optional(),
  /** Or the file's text, already decoded. */
  content: z.string().max(10 * 1024 * 1024, SCHEDULE_MESSAGES.csvTooLarge).optional(),
});
