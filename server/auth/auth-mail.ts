// The mails better-auth sends (a verification link, a reset link, the note to a duplicate sign-up) and
// the security notices its hooks send: in the brand of the host they were asked through, rationed per
// mailbox, their links on the app's own origin. auth.ts hands them to betterAuth. The team invitation
// is mailed by the team feature once it is kept (features/team/invitation-mail.ts).
import type { BetterAuthOptions } from 'better-auth';
import type { Db } from '../../db/client';
import { mayMailMailbox, type AuthMailKind } from '../features/account/auth-mail-throttle';
import { UNVERIFIED_SIGN_UP_DAYS } from '../features/account/unverified-purge';
import { mailBrandForHost, mailBrandForUser, type MailBrand } from '../features/branding/branding.service';
import { SUPPORT_EMAIL } from '../contracts/plans';
import { linkMail, type Mailer } from '../mail/mailer';
import { CLIENT_HOST_HEADER } from './auth-routes';

/** A change to how the account is signed in to, told to its address (securityNotice below; auth.ts's afterHook calls it). */
export type SecurityChange = 'password' | 'two-factor-on' | 'two-factor-off';
export type SecurityNotice = (change: SecurityChange, user: { id: string; email: string }, request: Request | undefined) => Promise<void>;

/** Where a reset link lands (the SPA's new-password form), when the request named no return address. */
const RESET_FORM_PATH = '/auth?step=reset';

/**
 * A reset asked for without redirectTo (a script, another client) made a link whose empty
 * callbackURL better-auth sends to /api/auth/error, which answers nothing (a JSON 404): it lands on
 * the reset form instead, as the SPA's own requests do.
 */
function landOnResetForm(link: string): string {
  const u = new URL(link);
  if (!u.searchParams.get('callbackURL')) u.searchParams.set('callbackURL', RESET_FORM_PATH);
  return u.toString();
}

/** Every verification link returns to /dashboard (spec section 4), whichever flow sent it. */
function landOnDashboard(link: string): string {
  const u = new URL(link);
  const cb = u.searchParams.get('callbackURL');
  if (!cb || cb === '/') u.searchParams.set('callbackURL', '/dashboard');
  return u.toString();
}

export interface AuthMailDeps {
  db: Db;
  mailer: Mailer;
  baseURL: string;
  secret: string;
  production: boolean;
  /** The app's own origins (auth.ts trustedOrigins): a link's return address anywhere else is brought onto the app. */
  appOrigins: string[];
  /** Logs a failed send (createAuth's `[auth] <what>:` lines). */
  log: (what: string) => (err: unknown) => void;
}

type EmailAndPassword = NonNullable<BetterAuthOptions['emailAndPassword']>;
type EmailVerification = NonNullable<BetterAuthOptions['emailVerification']>;

/** The mail callbacks createAuth (auth.ts) hands to betterAuth, and the brand of a request's host (whose origin it trusts). */
export function authMails(d: AuthMailDeps) {
  const { log } = d;
  // White-label mails: a mail a visitor triggers on a verified custom domain (by Host, which the
  // auth guard passes from Express) carries that domain's brand (name, colour, logo) if the user is
  // one of its account's; else Mailvet's. Its links are always on the app's own origin (BASE_URL):
  // the tenant controls the domain's DNS and can point it at its own server once verified, and these
  // links carry a reset or verification token (or lead to sign-in or a new password) for a user who
  // may own or belong to other accounts, or for someone whose address the tenant signed up.
  const base = new URL(d.baseURL);
  const secure = d.production || base.protocol === 'https:';
  const appOrigins = new Set(d.appOrigins);
  const hostOf = (request: Request | undefined): string | null | undefined => request?.headers.get(CLIENT_HOST_HEADER);
  const brandOpts = { secure, port: base.port, appOrigin: base.origin };
  const mailBrand = (request: Request | undefined): Promise<MailBrand | null> => mailBrandForHost(d.db, hostOf(request), brandOpts);
  /** A mail to `user` carries the brand only if the user is one of its account's (never its link host). */
  const userMailBrand = (user: { id: string; signupBrandAccountId?: unknown }, request: Request | undefined): Promise<MailBrand | null> =>
    mailBrandForUser(d.db, hostOf(request), user, brandOpts);
  /**
   * A token link better-auth built (on BASE_URL), with its return address kept on the app too: one
   * asked through a custom domain may name that domain (trusted for requests to it), and the reset
   * link's landing carries the token (`?token=`) — it becomes the same path on the app's origin.
   */
  const onAppOrigin = (link: string): string => {
    const u = new URL(link);
    const cb = u.searchParams.get('callbackURL');
    if (cb && /^[a-z][a-z0-9+.-]*:|^\/\//i.test(cb)) {
      const to = new URL(cb, d.baseURL);
      if (!appOrigins.has(to.origin)) u.searchParams.set('callbackURL', to.pathname.startsWith('/') ? `${to.pathname}${to.search}${to.hash}` : '/');
    }
    return u.toString();
  };
  /** The mailbox's hourly allowance for this kind of mail (auth-mail-throttle.ts); a refused send is logged and skipped. */
  const mayMail = async (kind: AuthMailKind, to: string): Promise<boolean> => {
    if (await mayMailMailbox(d.db, kind, to)) return true;
    console.warn(`[auth] ${kind} mail not sent: the mailbox had its hourly allowance`);
    return false;
  };
  type LinkContent = Pick<Parameters<typeof linkMail>[0], 'subject' | 'intro' | 'cta' | 'url' | 'outro'>;
  /** A link mail in the brand of the host the request came through (white-label), else Mailvet's. */
  const sendBrandedLink = async (to: string, b: MailBrand | null, content: (name: string) => LinkContent) => {
    const name = b?.productName ?? 'Mailvet';
    await d.mailer.send({ ...linkMail({ to, ...content(name), signature: name, brand: b }), fromName: b?.senderName ?? null });
  };
  /**
   * A new password or two-factor turned off is mailed to the address (OWASP ASVS 2.2.3), with the way
   * back: whoever holds a stolen session and the password could otherwise change both unseen, and the
   * owner learnt of it only when the password stopped working. A failed send is logged, never the
   * change's answer.
   */
  const securityNotice: SecurityNotice = async (change, user, request) => {
    // Through a relay the notice goes after the answer: a slow or stuck relay must not hold the
    // change (Change Password, a reset, two-factor) the user is waiting on. The dev outbox is a local insert.
    const sending = notify(change, user, request).catch(log('security notice'));
    if (d.mailer.transport !== 'smtp') await sending;
  };
  const notify: SecurityNotice = async (change, user, request) => {
    if (!(await mayMail('security-notice', user.email).catch(() => false))) return;
    const b = await userMailBrand(user, request).catch(() => null);
    await sendBrandedLink(user.email, b, (name) => ({
      subject:
        change === 'password'
          ? `Your ${name} password was changed`
          : `Two-factor authentication was turned ${change === 'two-factor-on' ? 'on' : 'off'} for your ${name} account`,
      intro: {
        password: `The password of your ${name} account (${user.email}) was just changed, and every other browser signed out.`,
        'two-factor-on': `Two-factor authentication was just turned on for your ${name} account (${user.email}): signing in now takes a code from the authenticator app it was set up with.`,
        'two-factor-off': `Two-factor authentication was just turned off for your ${name} account (${user.email}): the password alone now signs in.`,
      }[change],
      cta: 'Choose a new password',
      url: `${d.baseURL}/auth?step=forgot`,
      outro:
        change === 'two-factor-on'
          ? `If this wasn't you, choose a new password now: that signs everybody else out. Then write to ${SUPPORT_EMAIL}: signing in will ask for a code only they have.`
          : "If this wasn't you, choose a new password now: that signs everybody else out.",
    }));
  };
  const sendResetPassword: NonNullable<EmailAndPassword['sendResetPassword']> = async ({ user, url }, request) => {
    if (!(await mayMail('reset', user.email))) return;
    const b = await userMailBrand(user, request);
    await sendBrandedLink(user.email, b, (name) => ({
      subject: `Reset your ${name} password`,
      intro: `Somebody (we hope you) asked to reset the password of your ${name} account. The link works for one hour.`,
      cta: 'Choose a new password',
      url: onAppOrigin(landOnResetForm(url)),
      outro: "If you didn't ask for this, ignore this email: your password stays as it is.",
    }));
  };
  /**
   * With verification required, a duplicate sign-up answers like a new one (no account
   * enumeration); the real owner gets a note instead of a second account.
   */
  const onExistingUserSignUp: NonNullable<EmailAndPassword['onExistingUserSignUp']> = async ({ user }, request) => {
    if (!(await mayMail('signup-notice', user.email).catch(() => false))) return;
    const b = await userMailBrand(user, request).catch(() => null);
    // An account that was never activated may have been signed up by someone else, with their
    // password: its owner cannot sign in, but a password reset (which ends every session) makes it theirs.
    await sendBrandedLink(user.email, b, (name) =>
      user.emailVerified
        ? {
            subject: 'Someone tried to sign up with your email',
            intro: `Somebody (maybe you) tried to create a ${name} account with this address, which already has one. Sign in instead.`,
            cta: `Sign in to ${name}`,
            url: `${d.baseURL}/auth`,
          }
        : {
            subject: 'Someone tried to sign up with your email',
            intro: `Somebody (maybe you) tried to create a ${name} account with this address. It already has one, never activated. If you did not create it, or do not know its password, choose a new password to make it yours: that also signs everybody else out of it.`,
            cta: 'Choose a new password',
            url: `${d.baseURL}/auth?step=forgot`,
          },
    ).catch(log('existing-user notice'));
  };
  /**
   * better-auth hands most mails to its background tasks (advanced.backgroundTasks: after the answer,
   * through a relay), but a verification mail asked for again (send-verification-email, no session)
   * it awaits, and only for an address with an account not yet verified: the answer waited for the
   * relay, which told an anonymous caller which addresses have one. Through a relay the mail goes
   * after the answer here too (a failed send is logged); the dev outbox is a local insert, kept in line.
   */
  const sendVerificationEmail: NonNullable<EmailVerification['sendVerificationEmail']> = async (data, request) => {
    const sending = sendVerificationLink(data, request);
    if (d.mailer.transport === 'smtp') void sending.catch(log('verification mail'));
    else await sending;
  };
  const sendVerificationLink: NonNullable<EmailVerification['sendVerificationEmail']> = async ({ user, url }, request) => {
    if (!(await mayMail('verify', user.email))) return;
    const b = await userMailBrand(user, request);
    await sendBrandedLink(user.email, b, (name) => ({
      subject: `Verify your email for ${name}`,
      // No name: whoever signed up chose it, and the address may be someone else's (a name holding a
      // link or a "your mailbox is suspended" would reach its owner in our mail).
      intro: `Hi, confirm your email address to activate your ${name} account and your 500 free validations.`,
      cta: 'Verify my email',
      url: onAppOrigin(landOnDashboard(url)),
      // Someone may have signed up this address: its owner learns that doing nothing is safe.
      // Unverified, it is deleted after UNVERIFIED_SIGN_UP_DAYS (unverified-purge.ts): a real sign-up that waits longer signs up again.
      outro: `If you didn't sign up for ${name}, ignore this email: without this link the account stays inactive, nobody can sign in to it, and it is deleted after ${UNVERIFIED_SIGN_UP_DAYS} days.`,
    }));
  };
  return { mailBrand, securityNotice, sendResetPassword, onExistingUserSignUp, sendVerificationEmail };
}
