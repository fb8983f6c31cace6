// What an owner who suspects someone else has their password can count on: choosing a new one (by
// reset link or Change Password) ends everything the old password had opened or half-opened.
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { describe, expect, it } from 'vitest';
import { Browserless, signUpVerified, testServer } from '../helpers/test-server';

const ts = testServer();
const db = () => ts.testDb.db;

async function me(c: Browserless) {
  const res = await c.trpcQuery('account.me');
  return res.status === 200 ? res.body.result.data : null;
}

async function signIn(email: string, password: string): Promise<{ client: Browserless; status: number; body: any }> {
  const client = new Browserless(ts.url);
  const res = await client.request('/api/auth/sign-in/email', { json: { email, password } });
  return { client, status: res.status, body: await res.json() };
}

/** Signs up, turns two-factor on; returns the signed-in browser and the authenticator. */
async function withTwoFactor(email: string, password: string) {
  const c = await signUpVerified(ts, { email, password });
  const enable = await c.request('/api/auth/two-factor/enable', { json: { password } });
  const { totpURI } = (await enable.json()) as { totpURI: string };
  const otp = createOTP(base32.decode(new URL(totpURI).searchParams.get('secret')!));
  const step = Math.floor(Date.now() / 30_000);
  expect((await c.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step - 1) } })).status).toBe(200);
  return { c, otp, step };
}

async function resetToken(email: string): Promise<string> {
  const visitor = new Browserless(ts.url);
  expect((await visitor.request('/api/auth/request-password-reset', { json: { email, redirectTo: '/auth?step=reset' } })).status).toBe(200);
  let text: string | undefined;
  await expect
    .poll(async () => {
      text = (await db().selectFrom('dev_outbox').select('text').where('to', '=', email).where('subject', '=', 'Reset your Mailvet password').orderBy('id', 'desc').executeTakeFirst())?.text;
      return text;
    })
    .toBeDefined();
  const follow = await visitor.request(text!.match(/https?:\/\/\S+reset-password\S+/)![0]);
  return new URL(follow.headers.get('location')!, ts.url).searchParams.get('token')!;
}

describe('a new password ends what the old one started', () => {
  it('a password reset ends a two-factor sign-in left at the code step: the code no longer signs it in', async () => {
    const email = 'pending-2fa-reset@example.com';
    const { otp, step } = await withTwoFactor(email, 'leaked-secret');
    // Someone with the leaked password is at the code step (phishing the code, or waiting for one).
    const thief = await signIn(email, 'leaked-secret');
    expect(thief.body.twoFactorRedirect).toBe(true);
    // The owner resets the password through the mailbox.
    const token = await resetToken(email);
    expect((await new Browserless(ts.url).request('/api/auth/reset-password', { json: { token, newPassword: 'fresh-secret' } })).status).toBe(200);
    // A code (or a backup code) the thief gets hold of afterwards signs nothing in.
    const late = await thief.client.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step) } });
    expect(late.status).toBe(401);
    expect(await me(thief.client)).toBeNull();
    const user = await db().selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    expect(await db().selectFrom('session').select('id').where('userId', '=', user.id).execute()).toEqual([]);
    // The owner signs in with the new password and a code.
    const owner = await signIn(email, 'fresh-secret');
    expect(owner.body.twoFactorRedirect).toBe(true);
    expect((await owner.client.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step + 1) } })).status).toBe(200);
    expect((await me(owner.client))?.user.email).toBe(email);
  });

  it('a reset link ends every other reset link of the account, and so does Change Password: a link left in the mailbox changes nothing afterwards', async () => {
    const email = 'two-links@example.com';
    const c = await signUpVerified(ts, { email, password: 'first-secret' });
    const older = await resetToken(email);
    const used = await resetToken(email);
    expect(used).not.toBe(older);
    expect((await new Browserless(ts.url).request('/api/auth/reset-password', { json: { token: used, newPassword: 'second-secret' } })).status).toBe(200);
    // Someone who reads the older mail later (a forwarded inbox, a shared device) cannot choose the password with it.
    const late = await new Browserless(ts.url).request('/api/auth/reset-password', { json: { token: older, newPassword: 'intruder-secret' } });
    expect(late.status).toBe(400);
    expect((await signIn(email, 'second-secret')).status).toBe(200);

    const pending = await resetToken(email);
    const owner = await signIn(email, 'second-secret');
    expect((await owner.client.request('/api/auth/change-password', { json: { currentPassword: 'second-secret', newPassword: 'third-secret', revokeOtherSessions: true } })).status).toBe(200);
    expect((await new Browserless(ts.url).request('/api/auth/reset-password', { json: { token: pending, newPassword: 'intruder-secret' } })).status).toBe(400);
    expect((await signIn(email, 'third-secret')).status).toBe(200);
    void c;
  });

  it('Change Password ends a two-factor sign-in left at the code step', async () => {
    const email = 'pending-2fa-change@example.com';
    const { c, otp, step } = await withTwoFactor(email, 'leaked-secret');
    const thief = await signIn(email, 'leaked-secret');
    expect(thief.body.twoFactorRedirect).toBe(true);
    expect((await c.request('/api/auth/change-password', { json: { currentPassword: 'leaked-secret', newPassword: 'fresh-secret', revokeOtherSessions: true } })).status).toBe(200);
    expect((await thief.client.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step) } })).status).toBe(401);
    expect(await me(thief.client)).toBeNull();
    expect((await me(c))?.user.email).toBe(email);
  });

  it('Change Password always signs every other browser out, even when the call asks to keep them (revokeOtherSessions false or left out)', async () => {
    for (const [i, flag] of [false, undefined].entries()) {
      const email = `change-keeps-${i}@example.com`;
      const owner = await signUpVerified(ts, { email, password: 'leaked-secret' });
      const thief = await signIn(email, 'leaked-secret');
      expect(await me(thief.client)).not.toBeNull();
      const body = { currentPassword: 'leaked-secret', newPassword: 'fresh-secret', ...(flag === undefined ? {} : { revokeOtherSessions: flag }) };
      const res = await owner.request('/api/auth/change-password', { json: body });
      expect(res.status).toBe(200);
      expect(await me(thief.client), `revokeOtherSessions ${String(flag)}`).toBeNull();
      // The browser that changed it stays signed in, on a new session.
      expect((await me(owner))?.user.email).toBe(email);
      const user = await db().selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      expect(await db().selectFrom('session').select('id').where('userId', '=', user.id).execute()).toHaveLength(1);
    }
  });
});

describe('an address someone else signed up (never activated)', () => {
  async function lastMail(to: string, subject: string): Promise<string> {
    let text: string | undefined;
    await expect
      .poll(async () => {
        text = (await db().selectFrom('dev_outbox').select('text').where('to', '=', to).where('subject', '=', subject).orderBy('id', 'desc').executeTakeFirst())?.text;
        return text;
      })
      .toBeDefined();
    return text!;
  }

  it("its verification mail tells the address's owner that ignoring it leaves the account inactive, and deleted after 7 days", async () => {
    const email = 'squat-mail@example.com';
    await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name: 'Squatter', email, password: 'squatter-pass', callbackURL: '/dashboard' } });
    const text = await lastMail(email, 'Verify your email for Mailvet');
    expect(text).toContain("If you didn't sign up for Mailvet, ignore this email: without this link the account stays inactive, nobody can sign in to it, and it is deleted after 7 days.");
  });

  it("its verification mail carries no words of the squatter's: a name holding a link or a message is not echoed to the address", async () => {
    const email = 'squat-words@example.com';
    const name = 'Security team: your mailbox is suspended, restore it at https://evil.example/login';
    expect((await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name, email, password: 'squatter-pass', callbackURL: '/dashboard' } })).status).toBe(200);
    await lastMail(email, 'Verify your email for Mailvet');
    const mail = await db().selectFrom('dev_outbox').select(['text', 'html']).where('to', '=', email).where('subject', '=', 'Verify your email for Mailvet').executeTakeFirstOrThrow();
    for (const part of [mail.text, mail.html]) {
      expect(part ?? '').not.toContain('evil.example');
      expect(part ?? '').not.toContain('suspended');
    }
    expect(mail.text).toContain('confirm your email address to activate your Mailvet account');
  });

  it('its owner makes it theirs with one password reset: signed in at once with the new password, the free credits theirs, the squatter out', async () => {
    const email = 'squat-owner@example.com';
    const squatter = new Browserless(ts.url);
    await squatter.request('/api/auth/sign-up/email', { json: { name: 'Squatter', email, password: 'squatter-pass', callbackURL: '/dashboard' } });
    // The owner tries to sign up: the answer is the one a new address gets; the mail says what to do.
    const up = await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name: 'Owner', email, password: 'owner-pass', callbackURL: '/dashboard' } });
    expect(up.status).toBe(200);
    expect(await lastMail(email, 'Someone tried to sign up with your email')).toContain(`${ts.url}/auth?step=forgot`);
    // Signing in with their own password is refused like any wrong password (nothing tells a stranger the address is taken).
    const wrong = await new Browserless(ts.url).request('/api/auth/sign-in/email', { json: { email, password: 'owner-pass' } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { message: string }).message).toMatch(/invalid email or password/i);

    const token = await resetToken(email);
    expect((await new Browserless(ts.url).request('/api/auth/reset-password', { json: { token, newPassword: 'owner-new-pass' } })).status).toBe(200);
    // The reset came through the mailbox: the address is verified, so the new password signs in (no second mail to follow).
    const owner = await signIn(email, 'owner-new-pass');
    expect(owner.status).toBe(200);
    expect(await me(owner.client)).toMatchObject({ user: { email }, credits_balance: 500 });
    // The squatter's password, and the browser they signed up in, reach nothing.
    expect((await signIn(email, 'squatter-pass')).status).toBe(401);
    expect(await me(squatter)).toBeNull();
  });
});

describe('the session token stays in its HttpOnly cookie', () => {
  it('no answer a script can read carries it: sign-in, the session read, a two-factor code, Change Password', async () => {
    const email = 'token-hidden@example.com';
    const { c, otp, step } = await withTwoFactor(email, 'hidden-secret');
    const tokenOf = (b: Browserless) => decodeURIComponent([...b.cookies].find(([k]) => k.endsWith('session_token'))?.[1] ?? '').split('.')[0]!;
    const readable: Array<[string, string, string]> = [];
    const session = await c.request('/api/auth/get-session');
    readable.push(['get-session', await session.text(), tokenOf(c)]);
    const pending = await signIn(email, 'hidden-secret');
    const code = await pending.client.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step) } });
    expect(code.status).toBe(200);
    readable.push(['verify-totp', await code.text(), tokenOf(pending.client)]);
    const change = await pending.client.request('/api/auth/change-password', { json: { currentPassword: 'hidden-secret', newPassword: 'hidden-secret-2', revokeOtherSessions: true } });
    expect(change.status).toBe(200);
    readable.push(['change-password', await change.text(), tokenOf(pending.client)]);
    await pending.client.request('/api/auth/two-factor/disable', { json: { password: 'hidden-secret-2' } });
    const plain = new Browserless(ts.url);
    const res = await plain.request('/api/auth/sign-in/email', { json: { email, password: 'hidden-secret-2' } });
    expect(res.status).toBe(200);
    readable.push(['sign-in', await res.text(), tokenOf(plain)]);
    for (const [route, body, token] of readable) {
      expect(token.length, route).toBeGreaterThan(10);
      expect(body, route).not.toContain(token);
    }
    // The cookie still signs in.
    expect((await me(plain))?.user.email).toBe(email);
    expect(((await (await plain.request('/api/auth/get-session')).json()) as { user: { email: string } }).user.email).toBe(email);
  });
});

describe('the owner hears of every change to how the account is signed in to', () => {
  const notices = async (email: string) =>
    (await db().selectFrom('dev_outbox').select(['subject', 'text']).where('to', '=', email).orderBy('id', 'asc').execute()).filter((m) => /changed|turned o(n|ff)/.test(m.subject));

  it('a new password (Change Password or a reset) and two-factor turned on or off are each mailed to the address, with the way back', async () => {
    const email = 'told@example.com';
    const { c } = await withTwoFactor(email, 'first-secret');
    expect((await c.request('/api/auth/two-factor/disable', { json: { password: 'first-secret' } })).status).toBe(200);
    expect((await c.request('/api/auth/change-password', { json: { currentPassword: 'first-secret', newPassword: 'second-secret', revokeOtherSessions: true } })).status).toBe(200);
    const token = await resetToken(email);
    expect((await new Browserless(ts.url).request('/api/auth/reset-password', { json: { token, newPassword: 'third-secret' } })).status).toBe(200);
    await expect.poll(async () => (await notices(email)).map((m) => m.subject)).toEqual([
      // Turned on by someone else (a stolen session and the password), it would lock the owner out.
      'Two-factor authentication was turned on for your Mailvet account',
      'Two-factor authentication was turned off for your Mailvet account',
      'Your Mailvet password was changed',
      'Your Mailvet password was changed',
    ]);
    expect((await notices(email))[0]!.text).toContain('Then write to support@mailvet.io: signing in will ask for a code only they have.');
    for (const m of await notices(email)) {
      expect(m.text).toContain("If this wasn't you, choose a new password now: that signs everybody else out.");
      expect(m.text).toContain(`${ts.url}/auth?step=forgot`);
    }
    // A wrong password changes nothing and tells nobody anything.
    const c2 = await signIn(email, 'third-secret');
    expect((await c2.client.request('/api/auth/change-password', { json: { currentPassword: 'wrong-secret', newPassword: 'fourth-secret' } })).status).toBe(400);
    expect(await notices(email)).toHaveLength(4);
  });
});

describe('what a signed-in browser is answered stays out of caches', () => {
  it('the dashboard API, sign-in and the session read are marked no-store (a shared computer keeps none of them on disk after sign-out)', async () => {
    const c = await signUpVerified(ts, { email: 'no-store@example.com', password: 'no-store-pass' });
    const answers = [
      ['GET account.me', await c.request('/api/trpc/account.me')],
      ['GET apiKeys.webhookSecret', await c.request('/api/trpc/apiKeys.webhookSecret')],
      ['POST profile.update', await c.request('/api/trpc/account.profile.update', { method: 'POST', json: { full_name: 'No Store', company_name: '' } })],
      ['GET get-session', await c.request('/api/auth/get-session')],
      ['POST sign-in', await new Browserless(ts.url).request('/api/auth/sign-in/email', { json: { email: 'no-store@example.com', password: 'no-store-pass' } })],
    ] as const;
    for (const [what, res] of answers) expect(res.headers.get('cache-control') ?? '', what).toContain('no-store');
  });
});
