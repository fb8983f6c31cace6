// Settings: the profile (email read-only; full name and company saved), change password, TOTP
// two-factor end to end (enable, sign in with the code, disable), and deleting the account.
import crypto from 'node:crypto';
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

/** The current TOTP code for an otpauth:// URI (the secret is Base32 in the URI, raw bytes to the HMAC). */
async function totpFromUri(uri: string, stepOffset = 0): Promise<string> {
  const secret = new URL(uri).searchParams.get('secret');
  if (!secret) throw new Error('no secret in the TOTP URI');
  const otp = createOTP(base32.decode(secret));
  return stepOffset === 0 ? otp.totp() : otp.hotp(Math.floor(Date.now() / 30_000) + stepOffset);
}

describe('profile', () => {
  it('reads the email, full name and company; saves name and company; keeps the email read-only', async () => {
    const c = await signUpVerified(ts, { email: 'profile@example.com', name: 'Katherine Johnson' });
    const before = (await c.trpcQuery('account.profile.get')).body.result.data;
    expect(before).toEqual({ email: 'profile@example.com', full_name: 'Katherine Johnson', company_name: '', two_factor_enabled: false });

    const res = await c.trpcMutation('account.profile.update', { full_name: '  Katherine G. Johnson ', company_name: 'NASA Langley', email: 'hijack@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toMatchObject({ email: 'profile@example.com', full_name: 'Katherine G. Johnson', company_name: 'NASA Langley' });
    const user = await db().selectFrom('user').select(['email', 'name']).where('email', '=', 'profile@example.com').executeTakeFirstOrThrow();
    expect(user).toEqual({ email: 'profile@example.com', name: 'Katherine G. Johnson' });
    const audit = await db().selectFrom('audit_log').select(['action']).where('action', '=', 'profile.updated').execute();
    expect(audit).toHaveLength(1);
  });

  it('refuses an empty name, control characters and over-long values with 400 and changes nothing', async () => {
    const c = await signUpVerified(ts, { email: 'profile-bad@example.com', name: 'Dorothy Vaughan' });
    for (const input of [
      { full_name: '   ', company_name: '' },
      { full_name: 'Dorothy\r\nBcc: x', company_name: '' },
      { full_name: 'Dorothy', company_name: 'x'.repeat(201) },
      { full_name: 'x'.repeat(10_000), company_name: '' },
      { full_name: 42, company_name: '' },
    ]) {
      const res = await c.trpcMutation('account.profile.update', input);
      expect(res.status, JSON.stringify(input).slice(0, 50)).toBe(400);
    }
    // A body past the account calls' limit (64 KB) is refused before it is read in full.
    const huge = await c.trpcMutation('account.profile.update', { full_name: 'x'.repeat(100_000), company_name: '' });
    expect(huge.status).toBe(413);
    expect((await c.trpcQuery('account.profile.get')).body.result.data).toMatchObject({ full_name: 'Dorothy Vaughan', company_name: '' });
  });
});

describe('change password', () => {
  it('needs the current password, then only the new one works and other sessions end', async () => {
    const c = await signUpVerified(ts, { email: 'pw-change@example.com', password: 'old-secret' });
    const other = await signIn('pw-change@example.com', 'old-secret');
    expect(other.status).toBe(200);

    const wrong = await c.request('/api/auth/change-password', { json: { currentPassword: 'not-it', newPassword: 'new-secret', revokeOtherSessions: true } });
    expect(wrong.status).toBe(400);
    const ok = await c.request('/api/auth/change-password', { json: { currentPassword: 'old-secret', newPassword: 'new-secret', revokeOtherSessions: true } });
    expect(ok.status).toBe(200);

    expect(await me(c)).not.toBeNull();
    expect(await me(other.client)).toBeNull();
    expect((await signIn('pw-change@example.com', 'old-secret')).status).toBe(401);
    expect((await signIn('pw-change@example.com', 'new-secret')).status).toBe(200);
  });

  it('cannot be used to guess the password with a stolen session: wrong current passwords (here, for 2FA, for Delete Account) count together, 5 an hour', async () => {
    const c = await signUpVerified(ts, { email: 'pw-guess@example.com', password: 'right-secret' });
    for (let i = 0; i < 3; i++) {
      expect((await c.request('/api/auth/change-password', { json: { currentPassword: `guess-${i}`, newPassword: 'taken-over' } })).status).toBe(400);
    }
    expect((await c.request('/api/auth/two-factor/enable', { json: { password: 'guess-3' } })).status).toBe(400);
    expect((await c.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'guess-4' })).status).toBe(400);

    const right = await c.request('/api/auth/change-password', { json: { currentPassword: 'right-secret', newPassword: 'taken-over' } });
    expect(right.status).toBe(429);
    expect(((await right.json()) as { message: string }).message).toBe('Too many wrong passwords. Try again in an hour.');
    expect((await c.request('/api/auth/two-factor/enable', { json: { password: 'right-secret' } })).status).toBe(429);
    expect((await signIn('pw-guess@example.com', 'taken-over')).status).toBe(401);
    expect((await signIn('pw-guess@example.com', 'right-secret')).status).toBe(200);
  });
});

describe('two-factor authentication (TOTP)', () => {
  it('is enabled with the password and a code, then sign-in asks for the code; it can be disabled again', async () => {
    const email = 'totp@example.com';
    const c = await signUpVerified(ts, { email, password: 'totp-secret' });

    const badPw = await c.request('/api/auth/two-factor/enable', { json: { password: 'wrong' } });
    expect(badPw.status).toBe(400);
    const enable = await c.request('/api/auth/two-factor/enable', { json: { password: 'totp-secret' } });
    expect(enable.status).toBe(200);
    const { totpURI, backupCodes } = (await enable.json()) as { totpURI: string; backupCodes: string[] };
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Mailvet:totp%40example\.com\?/);
    expect(backupCodes.length).toBeGreaterThanOrEqual(8);
    // Not on until a code proves the authenticator has the secret.
    expect((await c.trpcQuery('account.profile.get')).body.result.data.two_factor_enabled).toBe(false);

    const wrongCode = await c.request('/api/auth/two-factor/verify-totp', { json: { code: '000000' === (await totpFromUri(totpURI)) ? '111111' : '000000' } });
    expect(wrongCode.status).toBe(401);
    const verify = await c.request('/api/auth/two-factor/verify-totp', { json: { code: await totpFromUri(totpURI) } });
    expect(verify.status).toBe(200);
    expect((await c.trpcQuery('account.profile.get')).body.result.data.two_factor_enabled).toBe(true);

    // Password alone no longer signs in: the server asks for the second factor.
    const first = await signIn(email, 'totp-secret');
    expect(first.status).toBe(200);
    expect(first.body.twoFactorRedirect).toBe(true);
    expect(await me(first.client)).toBeNull();
    const second = await first.client.request('/api/auth/two-factor/verify-totp', { json: { code: await totpFromUri(totpURI, 1) } });
    expect(second.status).toBe(200);
    expect((await me(first.client))?.user.email).toBe(email);

    // A backup code works in place of the app.
    const viaBackup = await signIn(email, 'totp-secret');
    const backup = await viaBackup.client.request('/api/auth/two-factor/verify-backup-code', { json: { code: backupCodes[0] } });
    expect(backup.status).toBe(200);
    expect(await me(viaBackup.client)).not.toBeNull();

    const disable = await c.request('/api/auth/two-factor/disable', { json: { password: 'totp-secret' } });
    expect(disable.status).toBe(200);
    const plain = await signIn(email, 'totp-secret');
    expect(plain.body.twoFactorRedirect).toBeUndefined();
    expect(await me(plain.client)).not.toBeNull();
  });

  /** Signs up and turns two-factor on with the code of `step`; returns the authenticator. */
  async function withTwoFactor(email: string, password: string, step: number) {
    const c = await signUpVerified(ts, { email, password });
    const enable = await c.request('/api/auth/two-factor/enable', { json: { password } });
    const { totpURI } = (await enable.json()) as { totpURI: string };
    const otp = createOTP(base32.decode(new URL(totpURI).searchParams.get('secret')!));
    expect((await c.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step) } })).status).toBe(200);
    const user = await db().selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    return { otp, userId: user.id };
  }

  it('takes each code once: a code that signed in is refused a second time, even in parallel, and a new code signs in', async () => {
    const email = 'totp-replay@example.com';
    const step = Math.floor(Date.now() / 30_000);
    const { otp } = await withTwoFactor(email, 'replay-secret', step);
    const code = await otp.hotp(step + 1);

    const first = await signIn(email, 'replay-secret');
    expect((await first.client.request('/api/auth/two-factor/verify-totp', { json: { code } })).status).toBe(200);
    expect(await me(first.client)).not.toBeNull();

    // Someone who saw that code (over a shoulder, in a screen share, through a phishing page) and knows the password.
    const replay = await signIn(email, 'replay-secret');
    expect(replay.body.twoFactorRedirect).toBe(true);
    const again = await replay.client.request('/api/auth/two-factor/verify-totp', { json: { code } });
    expect(again.status).toBe(401);
    expect(((await again.json()) as { message: string }).message).toBe('This code was already used. Wait for the next code from your authenticator app.');
    expect(await me(replay.client)).toBeNull();
    // The code that turned two-factor on is spent too.
    expect((await replay.client.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step) } })).status).toBe(401);
    expect(await me(replay.client)).toBeNull();

    // Two sign-ins racing with one fresh code: one gets in. A second account, so the code can be the next
    // step's (accepted for 30–60 s more) whatever the clock did above; the first account's steps left
    // unspent may be the one before, which the next tick of the clock ends (CI saw both racers refused).
    const racerEmail = 'totp-race@example.com';
    const now = Math.floor(Date.now() / 30_000);
    const racer = await withTwoFactor(racerEmail, 'race-secret', now);
    const fresh = await racer.otp.hotp(now + 1);
    const racers = [await signIn(racerEmail, 'race-secret'), await signIn(racerEmail, 'race-secret')];
    const answers = await Promise.all(racers.map((r) => r.client.request('/api/auth/two-factor/verify-totp', { json: { code: fresh } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);

    // A code that was never right is refused too.
    const owner = await signIn(racerEmail, 'race-secret');
    const wrong = fresh === '000000' ? '111111' : '000000';
    expect((await owner.client.request('/api/auth/two-factor/verify-totp', { json: { code: wrong } })).status).toBe(401);
  });

  it('never trusts a device: a code sent with trustDevice is refused, and a trust cookie from before is ignored (the password alone never signs in)', async () => {
    const email = 'totp-trust@example.com';
    const step = Math.floor(Date.now() / 30_000);
    const { otp, userId } = await withTwoFactor(email, 'trust-secret', step);

    const pending = await signIn(email, 'trust-secret');
    const trusting = await pending.client.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step + 1), trustDevice: true } });
    expect(trusting.status).toBe(400);
    expect(((await trusting.json()) as { message: string }).message).toBe('Trusting a device is not offered: enter a code from your authenticator app each time you sign in.');
    expect(trusting.headers.getSetCookie().some((c) => c.includes('trust_device='))).toBe(false);
    expect((await pending.client.request('/api/auth/two-factor/verify-backup-code', { json: { code: 'anything', trustDevice: true } })).status).toBe(400);
    // The same code without the flag signs in (the refused request spent nothing).
    expect((await pending.client.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step + 1) } })).status).toBe(200);

    // A trust cookie an earlier version handed out (minted here as better-auth does) no longer skips the code.
    const { secret, internalAdapter } = await ts.server.deps.auth.$context;
    const identifier = `trust-device-${crypto.randomBytes(16).toString('hex')}`;
    await internalAdapter.createVerificationValue({ value: userId, identifier, expiresAt: new Date(Date.now() + 86_400_000) });
    const token = crypto.createHmac('sha256', secret).update(`${userId}!${identifier}`).digest('base64url');
    const value = `${token}!${identifier}`;
    const signature = crypto.createHmac('sha256', secret).update(value).digest('base64');
    const trusted = new Browserless(ts.url);
    trusted.cookies.set('better-auth.trust_device', encodeURIComponent(`${value}.${signature}`));
    const res = await trusted.request('/api/auth/sign-in/email', { json: { email, password: 'trust-secret' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(true);
    expect(await me(trusted)).toBeNull();
  });
});

describe('account.deleteAccount', () => {
  const count = async (table: 'user' | 'organization' | 'account' | 'member' | 'profile' | 'session' | 'validation_result', where?: [string, string]) => {
    let q = db().selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (where) q = q.where(where[0] as never, '=', where[1] as never);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  it('needs the typed confirmation and the right password, and deletes nothing otherwise', async () => {
    const c = await signUpVerified(ts, { email: 'keep-me@example.com', password: 'keep-secret' });
    const who = await me(c);
    for (const input of [{ confirmation: 'delete', password: 'keep-secret' }, { confirmation: '', password: 'keep-secret' }, { confirmation: 'DELETE', password: 'wrong' }, { confirmation: 'DELETE', password: '' }]) {
      const res = await c.trpcMutation('account.deleteAccount', input);
      expect(res.status, JSON.stringify(input)).toBe(400);
    }
    expect(await count('user', ['id', who.user.id])).toBe(1);
    expect(await count('account', ['id', who.accountId])).toBe(1);
    expect(await me(c)).not.toBeNull();
  });

  it('cannot be used to guess the password: after 5 wrong ones in an hour even the right one is refused (429) and nothing is deleted', async () => {
    // Someone holding a stolen session must not be able to try passwords without end until one deletes the account.
    const c = await signUpVerified(ts, { email: 'guessed@example.com', password: 'right-secret' });
    const who = await me(c);
    for (let i = 0; i < 5; i++) {
      const res = await c.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: `guess-${i}` });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('That password is not correct.');
    }
    const right = await c.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'right-secret' });
    expect(right.status).toBe(429);
    expect(right.body.error.message).toBe('Too many wrong passwords. Try again in an hour.');
    expect(await count('user', ['id', who.user.id])).toBe(1);
    expect(await count('account', ['id', who.accountId])).toBe(1);
  });

  it("as the account's only owner removes the user, the account and everything in it, and ends the sessions", async () => {
    const c = await signUpVerified(ts, { email: 'owner-delete@example.com', password: 'gone-secret' });
    const who = await me(c);
    const other = await signIn('owner-delete@example.com', 'gone-secret');
    await db()
      .insertInto('validation_result')
      .values({
        account_id: who.accountId, job_id: null, created_by: who.user.id, email: 'x@example.com', result: 'valid', verdict: 'deliverable', reason: 'accepted',
        is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: true, deliverability_score: 90, role_detected: false, disposable_provider: false,
      })
      .execute();
    // A teammate: their own user and account survive; their seat in this account goes with it.
    const mate = await signUpVerified(ts, { email: 'teammate@example.com' });
    const mateWho = await me(mate);
    await db().insertInto('member').values({ id: `m-${Date.now()}`, organizationId: who.accountId, userId: mateWho.user.id, role: 'member', createdAt: new Date() }).execute();

    const res = await c.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'gone-secret' });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual({ deleted_accounts: 1 });

    expect(await count('user', ['id', who.user.id])).toBe(0);
    expect(await count('organization', ['id', who.accountId])).toBe(0);
    expect(await count('account', ['id', who.accountId])).toBe(0);
    expect(await count('member', ['organizationId', who.accountId])).toBe(0);
    expect(await count('validation_result', ['account_id', who.accountId])).toBe(0);
    expect(await count('profile', ['id', who.user.id])).toBe(0);
    expect(await count('session', ['userId', who.user.id])).toBe(0);
    expect(await me(c)).toBeNull();
    expect(await me(other.client)).toBeNull();
    expect((await signIn('owner-delete@example.com', 'gone-secret')).status).toBe(401);

    expect(await count('user', ['id', mateWho.user.id])).toBe(1);
    expect(await count('account', ['id', mateWho.accountId])).toBe(1);
    expect((await me(mate))?.accountId).toBe(mateWho.accountId);
    const audit = await db().selectFrom('audit_log').select(['action', 'target_id']).where('action', '=', 'user.deleted').execute();
    expect(audit).toContainEqual({ action: 'user.deleted', target_id: who.user.id });
  });

  it('as a member of an account someone else owns removes only their own seat there', async () => {
    const owner = await signUpVerified(ts, { email: 'team-owner@example.com' });
    const ownerWho = await me(owner);
    const member = await signUpVerified(ts, { email: 'leaving-member@example.com', password: 'leave-secret' });
    const memberWho = await me(member);
    await db().insertInto('member').values({ id: `m2-${Date.now()}`, organizationId: ownerWho.accountId, userId: memberWho.user.id, role: 'admin', createdAt: new Date() }).execute();

    const res = await member.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'leave-secret' });
    expect(res.status).toBe(200);
    expect(await count('user', ['id', memberWho.user.id])).toBe(0);
    expect(await count('account', ['id', ownerWho.accountId])).toBe(1);
    expect(await count('member', ['organizationId', ownerWho.accountId])).toBe(1);
    expect((await me(owner))?.accountId).toBe(ownerWho.accountId);
  });
});
