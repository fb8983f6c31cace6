// Free credits once per person; deleting never destroys what others own; removed members stop
// hearing the account's live events; the upload/export doors use the session's active account.
import { createHash } from 'node:crypto';
import { EventSource } from 'eventsource';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FREE_SIGNUP_CREDITS } from '../../server/contracts/plans';
import { mailboxDigest } from '../../server/features/account/email-key';
import { joinAs, ownerOn, setPlan } from '../helpers/accounts';
import { Browserless, signUpVerified, testServer, verificationLink } from '../helpers/test-server';
import { uploadCsv } from './jobs.world';

const ts = testServer({ env: { STORAGE_DIR: `.data/test/storage-lifecycle-${Date.now()}` } });

const db = () => ts.testDb.db;
const digest = (key: string) => createHash('sha256').update(key).digest('hex');

async function me(c: Browserless) {
  return c.trpcQuery('account.me');
}

async function deleteMe(c: Browserless, password = 'secret123') {
  const res = await c.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('free credits once per person', () => {
  it('grants 500 once: a new sign-up with the same mailbox (after deleting, with a +tag, or dotted at Gmail) starts at 0', async () => {
    const first = await signUpVerified(ts, { email: 'once@example.com' });
    expect((await me(first)).body.result.data.credits_balance).toBe(FREE_SIGNUP_CREDITS);
    await deleteMe(first);

    const again = await signUpVerified(ts, { email: 'once@example.com' });
    expect((await me(again)).body.result.data).toMatchObject({ plan: 'free', credits_balance: 0 });
    const tagged = await signUpVerified(ts, { email: 'once+second@example.com' });
    expect((await me(tagged)).body.result.data.credits_balance).toBe(0);

    const gmail = await signUpVerified(ts, { email: 'jane.doe@gmail.com' });
    expect((await me(gmail)).body.result.data.credits_balance).toBe(FREE_SIGNUP_CREDITS);
    const dotted = await signUpVerified(ts, { email: 'j.a.n.e.d.o.e+x@googlemail.com' });
    expect((await me(dotted)).body.result.data.credits_balance).toBe(0);

    const grants = await db().selectFrom('free_grant').select(['email_key', 'credits']).where('granted_at', 'is not', null).where('email_key', 'in', [digest('once@example.com'), digest('janedoe@gmail.com')]).execute();
    expect(grants).toHaveLength(2);
    expect(grants.every((g) => g.credits === 500)).toBe(true);
  });

  it('keeps no trace of a deleted user\'s address: only a one-way digest of the mailbox recognises it again', async () => {
    const gone = await signUpVerified(ts, { email: 'forget.me+news@example.org' });
    // An auth mail counted against the mailbox, as a reset asked for it would be.
    expect((await new Browserless(ts.url).request('/api/auth/request-password-reset', { json: { email: 'forget.me+news@example.org', redirectTo: '/auth?step=reset' } })).status).toBe(200);
    await deleteMe(gone);
    const stored = [
      ...(await db().selectFrom('free_grant').select('email_key as key').execute()),
      ...(await db().selectFrom('auth_mail_throttle').select('mailbox as key').execute()),
    ].map((r) => r.key.toLowerCase());
    expect(stored.filter((k) => k.includes('forget'))).toEqual([]);
    expect(stored).toContain(createHash('sha256').update('forget.me@example.org').digest('hex'));
    expect((await me(await signUpVerified(ts, { email: 'forget.me+again@example.org' }))).body.result.data.credits_balance).toBe(0);
    // The migration that hashed the stored keys computes in SQL what the code computes.
    const { rows } = await sql<{ d: string }>`select encode(sha256(convert_to('janedoe@gmail.com', 'UTF8')), 'hex') as d`.execute(db());
    expect(rows[0]!.d).toBe(mailboxDigest('Jane.Doe+x@googlemail.com'));
  });

  it("an unverified sign-up (someone else's +tag spelling of a mailbox) takes nothing: the owner who verifies gets the 500", async () => {
    // Anyone can sign up `victim+x@…` without owning the mailbox; it must not spend the victim's grant.
    const squatter = new Browserless(ts.url);
    const res = await squatter.request('/api/auth/sign-up/email', { json: { name: 'Squatter', email: 'victim+x@example.com', password: 'secret123', callbackURL: '/dashboard' } });
    expect(res.status).toBe(200);
    const squatted = await db()
      .selectFrom('account').innerJoin('user', 'user.id', 'account.owner_id')
      .select(['account.credits_balance']).where('user.email', '=', 'victim+x@example.com').executeTakeFirstOrThrow();
    expect(squatted.credits_balance).toBe(0);

    const victim = await signUpVerified(ts, { email: 'victim@example.com' });
    expect((await me(victim)).body.result.data.credits_balance).toBe(FREE_SIGNUP_CREDITS);

    // The squatted spelling verified later (same mailbox after all) gets nothing on top.
    const late = await verificationLink(ts, 'victim+x@example.com');
    expect((await squatter.request(late)).status).toBe(302);
    expect((await me(squatter)).body.result.data.credits_balance).toBe(0);
    const grants = await db().selectFrom('free_grant').select(['credits']).where('email_key', '=', digest('victim@example.com')).where('granted_at', 'is not', null).execute();
    expect(grants).toEqual([{ credits: FREE_SIGNUP_CREDITS }]);
  });

  it('grants once under concurrent sign-ups and verifications of spellings of one mailbox', async () => {
    const spellings = ['race.one@gmail.com', 'raceone@gmail.com', 'r.aceone+1@gmail.com'];
    await Promise.all(
      spellings.map((email) =>
        fetch(`${ts.url}/api/auth/sign-up/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ts.url }, body: JSON.stringify({ name: 'Racer', email, password: 'secret123' }) }),
      ),
    );
    // The credits come with verification: the three links followed at the same moment.
    const links = await Promise.all(spellings.map((email) => verificationLink(ts, email)));
    await Promise.all(links.map((link) => fetch(link, { redirect: 'manual' })));
    const accounts = await db()
      .selectFrom('account')
      .innerJoin('user', 'user.id', 'account.owner_id')
      .select(['account.credits_balance'])
      .where('user.email', 'in', spellings)
      .execute();
    expect(accounts).toHaveLength(3);
    expect(accounts.map((a) => a.credits_balance).sort((a, b) => a - b)).toEqual([0, 0, 500]);
  });

  it('shows a user whose account is gone the deleted state, never a fresh 500; reopening gives an empty Free account to pay from', async () => {
    const o = await ownerOn(ts, 'free', 'gone');
    // The account disappears (operator action, or it was deleted by its other owner).
    await db().deleteFrom('organization').where('id', '=', o.accountId).execute();
    const accountsBefore = await db().selectFrom('account').select('id').execute();
    for (const proc of ['account.me', 'account.overview', 'jobs.list']) {
      const res = await o.client.trpcQuery(proc, proc === 'jobs.list' ? {} : undefined);
      expect(res.status, proc).toBe(403);
      expect(res.body.error.data).toMatchObject({ appCode: 'NOT_A_MEMBER', details: { accountDeleted: true } });
    }
    const check = await o.client.trpcMutation('validation.check', { email: 'someone@example.com' });
    expect(check.body.error.data.appCode).toBe('NOT_A_MEMBER');
    expect(await db().selectFrom('account').select('id').execute()).toEqual(accountsBefore);

    const reopened = await o.client.trpcMutation('account.reopen');
    expect(reopened.status).toBe(200);
    expect(reopened.body.result.data.credits).toBe(0);
    const now = (await me(o.client)).body.result.data;
    expect(now).toMatchObject({ plan: 'free', credits_balance: 0, role: 'owner' });
    expect(now.accountId).not.toBe(o.accountId);
    // Reopening again changes nothing.
    expect((await o.client.trpcMutation('account.reopen')).body.result.data.accountId).toBe(now.accountId);
    expect((await db().selectFrom('account').select('id').where('owner_id', '=', o.userId).execute())).toHaveLength(1);
  });
});

describe('deleting a user', () => {
  it('keeps an account with another owner (ownership passes), deletes accounts they alone own, and leaves members their own accounts', async () => {
    const a = await ownerOn(ts, 'business', 'co-a');
    const b = await joinAs(ts, a, 'admin', 'co-b');
    await db().updateTable('member').set({ role: 'owner' }).where('organizationId', '=', a.accountId).where('userId', '=', b.userId).execute();
    const job = await db().insertInto('validation_job').values({ account_id: a.accountId, filename: 'shared.csv', status: 'completed', total_emails: 1, processed_emails: 1 }).returning('id').executeTakeFirstOrThrow();

    const solo = await ownerOn(ts, 'business', 'solo');
    const soloMember = await joinAs(ts, solo, 'member', 'solo-member');
    const soloMemberOwn = await db().selectFrom('account').select('id').where('owner_id', '=', soloMember.userId).executeTakeFirstOrThrow();

    await deleteMe(a.client);
    const shared = await db().selectFrom('account').select(['id', 'owner_id', 'plan']).where('id', '=', a.accountId).executeTakeFirst();
    expect(shared).toEqual({ id: a.accountId, owner_id: b.userId, plan: 'business' });
    expect(await db().selectFrom('validation_job').select('id').where('id', '=', job.id).executeTakeFirst()).toEqual({ id: job.id });
    expect((await me(b.client)).body.result.data).toMatchObject({ accountId: a.accountId, role: 'owner' });

    await deleteMe(solo.client);
    expect(await db().selectFrom('account').select('id').where('id', '=', solo.accountId).executeTakeFirst()).toBeUndefined();
    expect((await me(soloMember.client)).body.result.data.accountId).toBe(soloMemberOwn.id);
  });

  it('cannot go through better-auth: its delete-user route is not there', async () => {
    const o = await ownerOn(ts, 'free', 'no-route');
    expect((await o.client.request('/api/auth/delete-user', { json: { password: 'secret123' } })).status).toBe(404);
    expect(await db().selectFrom('user').select('id').where('id', '=', o.userId).executeTakeFirst()).toBeDefined();
  });
});

/** Follows jobs.onChange as `client`'s browser would (its cookies), collecting the job ids of its events. */
function listen(client: Browserless) {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const events: string[] = [];
  let closed = false;
  const es = new EventSource(`${ts.url}/api/trpc/jobs.onChange`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), cookie } }),
  });
  es.onmessage = (m) => {
    const data = JSON.parse(m.data) as { jobId?: string } | null;
    if (data?.jobId) events.push(data.jobId);
  };
  const open = new Promise<void>((resolve) => {
    es.onopen = () => resolve();
  });
  return { events, open, close: () => ((closed = true), es.close()), get closed() { return closed; } };
}

async function newJob(accountId: string): Promise<string> {
  const j = await db().insertInto('validation_job').values({ account_id: accountId, filename: 'live.csv', total_emails: 1 }).returning('id').executeTakeFirstOrThrow();
  return j.id;
}

describe('live job events', () => {
  it('stops for a member removed from the team, while the owner keeps receiving them', async () => {
    const o = await ownerOn(ts, 'business', 'live-owner');
    const m = await joinAs(ts, o, 'member', 'live-member');
    const ownerStream = listen(o.client);
    const memberStream = listen(m.client);
    try {
      await Promise.all([ownerStream.open, memberStream.open]);
      await new Promise((r) => setTimeout(r, 200));
      const before = await newJob(o.accountId);
      await expect.poll(() => memberStream.events.includes(before), { timeout: 5000 }).toBe(true);

      const members = (await o.client.trpcQuery('team.members')).body.result.data as Array<{ id: string; user_id: string }>;
      const row = members.find((x) => x.user_id === m.userId)!;
      expect((await o.client.trpcMutation('team.removeMember', { memberId: row.id })).status).toBe(200);

      const after = await newJob(o.accountId);
      await expect.poll(() => ownerStream.events.includes(after), { timeout: 5000 }).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(memberStream.events).not.toContain(after);
    } finally {
      ownerStream.close();
      memberStream.close();
    }
  });

  it('stops for a member who lost their seat (the plan fell below the team), while the owner keeps receiving them', async () => {
    const o = await ownerOn(ts, 'pro', 'seat-owner');
    const m = await joinAs(ts, o, 'member', 'seat-member');
    const ownerStream = listen(o.client);
    const memberStream = listen(m.client);
    try {
      await Promise.all([ownerStream.open, memberStream.open]);
      await new Promise((r) => setTimeout(r, 200));
      const before = await newJob(o.accountId);
      await expect.poll(() => memberStream.events.includes(before), { timeout: 5000 }).toBe(true);

      // The plan falls to Starter (1 seat: the owner's): the member works in no part of the account.
      await setPlan(ts, o.accountId, 'starter');
      expect((await me(m.client)).body.result.data.accountId).not.toBe(o.accountId);

      const after = await newJob(o.accountId);
      await expect.poll(() => ownerStream.events.includes(after), { timeout: 5000 }).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(memberStream.events).not.toContain(after);
    } finally {
      ownerStream.close();
      memberStream.close();
    }
  });
});

describe('live job events after an account switch', () => {
  it("the stream of the account switched away from sends none of its events any more; a new one answers for the account switched to", async () => {
    const team = await ownerOn(ts, 'business', 'switch-team');
    const user = await joinAs(ts, team, 'admin', 'switch-user');
    const own = await db().selectFrom('account').select('id').where('owner_id', '=', user.userId).executeTakeFirstOrThrow();
    const teamStream = listen(user.client);
    let ownStream: ReturnType<typeof listen> | null = null;
    try {
      await teamStream.open;
      await new Promise((r) => setTimeout(r, 200));
      const before = await newJob(team.accountId);
      await expect.poll(() => teamStream.events.includes(before), { timeout: 5000 }).toBe(true);

      expect((await user.client.trpcMutation('account.switch', { accountId: own.id })).status).toBe(200);
      const after = await newJob(team.accountId);
      await new Promise((r) => setTimeout(r, 500));
      expect(teamStream.events).not.toContain(after);

      ownStream = listen(user.client);
      await ownStream.open;
      await new Promise((r) => setTimeout(r, 200));
      const mine = await newJob(own.id);
      await expect.poll(() => ownStream!.events.includes(mine), { timeout: 5000 }).toBe(true);
    } finally {
      teamStream.close();
      ownStream?.close();
    }
  });
});

describe('the active account is the same everywhere', () => {
  it('uploads and exports in the account the dashboard shows, for a user in two accounts', async () => {
    const team = await ownerOn(ts, 'pro', 'two-team');
    const user = await joinAs(ts, team, 'admin', 'two-user');
    const own = await db().selectFrom('account').select('id').where('owner_id', '=', user.userId).executeTakeFirstOrThrow();
    await setPlan(ts, own.id, 'starter');
    // The session's active account becomes the user's own (as a switch would).
    await db().updateTable('session').set({ activeOrganizationId: own.id }).where('userId', '=', user.userId).execute();
    expect((await me(user.client)).body.result.data.accountId).toBe(own.id);

    const up = await uploadCsv(user.client, 'mine.csv', 'email\r\na@example.com\r\n');
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const job = await db().selectFrom('validation_job').select('account_id').where('id', '=', up.body.jobId).executeTakeFirstOrThrow();
    expect(job.account_id).toBe(own.id);
    expect(JSON.stringify((await user.client.trpcQuery('jobs.list', {})).body.result.data)).toContain(up.body.jobId);

    // A completed job of the other account is not exported from this one.
    const teamJob = await db().insertInto('validation_job').values({ account_id: team.accountId, filename: 'team.csv', status: 'completed', total_emails: 0 }).returning('id').executeTakeFirstOrThrow();
    const cookie = [...user.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    expect((await fetch(`${ts.url}/api/jobs/${teamJob.id}/export`, { headers: { cookie } })).status).toBe(404);
    const ownJob = await db().insertInto('validation_job').values({ account_id: own.id, filename: 'own.csv', status: 'completed', total_emails: 0 }).returning('id').executeTakeFirstOrThrow();
    expect((await fetch(`${ts.url}/api/jobs/${ownJob.id}/export`, { headers: { cookie } })).status).toBe(200);

    // Switching back to the team makes both doors follow.
    await db().updateTable('session').set({ activeOrganizationId: team.accountId }).where('userId', '=', user.userId).execute();
    const up2 = await uploadCsv(user.client, 'team.csv', 'email\r\nb@example.com\r\n');
    expect((await db().selectFrom('validation_job').select('account_id').where('id', '=', up2.body.jobId).executeTakeFirstOrThrow()).account_id).toBe(team.accountId);
    expect((await fetch(`${ts.url}/api/jobs/${teamJob.id}/export`, { headers: { cookie } })).status).toBe(200);
  });
});

