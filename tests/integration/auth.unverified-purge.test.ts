// A sign-up never verified (perhaps someone else's address, with a password of theirs) is deleted after
// a week (the daily unverified-purge cron), so the address's owner signing up later gets an account of
// their own; verified users, younger sign-ups and anything holding data are never touched.
import { describe, expect, it } from 'vitest';
import { purgeUnverifiedSignUps, UNVERIFIED_SIGN_UP_DAYS } from '../../server/features/account/unverified-purge';
import { Browserless, signUpVerified, testServer, verificationLink } from '../helpers/test-server';

const ts = testServer();
const db = () => ts.testDb.db;
const DAY = 86_400_000;

async function signUp(email: string, name: string, password: string): Promise<Browserless> {
  const c = new Browserless(ts.url);
  const res = await c.request('/api/auth/sign-up/email', { json: { name, email, password, callbackURL: '/dashboard' } });
  expect(res.status).toBe(200);
  return c;
}
const userOf = (email: string) => db().selectFrom('user').select(['id', 'name', 'emailVerified']).where('email', '=', email).executeTakeFirst();
const accountOf = async (email: string) => (await db().selectFrom('member').select('organizationId').where('userId', '=', (await userOf(email))!.id).executeTakeFirstOrThrow()).organizationId;
const age = async (email: string, days: number) => db().updateTable('user').set({ createdAt: new Date(Date.now() - days * DAY) }).where('email', '=', email).execute();
const mailsTo = async (email: string) => (await db().selectFrom('dev_outbox').select('subject').where('to', '=', email).orderBy('id').execute()).map((m) => m.subject);

describe('sign-ups never verified', () => {
  it(`are deleted after ${UNVERIFIED_SIGN_UP_DAYS} days: the address's owner then signs up, verifies and works under their own name and password`, async () => {
    const email = 'squatted-owner@example.com';
    await signUp(email, 'Mallory', 'squatter-pw');
    const squatted = await accountOf(email);
    const squatter = (await userOf(email))!.id;
    await age(email, UNVERIFIED_SIGN_UP_DAYS + 1);
    expect(await purgeUnverifiedSignUps(db(), new Date())).toBeGreaterThanOrEqual(1);
    expect(await userOf(email)).toBeUndefined();
    expect(await db().selectFrom('organization').select('id').where('id', '=', squatted).executeTakeFirst()).toBeUndefined();
    expect(await db().selectFrom('audit_log').select(['action', 'actor']).where('target_id', '=', squatter).execute()).toEqual([{ action: 'user.purged_unverified', actor: 'system' }]);
    // The owner signs up: a verification mail, not "someone tried to sign up with your email".
    const before = (await mailsTo(email)).length;
    const owner = await signUp(email, 'Alice Owner', 'owner-pw-1');
    expect((await mailsTo(email)).slice(before)).toEqual(['Verify your email for Mailvet']);
    expect((await owner.request(await verificationLink(ts, email))).status).toBeLessThan(400);
    const me = await owner.trpcQuery('account.me');
    expect(me.status).toBe(200);
    expect((await userOf(email))?.name).toBe('Alice Owner');
    // The stranger's sign-up never had the free credits: the owner's verified address gets them.
    expect((await db().selectFrom('account').select('credits_balance').where('id', '=', await accountOf(email)).executeTakeFirstOrThrow()).credits_balance).toBe(500);
    // The stranger's password opens nothing.
    const stranger = await new Browserless(ts.url).request('/api/auth/sign-in/email', { json: { email, password: 'squatter-pw' } });
    expect(stranger.status).toBe(401);
  });

  it('keeps younger sign-ups, verified users however old, and an unverified one that holds credits or a seat elsewhere', async () => {
    await signUp('young-unverified@example.com', 'Young', 'young-pw-1');
    await age('young-unverified@example.com', UNVERIFIED_SIGN_UP_DAYS - 1);
    await signUpVerified(ts, { email: 'old-verified@example.com' });
    await age('old-verified@example.com', 365);
    await signUp('holds-credits@example.com', 'Credits', 'credits-pw-1');
    await age('holds-credits@example.com', 30);
    await db().updateTable('account').set({ credits_balance: 25 }).where('id', '=', await accountOf('holds-credits@example.com')).execute();
    await signUp('holds-seat@example.com', 'Seat', 'seat-pw-1');
    await age('holds-seat@example.com', 30);
    await db()
      .insertInto('member')
      .values({ id: 'purge-test-seat', organizationId: await accountOf('old-verified@example.com'), userId: (await userOf('holds-seat@example.com'))!.id, role: 'member', createdAt: new Date() })
      .execute();
    await purgeUnverifiedSignUps(db(), new Date());
    for (const email of ['young-unverified@example.com', 'old-verified@example.com', 'holds-credits@example.com', 'holds-seat@example.com']) {
      expect(await userOf(email), email).toBeDefined();
    }
    // A week later the young one goes too.
    await purgeUnverifiedSignUps(db(), new Date(Date.now() + 2 * DAY));
    expect(await userOf('young-unverified@example.com')).toBeUndefined();
    expect(await userOf('old-verified@example.com')).toBeDefined();
  });
});
