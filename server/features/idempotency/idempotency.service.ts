// Idempotency-Key for the public API's POSTs: the same key and body within 24 hours answer with the
// original response (so a retried request creates no second job and takes no second credit); the
// same key with another body is refused. One row per (account, API key, key); the first request claims it
// atomically, so two concurrent retries cannot both run.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { AppError } from '../../lib/app-error';

export const IDEMPOTENCY_WINDOW_HOURS = 24;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** The oldest created_at still inside the window. */
const windowStart = () => new Date(Date.now() - IDEMPOTENCY_WINDOW_HOURS * 3600_000);

export type Claim =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; body: string; contentType: string | null };

export function requestHash(method: string, path: string, body: unknown): string {
  // Express routes ignore case and a trailing slash: /bulk, /bulk/ and /BULK are one request.
  const route = path.replace(/\/+$/, '').toLowerCase() || '/';
  return createHash('sha256').update(`${method} ${route}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

/**
 * The stored key: an Idempotency-Key belongs to the API key that sent it. Another key of the same
 * account (one without the route's scope, a sandbox key) never replays its answers, nor claims a
 * value first to block it (a space cannot occur in a client's key, so the two never collide).
 */
function storedKey(o: { key: string; apiKeyId: string }): string {
  return `${o.apiKeyId} ${o.key}`;
}

/** The first request with the key has not answered yet: the client may send it again shortly (Retry-After). */
const stillRunning = () => new AppError('CONFLICT', 'A request with this Idempotency-Key is still being processed. Retry in a moment.', { retryAfterSeconds: 1 });

/** Claims the key for this request, or answers how an earlier request with it ended. */
export async function claimIdempotencyKey(db: Db, o: { accountId: string; apiKeyId: string; key: string; hash: string; sandbox: boolean }): Promise<Claim> {
  if (!KEY_FORMAT.test(o.key)) throw new AppError('BAD_INPUT', 'Idempotency-Key must be 1–255 visible ASCII characters.');
  // Stored before keys belonged to their API key (per account; "sandbox <key>" for a test key) and
  // still inside the window: a client retrying across that deploy is answered from it.
  const legacy = await storedAnswer(db, o.accountId, o.sandbox ? `sandbox ${o.key}` : o.key);
  if (legacy) return answerFrom(legacy, o.hash);
  o = { ...o, key: storedKey(o) };
  const claimed = await db
    .insertInto('idempotency_key')
    .values({ account_id: o.accountId, key: o.key, request_hash: o.hash })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'key'])
        .doUpdateSet({ request_hash: o.hash, status: null, body: null, content_type: null, created_at: sql`now()` })
        .where('idempotency_key.created_at', '<', windowStart()),
    )
    .returning('key')
    .executeTakeFirst();
  if (claimed) return { kind: 'new' };
  const row = await storedAnswer(db, o.accountId, o.key);
  if (!row) throw stillRunning();
  return answerFrom(row, o.hash);
}

interface StoredAnswer {
  request_hash: string;
  status: number | null;
  body: string | null;
  content_type: string | null;
}

/** The row stored under `key` for the account, inside the window. */
function storedAnswer(db: Db, accountId: string, key: string): Promise<StoredAnswer | undefined> {
  return db
    .selectFrom('idempotency_key')
    .select(['request_hash', 'status', 'body', 'content_type'])
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('created_at', '>=', windowStart())
    .executeTakeFirst();
}

/** How an earlier request with the key ended: its answer again, or why this request cannot run. */
function answerFrom(row: StoredAnswer, hash: string): Claim {
  if (row.request_hash !== hash) {
    throw new AppError('UNPROCESSABLE', 'This Idempotency-Key was already used with a different request. Use a new key for a new request.');
  }
  if (row.status === null || row.body === null) throw stillRunning();
  return { kind: 'replay', status: row.status, body: row.body, contentType: row.content_type };
}

/**
 * Answers that say the request did not run and may be retried as it is: a server error, and a 429
 * (refused by the rate limit before the procedure ran; the client is told to retry after Retry-After).
 */
function retryable(status: number): boolean {
  return status >= 500 || status === 429;
}

/** Stores the answer for replays; a retryable answer (5xx, 429) releases the key so the client can retry. */
export async function settleIdempotencyKey(db: Db, o: { accountId: string; apiKeyId: string; key: string; status: number; body: string; contentType: string | null }): Promise<void> {
  o = { ...o, key: storedKey(o) };
  if (retryable(o.status)) {
    await db.deleteFrom('idempotency_key').where('account_id', '=', o.accountId).where('key', '=', o.key).where('status', 'is', null).execute();
    return;
  }
  await db
    .updateTable('idempotency_key')
    .set({ status: o.status, body: o.body, content_type: o.contentType })
    .where('account_id', '=', o.accountId)
    .where('key', '=', o.key)
    .where('status', 'is', null)
    .execute();
}

/** Retention: keys older than the window are no longer needed. */
export async function purgeIdempotencyKeys(db: Db): Promise<number> {
  const r = await db.deleteFrom('idempotency_key').where('created_at', '<', windowStart()).executeTakeFirst();
  return Number(r.numDeletedRows);
}
