// Bulk jobs: from a stored CSV (or a list of addresses) to a pending job whose domain-grouped
// chunks are queued for the workers, all in one transaction. No transport here: the tRPC router,
// the Express upload route, schedules and the operator CLI call these functions.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import type { JobSource, Plan } from '../../../db/types';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES, looksLikeCsv } from '../../contracts/jobs';
import { writeAudit } from '../audit/audit';
import { deleteValidationFile, saveValidationFile } from '../storage/storage';
import { parseEmailCsv, planChunks, type CsvImport } from './csv-import';
import { dispatchChunks } from './chunk-dispatch';
import { assertServiceActive } from '../billing/service-state';
import { AppError } from '../../lib/app-error';
import { depthForPlan } from '../validation/validation.service';
import { TEXT_CONTROLS } from '../../contracts/text-controls';

/** Addresses per worker task. Large enough for the probe to share SMTP sessions, small enough to spread. */
export const CHUNK_SIZE = 500;

export interface Caller {
  accountId: string;
  userId: string | null;
  plan: Plan;
}

export interface CreatedJob {
  jobId: string;
  totalEmails: number;
}

export function parseOrRefuse(bytes: Uint8Array): CsvImport {
  const parsed = parseEmailCsv(bytes);
  if (!parsed.ok) throw new AppError('BAD_INPUT', parsed.error.message, { details: { reason: parsed.error.code } });
  return parsed.value;
}

export function creditsNeededMessage(needed: number, balance: number, held = 0): string {
  const of = held > 0 ? `, of which ${held.toLocaleString('en-US')} ${held === 1 ? 'is' : 'are'} held for the addresses your unfinished jobs have still to validate` : '';
  return `Not enough credits: this list needs ${needed.toLocaleString('en-US')} credit${needed === 1 ? '' : 's'} (one per unique address) and your balance is ${balance.toLocaleString('en-US')}${of}.`;
}

/**
 * Credits the account's unfinished charged jobs may still take: one per address they have still to
 * validate. A job is charged per stored result, so these are not taken yet; a new job is accepted
 * only when the balance covers them and its own addresses, else two lists the balance covers one
 * at a time were both accepted and both ran out part-way (they run side by side, chunk-dispatch.ts).
 */
export async function heldCredits(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('validation_job')
    .select(sql<string>`coalesce(sum(greatest(total_emails - processed_emails, 0)), 0)::text`.as('held'))
    .where('account_id', '=', accountId)
    .where('status', 'in', ['pending', 'processing'])
    .where('charge_credits', '=', true)
    .where('is_sandbox', '=', false)
    .executeTakeFirst();
  return Number(row?.held ?? 0);
}

/** INSUFFICIENT_CREDITS unless the balance covers `needed` on top of what the account's unfinished jobs hold. */
async function assertCreditsCover(db: Db, accountId: string, needed: number, o: { lock?: boolean } = {}): Promise<void> {
  // Locked in a job's transaction: two lists arriving together are checked one after the other.
  const account = await db.selectFrom('account').select('credits_balance').where('id', '=', accountId).$if(o.lock === true, (q) => q.forUpdate()).executeTakeFirst();
  if (!account) throw new AppError('NOT_FOUND', 'Account not found');
  if (account.credits_balance < needed) {
    throw new AppError('INSUFFICIENT_CREDITS', creditsNeededMessage(needed, account.credits_balance), { details: { needed, balance: account.credits_balance } });
  }
  const held = await heldCredits(db, accountId);
  if (account.credits_balance - held < needed) {
    throw new AppError('INSUFFICIENT_CREDITS', creditsNeededMessage(needed, account.credits_balance, held), { details: { needed, balance: account.credits_balance, held } });
  }
}

/**
 * Creates a pending job over these (already unique, normalised) addresses and queues its chunks.
 * When the job is charged, the balance must cover every address now, on top of the addresses the
 * account's unfinished jobs have still to validate (heldCredits); each credit is taken later, in the
 * transaction that writes that address's result.
 */
export interface NewJobOptions {
  accountId: string;
  userId: string | null;
  filename: string;
  emails: string[];
  source: JobSource;
  depth: 'smtp' | 'mx' | 'syntax';
  filePath?: string | null;
  scheduleId?: string | null;
  replayOf?: string | null;
  chargeCredits?: boolean;
  actor?: 'user' | 'operator' | 'system' | 'api_key';
  /** More facts for the job.created audit entry (the API key that started it). */
  auditFacts?: Record<string, unknown>;
  chunkSize?: number;
}

/**
 * Creates a pending job over these (already unique, normalised) addresses and queues its chunks.
 * When the job is charged, the balance must cover every address now; each credit is taken later,
 * in the transaction that writes that address's result.
 */
export async function createJob(db: Db, o: NewJobOptions): Promise<CreatedJob> {
  return db.transaction().execute((trx) => createJobInTransaction(trx, o));
}

/** createJob inside the caller's transaction (the job and its queued tasks commit with it). */
export async function createJobInTransaction(trx: Db, o: NewJobOptions): Promise<CreatedJob> {
  const charge = o.chargeCredits ?? true;
  const chunks = planChunks(o.emails, o.chunkSize ?? CHUNK_SIZE);
  // Uploads, pasted lists, /v1/bulk and schedule runs all start here: a suspended account does no new work.
  await assertServiceActive(trx, o.accountId);
  if (charge) await assertCreditsCover(trx, o.accountId, o.emails.length, { lock: true });
  const job = await trx
    .insertInto('validation_job')
    .values({
      account_id: o.accountId,
      created_by: o.userId,
      filename: o.filename,
      source: o.source,
      status: 'pending',
      total_emails: o.emails.length,
      file_path: o.filePath ?? null,
      schedule_id: o.scheduleId ?? null,
      replay_of: o.replayOf ?? null,
      depth: o.depth,
      charge_credits: charge,
      error: null,
      webhook_url: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (chunks.length > 0) {
    await trx
      .insertInto('validation_job_chunk')
      .values(chunks.map((emails, i) => ({ job_id: job.id, chunk_no: i, emails, size: emails.length, last_error: null, completed_at: null })))
      .execute();
  }
  // Queued as the account's window allows, fairly with other accounts (chunk-dispatch.ts).
  await dispatchChunks(trx, o.accountId);
  await writeAudit(trx, {
    accountId: o.accountId,
    actorUserId: o.userId,
    actor: o.actor ?? 'user',
    action: 'job.created',
    targetType: 'validation_job',
    targetId: job.id,
    data: { filename: o.filename, source: o.source, total_emails: o.emails.length, chunks: chunks.length, replay_of: o.replayOf ?? null, schedule_id: o.scheduleId ?? null, ...o.auditFacts },
  });
  return { jobId: job.id, totalEmails: o.emails.length };
}

/** The refusal of a file over 10 MB, at every upload door (spec section 5: 'File Too Large'). */
export function uploadTooLarge(): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', UPLOAD_MESSAGES.tooLarge.message, { details: { title: UPLOAD_MESSAGES.tooLarge.title } });
}

const BAD_FILENAME_MESSAGE = 'The file name cannot contain control characters (such as NUL or a line break). Please rename the file and upload it again.';

/**
 * Checks a file the way the Bulk Upload screen does (type and size), before anything is stored. Its
 * name is shown in History and stored with the job: a name holding a control character (U+0000
 * cannot even be stored) is refused, and so is one holding a bidirectional control (U+202E
 * RIGHT-TO-LEFT OVERRIDE and its kin), which makes History draw 'invoices\u202Evsc.exe' as
 * 'invoicesexe.csv' for the rest of the team.
 */
export function checkUploadFile(filename: string, size: number, type?: string | null): void {
  if (TEXT_CONTROLS.test(filename)) throw new AppError('BAD_INPUT', BAD_FILENAME_MESSAGE);
  if (!looksLikeCsv(filename, type)) throw new AppError('BAD_INPUT', UPLOAD_MESSAGES.invalidType.message, { details: { title: UPLOAD_MESSAGES.invalidType.title } });
  if (size > MAX_UPLOAD_BYTES) throw uploadTooLarge();
  if (size === 0) throw new AppError('BAD_INPUT', 'CSV file is empty');
}

/**
 * The spec's two steps in one call: store the upload at validation-files/{userId}/{timestamp}-{filename},
 * then process-bulk-validation. Everything that can refuse (name, type, size, parse, limit, a
 * suspended account, credits) refuses before the file is stored or a credit is taken; should the job
 * still not be made, its file is deleted: a refused file is never kept.
 */
export async function uploadBulkFile(
  deps: { db: Db; storageDir: string },
  caller: Caller & { userId: string },
  file: { filename: string; bytes: Uint8Array; type?: string | null },
  now = new Date(),
): Promise<CreatedJob & { fileName: string; duplicates: number; skipped: number }> {
  checkUploadFile(file.filename, file.bytes.byteLength, file.type);
  const parsed = parseOrRefuse(file.bytes);
  await assertServiceActive(deps.db, caller.accountId);
  await assertCreditsCover(deps.db, caller.accountId, parsed.emails.length);
  const fileName = await saveValidationFile(deps.storageDir, caller.userId, file.filename, file.bytes, now);
  try {
    const job = await createJob(deps.db, {
      accountId: caller.accountId,
      userId: caller.userId,
      filename: file.filename.trim().slice(0, 255),
      emails: parsed.emails,
      source: 'upload',
      depth: depthForPlan(caller.plan),
      filePath: fileName,
    });
    return { ...job, fileName, duplicates: parsed.duplicates, skipped: parsed.skipped };
  } catch (err) {
    // No job (refused in its transaction, or the database failed): the caller must see that
    // error, not one from cleaning up.
    await deleteValidationFile(deps.storageDir, fileName).catch(() => undefined);
    throw err;
  }
}
