// Sign-ins waiting at the two-factor step. better-auth keeps one for 10 minutes as a verification
// row `2fa-<random>` whose value is the user id (the browser holds its name in a signed cookie), with
// its attempt counter in `2fa-attempts-2fa-<random>`.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';

/**
 * Ends every sign-in of `userId` that gave the password and waits for a code. A new password must end
 * what the old one half-opened: left alone, whoever had the old password and was waiting for a code
 * (phishing it, or reading it over a shoulder) finished signing in after the owner had reset or
 * changed the password because of them.
 */
export async function endPendingTwoFactorSignIns(db: Db, userId: string): Promise<void> {
  await sql`
    with pending as (
      delete from verification
      where value = ${userId} and identifier like '2fa-%' and identifier not like '2fa-attempts-%'
      returning identifier
    )
    delete from verification where identifier in (select '2fa-attempts-' || identifier from pending)
  `.execute(db);
}
