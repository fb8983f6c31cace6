// At most AUTH_MAILS_PER_HOUR mails of one kind (password reset, verification, "someone tried to
// sign up") to one mailbox an hour. Those mails go to any address that has an account, on anybody's
// request: the per-IP limit alone lets a caller with many addresses flood an inbox, and +tag
// spellings of one mailbox (each its own user) all land in it, so the count is per mailbox (the
// free-grant email key's digest). Refused sends are skipped silently: the answer to the caller is the same.
// The same hourly counter also bounds wrong passwords typed to confirm Delete Account (per user)
// and password sign-ins per email address, from any number of client IPs.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { addressDigest, mailboxDigest, sha256Hex } from './email-key';

export const AUTH_MAILS_PER_HOUR = 5;

/** Team invitations count per inviting account (`invite:<accountId>`), so one team cannot hold up another's. */
/** `security-notice`: a new password or two-factor turned off, told to the address (auth.ts). */
export type AuthMailKind = 'reset' | 'verify' | 'signup-notice' | 'security-notice' | `invite:${string}`;

/** Adds one to the hourly count of (kind, key) and returns the count in the current hour and the seconds left in it. */
async function countOne(db: Db, kind: string, key: string): Promise<{ count: number; secondsLeft: number }> {
  const row = await db
    .insertInto('auth_mail_throttle')
    .values({ kind, mailbox: key, window_start: sql`now()`, sent: 1 })
    .onConflict((oc) =>
      oc.columns(['kind', 'mailbox']).doUpdateSet({
        sent: sql`case when auth_mail_throttle.window_start <= now() - interval '1 hour' then 1 else least(auth_mail_throttle.sent + 1, 1000000) end`,
        window_start: sql`case when auth_mail_throttle.window_start <= now() - interval '1 hour' then now() else auth_mail_throttle.window_start end`,
      }),
    )
    .returning(['sent', sql<number>`ceil(extract(epoch from window_start + interval '1 hour' - now()))::int`.as('seconds_left')])
    .executeTakeFirstOrThrow();
  return { count: row.sent, secondsLeft: Math.max(1, row.seconds_left) };
}

/** Counts one mail of `kind` to `email`'s mailbox; false when this hour's allowance is spent. */
export async function mayMailMailbox(db: Db, kind: AuthMailKind, email: string): Promise<boolean> {
  return (await countOne(db, kind, mailboxDigest(email))).count <= AUTH_MAILS_PER_HOUR;
}

/**
 * Wrong passwords typed to confirm Delete Account, Change Password or a two-factor change, per user
 * (the same table, kind `delete-account-password`, keyed by user id): after WRONG_PASSWORDS_PER_HOUR
 * in an hour even the right one is refused, so a stolen session cannot guess its way to the password.
 */
export const WRONG_PASSWORDS_PER_HOUR = 5;
export const WRONG_PASSWORDS_MESSAGE = 'Too many wrong passwords. Try again in an hour.';
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

/**
 * Password sign-ins per email address (kind `sign-in-password`, keyed by the address as typed,
 * lower-cased: each +tag spelling is its own user with its own password). better-auth's limit is per
 * client IP; an attacker with many addresses could still guess one account's password at 3 per 10 s
 * from each. Every attempt is counted before the password is checked (so parallel guesses cannot
 * slip past), a successful one clears the count, and so does a password reset: the owner, who can
 * read the mailbox, is never locked out. Unknown addresses are counted the same way, so the answer
 * tells nobody which addresses have an account.
 */
export const SIGN_INS_PER_HOUR = 10;
const SIGN_IN_KIND = 'sign-in-password';
export const SIGN_IN_LOCKED_MESSAGE = 'Too many failed sign-in attempts for this email. Try again in an hour, or reset your password.';

/**
 * The address as typed (each +tag spelling its own user), only its digest stored like every key here.
 * A browser that gave this address's right password before (`device`, from its signed known-device
 * cookie: auth.ts) counts apart: strangers spending the address's attempts do not lock its owner out
 * of their own browser (OWASP's device cookies), and that browser's own guesses are bounded the same.
 */
const signInKey = (email: string, device?: string | null): string => (device ? sha256Hex(`device:${addressDigest(email)}:${device}`) : addressDigest(email));

/** Counts one password sign-in for `email` (from a known `device`, if any); `allowed` is false once this hour's attempts are spent. */
export async function countSignInAttempt(db: Db, email: string, device?: string | null): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const { count, secondsLeft } = await countOne(db, SIGN_IN_KIND, signInKey(email, device));
  return { allowed: count <= SIGN_INS_PER_HOUR, retryAfterSeconds: secondsLeft };
}

/** The right password was given (or a new one chosen through the mailbox): the count starts again (the device's too). */
export async function clearSignInAttempts(db: Db, email: string, device?: string | null): Promise<void> {
  const keys = device ? [signInKey(email), signInKey(email, device)] : [signInKey(email)];
  await db.deleteFrom('auth_mail_throttle').where('kind', '=', SIGN_IN_KIND).where('mailbox', 'in', keys).execute();
}

/**
 * Two-factor codes are taken once (RFC 6238 section 5.2). A code is good for about 90 s (its 30 s
 * step and one either side), so one seen over a shoulder, in a screen share or a phishing relay
 * could sign in again with the password until it aged out. A code is claimed for its user
 * (kind `totp-used`, keyed by the digest of user and code) before it is checked: a second use within
 * TOTP_USED_FOR, even a parallel one, is refused; a code that turned out wrong is given back.
 */
const TOTP_USED_KIND = 'totp-used';
const TOTP_USED_FOR = sql<Date>`now() - interval '2 minutes'`;
export const TOTP_CODE_USED_MESSAGE = 'This code was already used. Wait for the next code from your authenticator app.';

const totpKey = (userId: string, code: string): string => sha256Hex(`${userId}:${code}`);

/** Claims `code` for `userId`; false when it was taken within the last two minutes. */
export async function claimTotpCode(db: Db, userId: string, code: string): Promise<boolean> {
  // Claims past any code's life are dead weight: the table keeps only the last few minutes'.
  await db.deleteFrom('auth_mail_throttle').where('kind', '=', TOTP_USED_KIND).where('window_start', '<=', TOTP_USED_FOR).execute();
  const row = await db
    .insertInto('auth_mail_throttle')
    .values({ kind: TOTP_USED_KIND, mailbox: totpKey(userId, code), window_start: sql`now()`, sent: 1 })
    .onConflict((oc) => oc.columns(['kind', 'mailbox']).doNothing())
    .returning('sent')
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives back a claimed code that did not sign in (wrong, or refused for another reason). */
export async function releaseTotpCode(db: Db, userId: string, code: string): Promise<void> {
  await db.deleteFrom('auth_mail_throttle').where('kind', '=', TOTP_USED_KIND).where('mailbox', '=', totpKey(userId, code)).execute();
}
