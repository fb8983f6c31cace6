// Who a verification link signs in (see below): the before and after hooks of auth.ts call these.
import { getSessionFromCtx, isAPIError } from 'better-auth/api';
import { deleteSessionCookie, setSessionCookie } from 'better-auth/cookies';
import { SIGN_IN_PATH, signInEmail, type HookContext } from './auth-input';

/**
 * A verification link signs in whoever opens it (autoSignInAfterVerification), which an attacker could
 * turn on others:
 *  - better-auth replaced a signed-in browser's session with the link's user: a page of the attacker's
 *    opened the link of an address of theirs in a victim's browser, which then worked in the
 *    attacker's account (the victim's uploads and checks landing there);
 *  - someone who signed up a victim's address with a password of their own had the victim, opening the
 *    link mailed to them, signed in to an account whose password the squatter still held.
 * So the link signs in only the browser the sign-up came from (or one that gave the right password to
 * an account not activated yet): a cookie of its own names that user. Anywhere else the address is
 * verified and nobody is signed in (the mailbox owner signs in with the password, or resets it); a
 * browser signed in as someone else keeps its own session.
 */
export const VERIFY_EMAIL_PATH = '/verify-email';
const SIGN_UP_PATH = '/sign-up/email';
const SIGN_UP_BROWSER_COOKIE = 'signup_browser';
const SIGN_UP_BROWSER_MAX_AGE = 60 * 60 * 24; // the verification link's life
type LiveSession = NonNullable<Awaited<ReturnType<typeof getSessionFromCtx>>>;
const sessionsBeforeVerify = new WeakMap<Request, LiveSession>();

export async function rememberSessionBeforeVerify(ctx: HookContext): Promise<void> {
  if (ctx.path !== VERIFY_EMAIL_PATH || !ctx.request) return;
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) sessionsBeforeVerify.set(ctx.request, session);
}

/** After a sign-up (a new user, or the look-alike answer to a taken address) or a right password for an account not activated yet. */
export async function markSignUpBrowser(ctx: HookContext, returned: unknown): Promise<void> {
  let userId: unknown = null;
  if (ctx.path === SIGN_UP_PATH && !isAPIError(returned)) userId = (returned as { user?: { id?: unknown } } | null)?.user?.id;
  if (ctx.path === SIGN_IN_PATH && isAPIError(returned) && returned.statusCode === 403 && returned.body?.code === 'EMAIL_NOT_VERIFIED') {
    const email = signInEmail(ctx.body);
    userId = email ? (await ctx.context.internalAdapter.findUserByEmail(email.toLowerCase()).catch(() => null))?.user.id : null;
  }
  if (typeof userId !== 'string' || !userId) return;
  const cookie = ctx.context.createAuthCookie(SIGN_UP_BROWSER_COOKIE, { maxAge: SIGN_UP_BROWSER_MAX_AGE });
  await ctx.setSignedCookie(cookie.name, userId, ctx.context.secret, cookie.attributes);
}

export async function settleSessionAfterVerify(ctx: HookContext): Promise<void> {
  const made = ctx.context.newSession;
  if (!made) return;
  const before = ctx.request ? sessionsBeforeVerify.get(ctx.request) : undefined;
  if (before) {
    if (made.user.id === before.user.id) return;
    await ctx.context.internalAdapter.deleteSession(made.session.token);
    await setSessionCookie(ctx, before);
    return;
  }
  const marked = await ctx.getSignedCookie(ctx.context.createAuthCookie(SIGN_UP_BROWSER_COOKIE).name, ctx.context.secret);
  if (marked === made.user.id) return;
  await ctx.context.internalAdapter.deleteSession(made.session.token);
  deleteSessionCookie(ctx);
}
