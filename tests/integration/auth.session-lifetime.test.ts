// A session ends 30 days after its sign-in, however often it is used: a stolen cookie that is used
// every day (so never idle for the 7 days that end a session) does not sign its holder in for ever.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Browserless, signUpVerified, testServer } from '../helpers/test-server';

const ts = testServer();
const db = () => ts.testDb.db;
const COOKIE = 'better-auth.session_token';
const DAY = 86_400_000;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const digestOf = (c: Browserless) => sha256(decodeURIComponent(c.cookies.get(COOKIE) ?? '').split('.')[0]!);

async function whoIs(c: Browserless): Promise<string | null> {
  const res = await c.trpcQuery('account.me');
  return res.status === 200 ? res.body.result.data.user.email : null;
}

async function signIn(email: string): Promise<Browserless> {
  const c = new Browserless(ts.url);
  expect((await c.request('/api/auth/sign-in/email', { json: { email, password: 'secret123' } })).status).toBe(200);
  return c;
}

/** Makes the browser's session as if signed in `ageDays` ago and used every day since (last refreshed two days ago). */
async function age(c: Browserless, ageDays: number): Promise<void> {
  await db()
    .updateTable('session')
    .set({ createdAt: new Date(Date.now() - ageDays * DAY), updatedAt: new Date(Date.now() - 2 * DAY), expiresAt: new Date(Date.now() + 5 * DAY) })
    .where('token', '=', digestOf(c))
    .execute();
}

describe('a session has an absolute lifetime of 30 days', () => {
  it('a session signed in 31 days ago and used daily signs nobody in any more, on the app and on /api/auth, and is deleted', async () => {
    const email = 'daily-user@example.com';
    await signUpVerified(ts, { email });
    const stolen = await signIn(email);
    expect(await whoIs(stolen)).toBe(email);
    await age(stolen, 31);
    expect(await whoIs(stolen)).toBeNull();
    expect(await (await stolen.request('/api/auth/get-session')).json()).toBeNull();
    expect(await db().selectFrom('session').select('id').where('token', '=', digestOf(stolen)).executeTakeFirst()).toBeUndefined();
    // The owner signs in again as usual.
    expect(await whoIs(await signIn(email))).toBe(email);
  });

  it('a session 29 days old is refreshed only up to its 30th day, and a newer one of the same user is not cut short', async () => {
    const email = 'near-the-end@example.com';
    await signUpVerified(ts, { email });
    const old = await signIn(email);
    const fresh = await signIn(email);
    await age(old, 29);
    expect(await whoIs(old)).toBe(email);
    const row = await db().selectFrom('session').select(['createdAt', 'expiresAt']).where('token', '=', digestOf(old)).executeTakeFirstOrThrow();
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(row.createdAt.getTime() + 30 * DAY);
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now() + 0.5 * DAY);
    // The other session, signed in today, keeps its full week.
    expect(await whoIs(fresh)).toBe(email);
    const other = await db().selectFrom('session').select('expiresAt').where('token', '=', digestOf(fresh)).executeTakeFirstOrThrow();
    expect(other.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * DAY);
  });
});
