// What better-auth's routes are given, read before it sees them (the hooks in auth.ts): refused are
// NUL anywhere, return addresses that cannot go in a header, over-long or control-character emails and
// names (text-direction characters too), and profile pictures; and the sign-in's email as typed.
import { APIError, type getSessionFromCtx } from 'better-auth/api';
import { TEXT_CONTROLS } from '../contracts/text-controls';
import { holdsNul, NUL_MESSAGE } from '../lib/nul';

/**
 * Where an auth route sends the browser back to (a Location header, a link in a mail). better-auth
 * checks its origin, not its bytes: a character past Latin-1 (U+2028, any CJK letter) cannot go in a
 * header, so sign-in answered 500 and a verification link verified the address and then answered 500;
 * a 20 KB one made a header browsers drop. The app's own are short ASCII paths (percent-encoded).
 */
const RETURN_ADDRESS_KEYS = ['callbackURL', 'redirectTo', 'errorCallbackURL', 'newUserCallbackURL'] as const;
const RETURN_ADDRESS = /^[\x21-\x7e]{0,2048}$/;
const RETURN_ADDRESS_MESSAGE = 'The return address must be a path of this site, at most 2048 characters, with anything but plain ASCII letters, digits and punctuation percent-encoded.';

const MAX_EMAIL_LENGTH = 254;
const MAX_NAME_LENGTH = 200;

/**
 * Refuses hostile input before better-auth sees it: a NUL character in any field or query parameter (PostgreSQL
 * cannot compare it, a 500 on reset-password; and scrypt's HMAC reads "password\0" as "password"),
 * over-long or control-character emails and names.
 */
export function rejectHostileInput(ctx: { path: string; body?: unknown; query?: unknown }): void {
  // The query too: POST /reset-password also takes its token as ?token= (a NUL there was a 500).
  if (holdsNul(ctx.body) || holdsNul(ctx.query)) throw new APIError('BAD_REQUEST', { message: NUL_MESSAGE, code: 'INVALID_INPUT' });
  for (const source of [ctx.body, ctx.query]) {
    if (!source || typeof source !== 'object') continue;
    for (const key of RETURN_ADDRESS_KEYS) {
      const value = (source as Record<string, unknown>)[key];
      if (typeof value === 'string' && !RETURN_ADDRESS.test(value)) throw new APIError('BAD_REQUEST', { message: RETURN_ADDRESS_MESSAGE, code: 'INVALID_CALLBACK_URL' });
    }
  }
  if (!ctx.path.startsWith('/sign-up') && !ctx.path.startsWith('/sign-in')) return;
  const body = (ctx.body ?? {}) as { email?: unknown; name?: unknown; image?: unknown };
  const control = /[\u0000-\u001f\u007f]/;
  if (typeof body.email === 'string' && (body.email.length > MAX_EMAIL_LENGTH || control.test(body.email))) {
    throw new APIError('BAD_REQUEST', { message: 'Please enter a valid email address.', code: 'INVALID_EMAIL' });
  }
  // The name is shown to teammates (the Team list, the account's name on an invitation): no control
  // or text-direction character (U+202E drew the text after it backwards), as schedule and file names.
  if (typeof body.name === 'string' && (body.name.length > MAX_NAME_LENGTH || TEXT_CONTROLS.test(body.name))) {
    throw new APIError('BAD_REQUEST', { message: `Full name must be at most ${MAX_NAME_LENGTH} characters, without control or text-direction characters.`, code: 'INVALID_NAME' });
  }
  if (ctx.path.startsWith('/sign-up') && typeof body.name === 'string' && !body.name.trim()) {
    throw new APIError('BAD_REQUEST', { message: 'Full name is required.', code: 'INVALID_NAME' });
  }
  // The product has no profile pictures: better-auth would store any URL a sign-up sends (an
  // internal host, a tracking pixel) and hand it out with every session, for a future avatar to load.
  if (ctx.path.startsWith('/sign-up') && body.image !== undefined && body.image !== null) {
    throw new APIError('BAD_REQUEST', { message: 'Profile pictures are not supported.', code: 'INVALID_INPUT' });
  }
}

/** The context better-auth hands its before and after hooks. */
export type HookContext = Parameters<typeof getSessionFromCtx>[0];

export const SIGN_IN_PATH = '/sign-in/email';

/** The email a sign-in names, as typed (null when there is none). */
export const signInEmail = (body: unknown): string | null => {
  const email = (body as { email?: unknown } | null)?.email;
  return typeof email === 'string' && email.trim() ? email : null;
};
