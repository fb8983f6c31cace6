// The known-device cookie (OWASP's device cookies against account lockout): signed, per address,
// and per password.
import { createHmac, randomBytes } from 'node:crypto';
import type { getSessionFromCtx } from 'better-auth/api';

type HookContext = Parameters<typeof getSessionFromCtx>[0];

/**
 * A browser that has given an address's right password carries a signed cookie naming that address
 * and its password (a keyed digest) and a random device id for a year: its sign-ins to that address
 * are counted apart (auth-mail-throttle.ts), so whoever sends wrong passwords for the address from
 * elsewhere cannot lock its owner out of their own browser. The cookie is worth nothing for another
 * address, nor once the password has changed: a new password (Change Password, a reset through the
 * mailbox) is stored with a new salt, so every browser known before — one whoever had the old
 * password signed in from included — counts with strangers again.
 */
const KNOWN_DEVICE_COOKIE = 'known_device';
const KNOWN_DEVICE_MAX_AGE = 60 * 60 * 24 * 365;

/** The stored password hash of the address (what a change or reset replaces), '' when it has none. */
async function passwordStamp(ctx: HookContext, email: string): Promise<string> {
  const found = await ctx.context.internalAdapter.findUserByEmail(email.trim().toLowerCase(), { includeAccounts: true }).catch(() => null);
  return found?.accounts.find((a) => a.providerId === 'credential')?.password ?? '';
}

/** The address and its password a known-device cookie is for, under the server's key: a reader of the cookie learns nothing of either. */
const knownDeviceAddress = (ctx: HookContext, email: string, stamp: string): string =>
  createHmac('sha256', ctx.context.secret).update(`${email.trim().toLowerCase()}\n${stamp}`).digest('base64url');

/** The device id of this browser's known-device cookie for `email` and its current password (null: none, for another address, or from before a password change). */
export async function knownDevice(ctx: HookContext, email: string): Promise<string | null> {
  const value = await ctx.getSignedCookie(ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE).name, ctx.context.secret).catch(() => null);
  if (typeof value !== 'string') return null;
  const [address, device] = value.split(':');
  if (!device || !/^[A-Za-z0-9_-]{16,64}$/.test(device)) return null;
  return address === knownDeviceAddress(ctx, email, await passwordStamp(ctx, email)) ? device : null;
}

/** Gives this browser (or keeps, with `device`) its known-device cookie for `email` and its current password. */
export async function markKnownDevice(ctx: HookContext, email: string, device: string | null): Promise<void> {
  const cookie = ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE, { maxAge: KNOWN_DEVICE_MAX_AGE });
  const address = knownDeviceAddress(ctx, email, await passwordStamp(ctx, email));
  await ctx.setSignedCookie(cookie.name, `${address}:${device ?? randomBytes(18).toString('base64url')}`, ctx.context.secret, cookie.attributes);
}
