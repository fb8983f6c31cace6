// What a new password ends besides the sessions (better-auth ends those): the short-lived grants the
// old password, or the mailbox before it, had opened. Both are better-auth verification rows naming the user:
//  - a sign-in waiting at the two-factor step: `two-factor-sha256:<digest>` (10 minutes; server/auth/auth.ts
//    hashes it), with its attempt counter in `two-factor-attempts-sha256:<the same digest>`, or
//    `2fa-<random>` and `2fa-attempts-2fa-<random>` for one stored before hashing;
//  - a password-reset link: `reset-password-sha256:<digest of the token>` (one hour; server/auth/auth.ts
//    hashes it), or `reset-password:<token>` for one stored before hashing.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';

/**
 * Ends every sign-in of `userId` that gave the password and waits for a code, and every reset link
 * still unused. Left alone, whoever had the old password and was waiting for a code (phishing it, or
 * reading it over a shoulder) finished signing in after the owner had reset or changed the password
 * because of them; and an older reset mail, read later in a forwarded inbox or on a shared device,
 * chose the password again.
 */
export async function endGrantsOfOldPassword(db: Db, userId: string): Promise<void> {
  await sql`
    with ended as (
      delete from verification
      where value = ${userId}
        and ((identifier like '2fa-%' and identifier not like '2fa-attempts-%') or identifier like 'two-factor-sha256:%'
          or identifier like 'reset-password:%' or identifier like 'reset-password-sha256:%')
      returning identifier
    )
    delete from verification where identifier in (
      select '2fa-attempts-' || identifier from ended where identifier like '2fa-%'
      union all
      select 'two-factor-attempts-sha256:' || substr(identifier, length('two-factor-sha256:') + 1) from ended where identifier like 'two-factor-sha256:%'
    )
  `.execute(db);
}
