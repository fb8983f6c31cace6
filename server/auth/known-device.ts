// The known-device cookie (OWASP's device cookies against account lockout): signed, per address.
import { createHmac, randomBytes } from 'node:crypto';
import type { getSessionFromCtx } from 'better-auth/api';

type HookContext = Parameters<typeof getSessionFromCtx>[0];

/**
 * A browser that has given an address's right password carries a signed cookie naming that address
 * (keyed digest) and a random device id for a year: its sign-ins to that address are counted apart
 * (auth-mail-throttle.ts), so whoever sends wrong passwords for the address from elsewhere cannot
 * lock its owner out of their own browser. The cookie is worth nothing for another address.
 */
const KNOWN_DEVICE_COOKIE = 'known_device';
const KNOWN_DEVICE_MAX_AGE = 60 * 60 * 24 * 365;

/** The address a known-device cookie is for, under the server's key: a reader of the cookie cannot test guesses of it. */
const knownDeviceAddress = (ctx: HookContext, email: string): string => createHmac('sha256', ctx.context.secret).update(email.trim().toLowerCase()).digest('base64url');

/** The device id of this browser's known-device cookie for `email` (null: none, or for another address). */
export async function knownDevice(ctx: HookContext, email: string): Promise<string | null> {
  const value = await ctx.getSignedCookie(ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE).name, ctx.context.secret).catch(() => null);
  if (typeof value !== 'string') return null;
  const [address, device] = value.split(':');
  return address === knownDeviceAddress(ctx, email) && device && /^[A-Za-z0-9_-]{16,64}$/.test(device) ? device : null;
}

/** Gives this browser (or keeps, with `device`) its known-device cookie for `email`. */
export async function markKnownDevice(ctx: HookContext, email: string, device: string | null): Promise<void> {
  const cookie = ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE, { maxAge: KNOWN_DEVICE_MAX_AGE });
  await ctx.setSignedCookie(cookie.name, `${knownDeviceAddress(ctx, email)}:${device ?? randomBytes(18).toString('base64url')}`, ctx.context.secret, cookie.attributes);
}
