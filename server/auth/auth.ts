// better-auth: email + password with required verification, sessions, TOTP two-factor, and the
// organization plugin as the account/team model (owner/admin/member, invitations).
import { createHash } from 'node:crypto';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { organization, twoFactor } from 'better-auth/plugins';
import { kyselyAdapter } from '@better-auth/kysely-adapter';
import type pg from 'pg';
import type { Db } from '../../db/client';
import { claimTotpCode, clearSignInAttempts, countSignInAttempt, recordWrongPassword, releaseTotpCode, SIGN_IN_LOCKED_MESSAGE, TOTP_CODE_USED_MESSAGE, WRONG_PASSWORDS_MESSAGE, wrongPasswordsSpent } from '../features/account/auth-mail-throttle';
import { endGrantsOfOldPassword } from '../features/account/password-changed';
import { activateOnPasswordReset, grantFreeCreditsOnVerification, provisionAccount } from '../features/account/provision';
import { brandForHost } from '../features/branding/branding.service';
import { INVITATION_EXPIRES_HOURS, invitationAllowance, teamMemberLimit } from '../features/team/team-seats';
import type { Mailer } from '../mail/mailer';
import { CLIENT_HOST_HEADER, CLIENT_IP_HEADER, RECEIVED_AT_HEADER } from './auth-routes';
import { rejectHostileInput, SIGN_IN_PATH, signInEmail, type HookContext } from './auth-input';
import { authMails, type SecurityNotice } from './auth-mail';
import { markSignUpBrowser, rememberSessionBeforeVerify, settleSessionAfterVerify, VERIFY_EMAIL_PATH } from './verify-session';
import { knownDevice, markKnownDevice } from './known-device';
import { cappingSessionLifetime } from './session-lifetime';
import { hashingSessionTokens, revokeListedSessions } from './session-token-hash';

export interface AuthDeps {
  pool: pg.Pool;
  db: Db;
  mailer: Mailer;
  baseURL: string;
  secret: string;
  production: boolean;
  /** better-auth's per-IP rate limit (env AUTH_RATE_LIMIT; always on in production). */
  rateLimit: boolean;
  /** Answers that could tell whether an address has an account take at least this long (env AUTH_ANSWER_FLOOR_MS): see afterHook. */
  answerFloorMs: number;
}

/**
 * Users: deleting one is the product's Delete Account flow (typed DELETE + password), never
 * better-auth's route. `signupBrandAccountId`: the account whose verified custom domain the user
 * signed up through (set on the server, never from the request body); its mails may be branded.
 * Never in an answer: a sign-up through the domain named the tenant for a new address and null for
 * one that had an account, so its answer told which addresses have one.
 */
const userOptions = {
  deleteUser: { enabled: false },
  additionalFields: { signupBrandAccountId: { type: 'string', required: false, input: false, returned: false } },
} satisfies BetterAuthOptions['user'];

/** The options that shape better-auth's tables; also used by db/migrate.ts to create them. */
export function authSchemaOptions(): Pick<BetterAuthOptions, 'account' | 'plugins' | 'user' | 'rateLimit'> {
  return {
    account: { modelName: 'auth_account' }, // `account` is ours: the spec's billing/quota entity
    user: userOptions,
    rateLimit: { storage: 'database' }, // creates the rateLimit table
    plugins: [organization(), twoFactor()],
  };
}

/** Routes whose work differs with whether the address has an account (afterHook pads them). */
const FLOORED_PATHS = new Set(['/sign-up/email', '/request-password-reset', '/send-verification-email']);

/**
 * Signed-in routes that ask for the current password: wrong ones count against the user with Delete
 * Account's (auth-mail-throttle.ts), so a stolen session cannot guess its way to the password, and
 * from there to changing it or turning two-factor off.
 */
const PASSWORD_CONFIRM_PATHS = new Set(['/change-password', '/two-factor/enable', '/two-factor/disable']);

async function passwordConfirmUser(ctx: HookContext): Promise<string | null> {
  if (!PASSWORD_CONFIRM_PATHS.has(ctx.path)) return null;
  const session = await getSessionFromCtx(ctx).catch(() => null);
  return session?.user.id ?? null;
}

/**
 * "Trust this device" is not offered: a browser trusted once (with the password and one code) would
 * sign in with the password alone for 30 days, renewed at each sign-in, so one phished or
 * shoulder-surfed code became two-factor off for good. The flag is refused, and a trust cookie
 * already in a browser is never read (server/http/auth-guard.ts drops it).
 */
const TWO_FACTOR_CODE_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);
export const TRUST_DEVICE_MESSAGE = 'Trusting a device is not offered: enter a code from your authenticator app each time you sign in.';

const TOTP_PATH = '/two-factor/verify-totp';
/** A signed-in user's first code, which turns two-factor on (told to the address: afterHook). */
const turningTwoFactorOn = new WeakMap<Request, { id: string; email: string }>();
/** The code each verify-totp request claimed (auth-mail-throttle.ts claimTotpCode), to give back if it did not sign in. */
const totpClaims = new WeakMap<Request, { userId: string; code: string }>();

/** Whose code this is: the signed-in user (turning two-factor on), or the user of the pending two-factor sign-in. */
async function twoFactorUserId(ctx: HookContext): Promise<string | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user.id;
  const pending = await ctx.getSignedCookie(ctx.context.createAuthCookie('two_factor').name, ctx.context.secret);
  if (!pending) return null;
  const verification = await ctx.context.internalAdapter.findVerificationValue(pending).catch(() => null);
  return verification?.value ?? null;
}

/** Refuses a TOTP code already taken by its user (a replay); otherwise claims it for this request. */
async function claimTotp(db: Db, ctx: HookContext): Promise<void> {
  const code = (ctx.body as { code?: unknown } | undefined)?.code;
  if (ctx.path !== TOTP_PATH || !ctx.request || typeof code !== 'string' || !code) return;
  const userId = await twoFactorUserId(ctx);
  if (!userId) return; // better-auth refuses it: no pending sign-in, no session
  if (!(await claimTotpCode(db, userId, code))) throw new APIError('UNAUTHORIZED', { message: TOTP_CODE_USED_MESSAGE, code: 'INVALID_CODE' });
  totpClaims.set(ctx.request, { userId, code });
}

const CHANGE_PASSWORD_PATH = '/change-password';

/** Before: refuses hostile input, then counts a password sign-in against its address (auth-mail-throttle.ts). */
function beforeHook(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    rejectHostileInput(ctx);
    await rememberSessionBeforeVerify(ctx);
    if (ctx.path === '/revoke-session' || ctx.path === '/revoke-other-sessions') {
      const session = await getSessionFromCtx(ctx).catch(() => null);
      await revokeListedSessions(db, ctx, session ? { userId: session.user.id, token: session.session.token } : null);
    }
    if (TWO_FACTOR_CODE_PATHS.has(ctx.path)) {
      const trust = (ctx.body as { trustDevice?: unknown } | undefined)?.trustDevice;
      if (trust !== undefined && trust !== false) throw new APIError('BAD_REQUEST', { message: TRUST_DEVICE_MESSAGE, code: 'TRUST_DEVICE_NOT_OFFERED' });
      await claimTotp(db, ctx);
      if (ctx.path === TOTP_PATH && ctx.request) {
        const signedIn = await getSessionFromCtx(ctx).catch(() => null);
        if (signedIn && !signedIn.user.twoFactorEnabled) turningTwoFactorOn.set(ctx.request, { id: signedIn.user.id, email: signedIn.user.email });
      }
    }
    const confirming = await passwordConfirmUser(ctx);
    if (confirming && (await wrongPasswordsSpent(db, confirming))) {
      throw new APIError('TOO_MANY_REQUESTS', { message: WRONG_PASSWORDS_MESSAGE, code: 'TOO_MANY_WRONG_PASSWORDS' });
    }
    // A password is changed because it may be known to someone else: every other session ends,
    // whatever the call asked (better-auth keeps them unless revokeOtherSessions is true, and a direct
    // call, a script or an older client may leave it out). The caller's browser gets a new session.
    if (ctx.path === CHANGE_PASSWORD_PATH && ctx.body && typeof ctx.body === 'object') {
      return { context: { body: { ...(ctx.body as Record<string, unknown>), revokeOtherSessions: true } } };
    }
    const email = ctx.path === SIGN_IN_PATH ? signInEmail(ctx.body) : null;
    if (!email) return;
    const attempt = await countSignInAttempt(db, email, await knownDevice(ctx, email));
    if (!attempt.allowed) {
      throw new APIError('TOO_MANY_REQUESTS', { message: SIGN_IN_LOCKED_MESSAGE, code: 'TOO_MANY_SIGN_IN_ATTEMPTS' }, { 'Retry-After': String(attempt.retryAfterSeconds) });
    }
  });
}

const TWO_FACTOR_DISABLE_PATH = '/two-factor/disable';

/**
 * After: a wrong current password is counted against the user; the right password at sign-in
 * (signed in, sent on to two-factor, or told to verify the address) clears the address's count.
 */
function afterHook(db: Db, answerFloorMs: number, securityNotice: SecurityNotice) {
  return createAuthMiddleware(async (ctx) => {
    // A new address costs a user, an account and a mail, a taken one only a note to its owner; a
    // reset or a verification mail costs a token and a mail for an address with an account, a lookup
    // otherwise. The answers are the same, but their timing told which addresses have an account:
    // they are held until answerFloorMs after the request arrived (auth-guard.ts stamps it).
    if (FLOORED_PATHS.has(ctx.path) && answerFloorMs > 0) {
      const receivedAt = Number(ctx.request?.headers.get(RECEIVED_AT_HEADER) ?? ctx.headers?.get(RECEIVED_AT_HEADER));
      const wait = Number.isFinite(receivedAt) ? answerFloorMs - (performance.now() - receivedAt) : answerFloorMs;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    if (ctx.path === VERIFY_EMAIL_PATH) await settleSessionAfterVerify(ctx);
    const returned = ctx.context.returned;
    await markSignUpBrowser(ctx, returned);
    const claim = ctx.request ? totpClaims.get(ctx.request) : undefined;
    if (claim && isAPIError(returned)) await releaseTotpCode(db, claim.userId, claim.code);
    if (ctx.path === CHANGE_PASSWORD_PATH && !isAPIError(returned)) {
      const user = (returned as { user?: { id?: unknown; email?: unknown } } | null)?.user;
      if (typeof user?.id === 'string') await endGrantsOfOldPassword(db, user.id);
      if (typeof user?.id === 'string' && typeof user.email === 'string') await securityNotice('password', { id: user.id, email: user.email }, ctx.request);
      // Every browser known before no longer is (known-device.ts binds the cookie to the password);
      // this one gave the old password and chose the new one: it stays known.
      if (typeof user?.email === 'string') await markKnownDevice(ctx, user.email, null);
    }
    const turnedOn = ctx.path === TOTP_PATH && ctx.request ? turningTwoFactorOn.get(ctx.request) : undefined;
    if (turnedOn && !isAPIError(returned)) await securityNotice('two-factor-on', turnedOn, ctx.request);
    if (ctx.path === TWO_FACTOR_DISABLE_PATH && !isAPIError(returned) && ctx.context.session?.user) {
      await securityNotice('two-factor-off', ctx.context.session.user, ctx.request);
    }
    if (isAPIError(returned) && returned.body?.code === 'INVALID_PASSWORD') {
      const confirming = await passwordConfirmUser(ctx);
      if (confirming) await recordWrongPassword(db, confirming);
    }
    const email = ctx.path === SIGN_IN_PATH ? signInEmail(ctx.body) : null;
    if (email) {
      const rightPassword = !isAPIError(returned) || (returned.statusCode === 403 && returned.body?.code === 'EMAIL_NOT_VERIFIED');
      if (rightPassword) {
        const device = await knownDevice(ctx, email);
        await clearSignInAttempts(db, email, device);
        await markKnownDevice(ctx, email, device);
      }
    }
    const scrubbed = ctx.request ? withoutSessionToken(returned) : null;
    return scrubbed ? ctx.json(scrubbed) : undefined;
  });
}

/**
 * The session token lives in an HttpOnly cookie so that no script can read it; better-auth also
 * put it in the JSON of sign-in, get-session, a two-factor code and Change Password, where any script
 * on the page (an injected one included) could read it and use the session from anywhere for a week.
 * The SPA never reads it (the cookie signs every request): HTTP answers carry `token: null`. Server-side
 * calls (auth.api) keep it.
 */
function withoutSessionToken(returned: unknown): Record<string, unknown> | null {
  if (!returned || typeof returned !== 'object' || isAPIError(returned) || returned instanceof Response || Array.isArray(returned)) return null;
  const body = returned as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  if (typeof body.token === 'string') out = { ...body, token: null };
  const session = body.session;
  if (session && typeof session === 'object' && typeof (session as { token?: unknown }).token === 'string') {
    const { token: _token, ...rest } = session as Record<string, unknown>;
    out = { ...(out ?? body), session: rest };
  }
  return out;
}

const RESET_LINK_PREFIX = 'reset-password:';
/**
 * A reset link's row as stored: under a prefix of its own, so that better-auth's lookup of the plain
 * identifier (kept for rows stored before hashing) can never find it: a digest sent as a token
 * names `reset-password:<digest>`, which no row holds.
 */
const STORED_RESET_LINK_PREFIX = 'reset-password-sha256:';
const sha256 = (s: string): string => createHash('sha256').update(s).digest('base64url');
const hashResetIdentifier = async (identifier: string): Promise<string> => `${STORED_RESET_LINK_PREFIX}${sha256(identifier.slice(RESET_LINK_PREFIX.length))}`;

/**
 * A sign-in waiting at the two-factor step is a verification row `2fa-<random>` (the two-factor
 * cookie's value, 10 minutes) with its attempt counter `2fa-attempts-2fa-<random>`. Whoever read the
 * table and the server secret signed that cookie and, the TOTP secret and backup codes being encrypted
 * under the same secret, sent a good code: signed in as a user who had just typed their password. The
 * rows are stored under the SHA-256 of the cookie's value, with prefixes of their own that better-auth's
 * plain-identifier fallback (a cookie naming the stored row) can never produce: every cookie value it
 * looks up begins `2fa-`. password-changed.ts ends them by these prefixes.
 */
const TWO_FACTOR_PREFIX = '2fa-';
const TWO_FACTOR_ATTEMPTS_PREFIX = '2fa-attempts-';
const STORED_TWO_FACTOR_PREFIX = 'two-factor-sha256:';
const STORED_TWO_FACTOR_ATTEMPTS_PREFIX = 'two-factor-attempts-sha256:';
const hashTwoFactorIdentifier = async (identifier: string): Promise<string> =>
  identifier.startsWith(TWO_FACTOR_ATTEMPTS_PREFIX)
    ? `${STORED_TWO_FACTOR_ATTEMPTS_PREFIX}${sha256(identifier.slice(TWO_FACTOR_ATTEMPTS_PREFIX.length))}`
    : `${STORED_TWO_FACTOR_PREFIX}${sha256(identifier)}`;

/** The app's own origin; outside production also its localhost/127.0.0.1 twin (same port). */
export function trustedOrigins(baseURL: string, production: boolean): string[] {
  const origins = [new URL(baseURL).origin];
  if (!production) {
    const u = new URL(baseURL);
    for (const host of ['localhost', '127.0.0.1']) origins.push(`${u.protocol}//${host}${u.port ? `:${u.port}` : ''}`);
  }
  return [...new Set(origins)];
}

export function createAuth(d: AuthDeps) {
  const log = (what: string) => (err: unknown) => console.error(`[auth] ${what}:`, err);
  const https = new URL(d.baseURL).protocol === 'https:';
  // Every mail better-auth and the hooks send (links, notes, notices, invitations): auth-mail.ts.
  const mails = authMails({ ...d, appOrigins: trustedOrigins(d.baseURL, d.production), log });
  return betterAuth({
    appName: 'Mailvet',
    baseURL: d.baseURL,
    basePath: '/api/auth',
    secret: d.secret,
    // The session table keeps SHA-256(token), never the token the cookie carries (session-token-hash.ts).
    database: (options: BetterAuthOptions) => cappingSessionLifetime(hashingSessionTokens(kyselyAdapter(d.db, { type: 'postgres', transaction: true })(options))),
    telemetry: { enabled: false },
    // The app's origins, and a verified custom domain's own origin for requests that came to it.
    trustedOrigins: async (request) => {
      const own = trustedOrigins(d.baseURL, d.production);
      const b = request ? await mails.mailBrand(request).catch(() => null) : null;
      return b?.origin ? [...own, b.origin] : own;
    },
    account: { modelName: 'auth_account' },
    user: userOptions,
    // A reset link is a password for the next hour: the table keeps only its SHA-256 (the prefix kept,
    // so a new password can end the user's other links: password-changed.ts), and whoever reads the
    // database (a backup, a leaked replica, an injection elsewhere) cannot take an account with what
    // they read. The other rows name nothing a browser sends back unsigned.
    // Likewise a sign-in waiting at the two-factor step (hashTwoFactorIdentifier).
    verification: { storeIdentifier: { default: 'plain', overrides: { [RESET_LINK_PREFIX]: { hash: hashResetIdentifier }, [TWO_FACTOR_PREFIX]: { hash: hashTwoFactorIdentifier } } } },
    session: {
      expiresIn: 60 * 60 * 24 * 7, // 7 days, refreshed while in use, never past 30 days from the sign-in (session-lifetime.ts)
      updateAge: 60 * 60 * 24,
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      // A new password chosen through the mailbox ends any sign-in lockout on the address, and any
      // sign-in with the old one still waiting at the two-factor step, and every other reset link
      // (sessions end: revokeSessionsOnPasswordReset).
      // It proves the mailbox: an account never activated (a squatter's, taken over) is activated.
      onPasswordReset: async ({ user }, request) => {
        await endGrantsOfOldPassword(d.db, user.id);
        await activateOnPasswordReset(d.db, user);
        await mails.securityNotice('password', user, request);
        await clearSignInAttempts(d.db, user.email);
      },
      sendResetPassword: mails.sendResetPassword,
      onExistingUserSignUp: mails.onExistingUserSignUp,
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      // The free credits come with a verified address (never with a sign-up alone: see provision.ts).
      beforeEmailVerification: async (user) => {
        await grantFreeCreditsOnVerification(d.db, user);
      },
      sendVerificationEmail: mails.sendVerificationEmail,
    },
    hooks: { before: beforeHook(d.db), after: afterHook(d.db, d.answerFloorMs, mails.securityNotice) },
    databaseHooks: {
      user: {
        create: {
          // Signed up through a verified custom domain: that account's mails to this user may be branded.
          before: async (user, ctx) => {
            const b = await brandForHost(d.db, ctx?.request?.headers.get(CLIENT_HOST_HEADER) ?? ctx?.headers?.get(CLIENT_HOST_HEADER) ?? undefined);
            return b ? { data: { ...user, signupBrandAccountId: b.accountId } } : undefined;
          },
          after: async (user) => {
            // A failure here is healed on the first signed-in request (accountProcedure).
            await provisionAccount(d.db, user).catch(log('provision account'));
          },
        },
      },
    },
    // Kept in Postgres (shared by every web process), keyed by the client IP Express resolved with
    // TRUST_PROXY (see server/http/auth-guard.ts). better-auth's own stricter rules still apply:
    // sign-in/sign-up/change-password 3 per 10 s, reset and verification mails 3 per minute.
    // Session reads are not guessable (a 32-byte token) and the SPA polls them: no per-IP cap there,
    // so an office behind one NAT is never signed out by its own polling.
    rateLimit: { enabled: d.production || d.rateLimit, storage: 'database', window: 60, max: 100, customRules: { '/get-session': false } },
    advanced: {
      // Through a relay (SMTP_URL), mails go out after the answer: how long the relay takes must not
      // tell an anonymous caller which addresses have an account (a reset or a verification mail is
      // sent for those only). A failed send is logged. The dev outbox is a local insert, kept in line.
      // better-auth skips its origin and callbackURL checks when NODE_ENV is "test": keep them on, so
      // the tests exercise what production runs (an open redirect on a verification link, a form post
      // from another site).
      disableOriginCheck: false,
      backgroundTasks: d.mailer.transport === 'smtp' ? { handler: (task) => void task.catch(log('mail')) } : undefined,
      // Over https every cookie is __Host- (Secure, Path=/, no Domain): a browser takes such a cookie
      // from this host only, so a sibling subdomain cannot plant a session of its choosing (session
      // fixation) the way it could with __Secure- names and a Domain=.parent copy. Plain http
      // (npm start, tests) keeps plain names: browsers refuse Secure cookies there.
      ...(https ? { useSecureCookies: false, cookiePrefix: '__Host-better-auth', defaultCookieAttributes: { secure: true } } : { useSecureCookies: false }),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    plugins: [
      organization({
        allowUserToCreateOrganization: false,
        disableOrganizationDeletion: true,
        // Team size is our plan rule (account.team_member_limit, owner included). The team router
        // enforces it with its messages; the plugin's own checks read the same column, so a route
        // a future version adds cannot seat more people than the plan allows.
        membershipLimit: async (_user, org) => teamMemberLimit(d.db, org.id),
        invitationLimit: async ({ organization: org }) => invitationAllowance(d.db, org.id),
        invitationExpiresIn: INVITATION_EXPIRES_HOURS * 3600,
        // No sendInvitationEmail: the invitation is mailed by inviteMember once it is kept
        // (features/team/invitation-mail.ts), never for one refused after better-auth stored it.
      }),
      twoFactor({ issuer: 'Mailvet' }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
