// better-auth: email + password with required verification, sessions, TOTP two-factor, and the
// organization plugin as the account/team model (owner/admin/member, invitations).
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { organization, twoFactor } from 'better-auth/plugins';
import type pg from 'pg';
import type { Db } from '../../db/client';
import { provisionAccount } from '../features/account/provision';
import { linkMail, type Mailer } from '../mail/mailer';

export interface AuthDeps {
  pool: pg.Pool;
  db: Db;
  mailer: Mailer;
  baseURL: string;
  secret: string;
  production: boolean;
}

/** The options that shape better-auth's tables; also used by db/migrate.ts to create them. */
export function authSchemaOptions(): Pick<BetterAuthOptions, 'account' | 'plugins' | 'user'> {
  return {
    account: { modelName: 'auth_account' }, // `account` is ours: the spec's billing/quota entity
    user: { deleteUser: { enabled: true } },
    plugins: [organization(), twoFactor()],
  };
}

/** The app's own origin; outside production also its localhost/127.0.0.1 twin (same port). */
function trustedOrigins(baseURL: string, production: boolean): string[] {
  const origins = [new URL(baseURL).origin];
  if (!production) {
    const u = new URL(baseURL);
    for (const host of ['localhost', '127.0.0.1']) origins.push(`${u.protocol}//${host}${u.port ? `:${u.port}` : ''}`);
  }
  return [...new Set(origins)];
}

export function createAuth(d: AuthDeps) {
  const log = (what: string) => (err: unknown) => console.error(`[auth] ${what}:`, err);
  return betterAuth({
    appName: 'Mailvet',
    baseURL: d.baseURL,
    basePath: '/api/auth',
    secret: d.secret,
    database: d.pool,
    telemetry: { enabled: false },
    trustedOrigins: trustedOrigins(d.baseURL, d.production),
    account: { modelName: 'auth_account' },
    user: { deleteUser: { enabled: true } },
    session: {
      expiresIn: 60 * 60 * 24 * 7, // 7 days, refreshed while in use
      updateAge: 60 * 60 * 24,
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      // With verification required, a duplicate sign-up answers like a new one (no account
      // enumeration); the real owner gets a note instead of a second account.
      onExistingUserSignUp: async ({ user }) => {
        await d.mailer
          .send(linkMail({
            to: user.email,
            subject: 'Someone tried to sign up with your email',
            intro: 'Somebody (maybe you) tried to create a Mailvet account with this address, which already has one. Sign in instead.',
            cta: 'Sign in to Mailvet',
            url: `${d.baseURL}/auth`,
          }))
          .catch(log('existing-user notice'));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, url }) => {
        await d.mailer.send(linkMail({
          to: user.email,
          subject: 'Verify your email for Mailvet',
          intro: `Hi ${user.name || 'there'}, confirm your email address to activate your Mailvet account and your 500 free validations.`,
          cta: 'Verify my email',
          url,
        }));
      },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await provisionAccount(d.db, user).catch(log('provision account'));
          },
        },
      },
    },
    rateLimit: { enabled: d.production, window: 60, max: 100 },
    advanced: { useSecureCookies: d.baseURL.startsWith('https://') },
    plugins: [
      organization({
        allowUserToCreateOrganization: false,
        sendInvitationEmail: async (data) => {
          await d.mailer.send(linkMail({
            to: data.email,
            subject: `You're invited to join ${data.organization.name} on Mailvet`,
            intro: `${data.inviter.user.name || data.inviter.user.email} invited you to join ${data.organization.name} as ${data.role}.`,
            cta: 'Accept the invitation',
            url: `${d.baseURL}/auth?invitation=${encodeURIComponent(data.id)}`,
          }));
        },
      }),
      twoFactor({ issuer: 'Mailvet' }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
