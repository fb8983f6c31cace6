// What a reader of the database (a backup, a replica, an injection elsewhere) finds in the session
// table: digests that sign nobody in, even with the server's secret to sign a cookie. Everything a
// session does still works: sign-in, refresh, sign-out, listing and revoking sessions (team.accept.test.ts: joining
// a team re-sets the cookie from the updated row).
import { createHash, createHmac } from 'node:crypto';
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { up as hashStoredSessionTokens } from '../../db/migrations/2026_11_24_21_40_00_hash_session_tokens';
import { Browserless, signUpVerified, testServer } from '../helpers/test-server';

const SECRET = 'session-hash-test-secret-0123456789abcdef';
const ts = testServer({ env: { BETTER_AUTH_SECRET: SECRET } });
const db = () => ts.testDb.db;
const COOKIE = 'better-auth.session_token';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The session token a browser's cookie carries (without its signature). */
const tokenOf = (c: Browserless) => decodeURIComponent(c.cookies.get(COOKIE) ?? '').split('.')[0]!;

/** A browser whose session cookie carries `token`, signed with the server's secret as better-auth signs it. */
function forged(token: string): Browserless {
  const b = new Browserless(ts.url);
  b.cookies.set(COOKIE, encodeURIComponent(`${token}.${createHmac('sha256', SECRET).update(token).digest('base64')}`));
  return b;
}

async function whoIs(c: Browserless): Promise<string | null> {
  const res = await c.trpcQuery('account.me');
  return res.status === 200 ? res.body.result.data.user.email : null;
}

async function signIn(email: string, password = 'secret123'): Promise<Browserless> {
  const c = new Browserless(ts.url);
  expect((await c.request('/api/auth/sign-in/email', { json: { email, password } })).status).toBe(200);
  return c;
}

const userId = async (email: string) => (await db().selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
const storedTokens = async (email: string) => (await db().selectFrom('session').select('token').where('userId', '=', await userId(email)).execute()).map((r) => r.token);
const headersOf = (c: Browserless) => new Headers({ cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), origin: ts.url });

describe('session tokens are stored hashed', () => {
  it('the session table holds only a digest of each token: a token read from it, signed with the server secret, signs nobody in', async () => {
    const email = 'dumped@example.com';
    const owner = await signUpVerified(ts, { email });
    const token = tokenOf(owner);
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    const stored = await storedTokens(email);
    expect(stored).toEqual([sha256(token)]);
    expect(stored).not.toContain(token);
    // Whoever read the table (and the secret, kept in DATA_DIR next to the embedded database) forges a cookie.
    expect(await whoIs(forged(stored[0]!))).toBeNull();
    expect(await whoIs(forged(`sha256:${stored[0]}`))).toBeNull();
    expect((await (await forged(stored[0]!).request('/api/auth/get-session')).json())).toBeNull();
    // The owner's own cookie still signs them in.
    expect(await whoIs(owner)).toBe(email);
    expect(await whoIs(forged(token))).toBe(email);
  });

  it('sign-in, a session refreshed after a day, and sign-out work on the digest', async () => {
    const email = 'refresh@example.com';
    await signUpVerified(ts, { email });
    const c = await signIn(email);
    const token = tokenOf(c);
    expect(await storedTokens(email)).toContain(sha256(token));
    // A day old, an hour left: the next request extends it and re-sets the browser's cookie from the row.
    const soon = new Date(Date.now() + 60 * 60_000);
    await db().updateTable('session').set({ expiresAt: soon, updatedAt: new Date(Date.now() - 2 * 86_400_000) }).where('token', '=', sha256(token)).execute();
    const session = await c.request('/api/auth/get-session');
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(email);
    const row = await db().selectFrom('session').select('expiresAt').where('token', '=', sha256(token)).executeTakeFirstOrThrow();
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(tokenOf(c)).toBe(token);
    expect(await whoIs(c)).toBe(email);
    // Sign-out deletes the row it names.
    expect((await c.request('/api/auth/sign-out', { method: 'POST', json: {} })).status).toBe(200);
    expect(await storedTokens(email)).not.toContain(sha256(token));
    expect(await whoIs(forged(token))).toBeNull();
  });

  it('listing a user’s sessions names none by a token that signs in; revoking one (own only), the others, or all works', async () => {
    const email = 'many-browsers@example.com';
    const first = await signUpVerified(ts, { email });
    const second = await signIn(email);
    const third = await signIn(email);
    const stranger = await signUpVerified(ts, { email: 'stranger-sessions@example.com' });
    const auth = ts.server.deps.auth;
    const listed = (await auth.api.listSessions({ headers: headersOf(first) })) as { token: string; userId: string }[];
    expect(listed).toHaveLength(3);
    const tokens = [first, second, third].map(tokenOf);
    for (const s of listed) {
      expect(tokens).not.toContain(s.token);
      expect(await whoIs(forged(s.token))).toBeNull();
    }
    const refOf = (c: Browserless) => listed.find((s) => s.token === `sha256:${sha256(tokenOf(c))}`)!.token;
    // Another user cannot revoke this user's session with its listed name.
    await auth.api.revokeSession({ headers: headersOf(stranger), body: { token: refOf(second) } });
    expect(await whoIs(second)).toBe(email);
    // The user revokes one listed session.
    await auth.api.revokeSession({ headers: headersOf(first), body: { token: refOf(second) } });
    expect(await whoIs(second)).toBeNull();
    expect(await whoIs(third)).toBe(email);
    // And by its token, as a browser knows its own.
    const fourth = await signIn(email);
    await auth.api.revokeSession({ headers: headersOf(first), body: { token: tokenOf(fourth) } });
    expect(await whoIs(fourth)).toBeNull();
    // Every other session.
    await auth.api.revokeOtherSessions({ headers: headersOf(first) });
    expect(await whoIs(third)).toBeNull();
    expect(await whoIs(first)).toBe(email);
    // Every session.
    await signIn(email);
    await auth.api.revokeSessions({ headers: headersOf(first) });
    expect(await storedTokens(email)).toEqual([]);
    expect(await whoIs(stranger)).toBe('stranger-sessions@example.com');
  });

  it('the migration hashes sessions stored before: their browsers stay signed in, the rows stop being tokens', async () => {
    const email = 'before-hashing@example.com';
    const c = await signUpVerified(ts, { email });
    const token = tokenOf(c);
    // The row as an older release stored it.
    await db().updateTable('session').set({ token }).where('token', '=', sha256(token)).execute();
    await hashStoredSessionTokens(db());
    await hashStoredSessionTokens(db()); // twice: rows already hashed are left alone
    expect(await storedTokens(email)).toEqual([sha256(token)]);
    expect(await whoIs(c)).toBe(email);
  });
});

describe('a sign-in waiting at the two-factor step is stored hashed too', () => {
  it('the verification row of a pending two-factor sign-in, signed as its cookie with the server secret, signs nobody in; the owner finishes signing in', async () => {
    const email = 'pending-2fa-dump@example.com';
    const c = await signUpVerified(ts, { email, password: 'pending-secret' });
    const enable = await c.request('/api/auth/two-factor/enable', { json: { password: 'pending-secret' } });
    const { totpURI } = (await enable.json()) as { totpURI: string };
    // The TOTP secret is stored encrypted under the server secret: whoever holds both computes the codes.
    const otp = createOTP(base32.decode(new URL(totpURI).searchParams.get('secret')!));
    const step = Math.floor(Date.now() / 30_000);
    expect((await c.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step - 1) } })).status).toBe(200);
    // The owner gives the password on another browser: a sign-in waits for the code.
    const owner = new Browserless(ts.url);
    expect(((await (await owner.request('/api/auth/sign-in/email', { json: { email, password: 'pending-secret' } })).json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(true);
    const rows = (await sql<{ identifier: string }>`select identifier from verification where value = ${await userId(email)}`.execute(db())).rows;
    expect(rows.length).toBeGreaterThan(0);
    // Whoever reads the table forges the two-factor cookie of each row and sends a good code.
    for (const { identifier } of rows) {
      const thief = new Browserless(ts.url);
      thief.cookies.set('better-auth.two_factor', encodeURIComponent(`${identifier}.${createHmac('sha256', SECRET).update(identifier).digest('base64')}`));
      expect((await thief.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step) } })).status).toBe(401);
      expect(await whoIs(thief)).toBeNull();
    }
    expect((await owner.request('/api/auth/two-factor/verify-totp', { json: { code: await otp.hotp(step + 1) } })).status).toBe(200);
    expect(await whoIs(owner)).toBe(email);
    // A new password ends a pending sign-in and its attempt counter, stored under these names.
    const pending = new Browserless(ts.url);
    await pending.request('/api/auth/sign-in/email', { json: { email, password: 'pending-secret' } });
    const twoFactorRows = async () => (await sql<{ identifier: string }>`select identifier from verification where identifier like 'two-factor-%'`.execute(db())).rows;
    expect((await twoFactorRows()).map((r) => r.identifier.split(':')[0]).sort()).toEqual(['two-factor-attempts-sha256', 'two-factor-sha256']);
    expect((await owner.request('/api/auth/change-password', { json: { currentPassword: 'pending-secret', newPassword: 'pending-secret-2' } })).status).toBe(200);
    expect(await twoFactorRows()).toEqual([]);
  });
});
