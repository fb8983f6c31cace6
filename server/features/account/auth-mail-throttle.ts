// At most AUTH_MAILS_PER_HOUR mails of one kind (password reset, verification, "someone tried to
// sign up") to one mailbox an hour. Those mails go to any address that has an account, on anybody's
// request: the per-IP limit alone lets a caller with many addresses flood an inbox, and +tag
// spellings of one mailbox (each its own user) all land in it, so the count is per mailbox (the
// free-grant email key). Refused sends are skipped silently: the answer to the caller is the same.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { freeGrantEmailKey } from './email-key';

export const AUTH_MAILS_PER_HOUR = 5;

/** Team invitations count per inviting account (`invite:<accountId>`), so one team cannot hold up another's. */
export type AuthMailKind = 'reset' | 'verify' | 'signup-notice' | `invite:${string}`;

/** Counts one mail of `kind` to `email`'s mailbox; false when this hour's allowance is spent. */
export async function mayMailMailbox(db: Db, kind: AuthMailKind, email: string): Promise<boolean> {
  const mailbox = freeGrantEmailKey(email);
  const row = await db
    .insertInto('auth_mail_throttle')
    .values({ kind, mailbox, window_start: sql`now()`, sent: 1 })
    .onConflict((oc) =>
      oc.columns(['kind', 'mailbox']).doUpdateSet({
        sent: sql`case when auth_mail_throttle.window_start <= now() - interval '1 hour' then 1 else least(auth_mail_throttle.sent + 1, 1000000) end`,
        window_start: sql`case when auth_mail_throttle.window_start <= now() - interval '1 hour' then now() else auth_mail_throttle.window_start end`,
      }),
    )
    .returning('sent')
    .executeTakeFirstOrThrow();
  return row.sent <= AUTH_MAILS_PER_HOUR;
}
