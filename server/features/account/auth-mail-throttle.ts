// At most AUTH_MAILS_PER_HOUR mails of one kind (password reset, verification, "someone tried to
// sign up") to one mailbox an hour. Those mails go to any address that has an account, on anybody's
// request: the per-IP limit alone lets a caller with many addresses flood an inbox, and +tag
// spellings of one mailbox (each its own user) all land in it, so the count is per mailbox (the
// free-grant email key). Refused sends are skipped silently: the answer to the caller is the same.
// The same hourly counter also bounds wrong passwords typed to confirm Delete Account (per user).
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { freeGrantEmailKey } from './email-key';

export const AUTH_MAILS_PER_HOUR = 5;

/** Team invitations count per inviting account (`invite:<accountId>`), so one team cannot hold up another's. */
export type AuthMailKind = 'reset' | 'verify' | 'signup-notice' | `invite:${string}`;

/** Adds one to the hourly count of (kind, key) and returns the count in the current hour. */
async function countOne(db: Db, kind: string, key: string): Promise<number> {
  const row = await db
    .insertInto('auth_mail_throttle')
    .values({ kind, mailbox: key, window_start: sql`now()`, sent: 1 })
    .onConflict((oc) =>
      oc.columns(['kind', 'mailbox']).doUpdateSet({
        sent: sql`case when auth_mail_throttle.window_start <= now() - interval '1 hour' then 1 else least(auth_mail_throttle.sent + 1, 1000000) end`,
        window_start: sql`case when auth_mail_throttle.window_start <= now() - interval '1 hour' then now() else auth_mail_throttle.window_start end`,
      }),
    )
    .returning('sent')
    .executeTakeFirstOrThrow();
  return row.sent;
}

/** Counts one mail of `kind` to `email`'s mailbox; false when this hour's allowance is spent. */
export async function mayMailMailbox(db: Db, kind: AuthMailKind, email: string): Promise<boolean> {
  return (await countOne(db, kind, freeGrantEmailKey(email))) <= AUTH_MAILS_PER_HOUR;
}

/**
 * Wrong passwords typed to confirm Delete Account, per user (the same table, kind
 * `delete-account-password`, keyed by user id): after WRONG_PASSWORDS_PER_HOUR in an hour even the
 * right one is refused, so a stolen session cannot guess its way to deleting the account.
 */
export const WRONG_PASSWORDS_PER_HOUR = 5;
const WRONG_PASSWORD_KIND = 'delete-account-password';

export async function wrongPasswordsSpent(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('auth_mail_throttle')
    .select('sent')
    .where('kind', '=', WRONG_PASSWORD_KIND)
    .where('mailbox', '=', userId)
    .where('window_start', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirst();
  return (row?.sent ?? 0) >= WRONG_PASSWORDS_PER_HOUR;
}

export async function recordWrongPassword(db: Db, userId: string): Promise<void> {
  await countOne(db, WRONG_PASSWORD_KIND, userId);
}
