// Idempotency-Key for the public API's POSTs: the same key and body within 24 hours answer with the
// original response (so a retried request creates no second job and takes no second credit); the
// same key with another body is refused. One row per (account, API key, key); the first request claims it
// atomically, so two concurrent retries cannot both run. A claim no answer followed within
// IDEMPOTENCY_LEASE_MINUTES was left by a request that died (the server stopped between the work and
// storing its answer): the next retry claims the key again instead of hearing 409 for 24 hours.
import { createHash } from 'node:crypto';
import type { Db } from '../../../db/client';
import { AppError } from '../../lib/app-error';

export const IDEMPOTENCY_WINDOW_HOURS = 24;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/**
 * How long an unanswered claim holds its key. Far longer than any request runs (a single check gives
 * up after 60 s, a request's body must arrive within 120 s, a bulk job is created in seconds): a claim
 * this old belongs to a request that will never answer.
 */
export const IDEMPOTENCY_LEASE_MINUTES = 10;

/** The oldest created_at still inside the window. */
const windowStart = () => new Date(Date.now() - IDEMPOTENCY_WINDOW_HOURS * 3600_000);
/** The oldest created_at an unanswered claim still holds its key with. */
const leaseStart = () => new Date(Date.now() - IDEMPOTENCY_LEASE_MINUTES * 60_000);

export type Claim =
  /** claimedAt names this claim: only its own answer is stored (settleIdempotencyKey). */
  | { kind: 'new'; claimedAt: Date }
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
  if (legacy && !abandoned(legacy)) return answerFrom(legacy, o.hash);
  o = { ...o, key: storedKey(o) };
  // Millisecond precision, as a Date reads back: settling compares it exactly.
  const claimedAt = new Date();
  const claimed = await db
    .insertInto('idempotency_key')
    .values({ account_id: o.accountId, key: o.key, request_hash: o.hash, created_at: claimedAt })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'key'])
        .doUpdateSet({ request_hash: o.hash, status: null, body: null, content_type: null, created_at: claimedAt })
        .where((eb) =>
          eb.or([
            eb('idempotency_key.created_at', '<', windowStart()),
            eb.and([eb('idempotency_key.status', 'is', null), eb('idempotency_key.created_at', '<', leaseStart())]),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  if (claimed) return { kind: 'new', claimedAt };
  const row = await storedAnswer(db, o.accountId, o.key);
  if (!row) throw stillRunning();
  return answerFrom(row, o.hash);
}

interface StoredAnswer {
  request_hash: string;
  created_at: Date;
  status: number | null;
  body: string | null;
  content_type: string | null;
}

/** The row stored under `key` for the account, inside the window. */
function storedAnswer(db: Db, accountId: string, key: string): Promise<StoredAnswer | undefined> {
  return db
    .selectFrom('idempotency_key')
    .select(['request_hash', 'status', 'body', 'content_type', 'created_at'])
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('created_at', '>=', windowStart())
    .executeTakeFirst();
}

/** A claim left unanswered past the lease: its request died, and the key is free again. */
function abandoned(row: StoredAnswer): boolean {
  return row.status === null && row.created_at < leaseStart();
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

/**
 * Stores the answer for replays; a retryable answer (5xx, 429) releases the key so the client can retry.
 * Only the claim this request made (claimedAt): a request that outlived its lease, whose retry claimed
 * the key again, neither overwrites nor releases the retry's claim.
 */
export async function settleIdempotencyKey(db: Db, o: { accountId: string; apiKeyId: string; key: string; claimedAt: Date; status: number; body: string; contentType: string | null }): Promise<void> {
  o = { ...o, key: storedKey(o) };
  if (retryable(o.status)) {
    await db.deleteFrom('idempotency_key').where('account_id', '=', o.accountId).where('key', '=', o.key).where('created_at', '=', o.claimedAt).where('status', 'is', null).execute();
    return;
  }
  await db
    .updateTable('idempotency_key')
    .set({ status: o.status, body: o.body, content_type: o.contentType })
    .where('account_id', '=', o.accountId)
    .where('key', '=', o.key)
    .where('created_at', '=', o.claimedAt)
    .where('status', 'is', null)
    .execute();
}

/** Retention: keys older than the window are no longer needed. */
export async function purgeIdempotencyKeys(db: Db): Promise<number> {
  const r = await db.deleteFrom('idempotency_key').where('created_at', '<', windowStart()).executeTakeFirst();
  return Number(r.numDeletedRows);
}
