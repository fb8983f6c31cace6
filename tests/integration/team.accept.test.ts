// Accepting a team invitation: joining, a full team, the mailed link only, the sign-in preview (split from team.test.ts by concern).
import { describe, expect, it } from 'vitest';
import { bareInvitationId, invitationIdFromMail } from '../helpers/accounts';
import { TEAM_MESSAGES } from '../../server/features/team/team.service';
import { Browserless, signUpVerified, testServer } from '../helpers/test-server';
import { teamWorld } from './team.world';

const ts = testServer();
const { email, accountOf, owner, joinedMember } = teamWorld(ts);

describe('team: accepting an invitation', () => {
  it('makes the invitee a member who then works in the shared account, also after signing in again', async () => {
    const { owner: o, invitee, inviteeEmail, invitationId } = await joinedMember('pro', 'admin');
    // The shared account's data: its plan, its members, its validation jobs.
    const job = await ts.testDb.db
      .insertInto('validation_job')
      .values({ account_id: o.accountId, created_by: null, filename: 'shared-list.csv', status: 'completed', total_emails: 3, processed_emails: 3 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const jobs = await invitee.trpcQuery('jobs.list', {});
    expect(jobs.status, JSON.stringify(jobs.body)).toBe(200);
    expect(JSON.stringify(jobs.body.result.data)).toContain(job.id);
    const me = await invitee.trpcQuery('account.me');
    expect(me.body.result.data).toMatchObject({ accountId: o.accountId, role: 'admin', plan: 'pro', user: { email: inviteeEmail } });
    const members = await invitee.trpcQuery('team.members');
    expect(members.body.result.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [o.email, 'owner'],
      [inviteeEmail, 'admin'],
    ]);
    expect((await o.client.trpcQuery('team.invitations')).body.result.data).toEqual([]);
    const inv = await ts.testDb.db.selectFrom('invitation').select('status').where('id', '=', bareInvitationId(invitationId)).executeTakeFirstOrThrow();
    expect(inv.status).toBe('accepted');

    // A fresh session (no active account yet) still lands in the shared account.
    const again = new Browserless(ts.url);
    expect((await again.request('/api/auth/sign-in/email', { json: { email: inviteeEmail, password: 'secret123' } })).status).toBe(200);
    expect((await again.trpcQuery('account.me')).body.result.data.accountId).toBe(o.accountId);

    // Accepting twice is harmless.
    const twice = await invitee.trpcMutation('team.acceptInvitation', { invitationId });
    expect(twice.status).toBe(404);
  });

  it('refuses to accept when the team is already full, in the words of the plan limit, and leaves the invitation waiting', async () => {
    const o = await owner('pro'); // 2 members total
    const [firstEmail, lateEmail] = [email('first-in'), email('too-late')];
    expect((await o.client.trpcMutation('team.invite', { email: firstEmail })).status).toBe(200);
    expect((await o.client.trpcMutation('team.invite', { email: lateEmail })).status).toBe(200);
    const firstInvitation = await invitationIdFromMail(ts, firstEmail);
    const lateInvitation = await invitationIdFromMail(ts, lateEmail);
    const first = await signUpVerified(ts, { email: firstEmail });
    expect((await first.trpcMutation('team.acceptInvitation', { invitationId: firstInvitation })).status).toBe(200);

    const late = await signUpVerified(ts, { email: lateEmail });
    const ownAccount = await accountOf(late);
    const refused = await late.trpcMutation('team.acceptInvitation', { invitationId: lateInvitation });
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.appCode).toBe('PLAN_REQUIRED');
    expect(refused.body.error.message).toBe('Your current plan allows 2 team member(s) total. This team is full: ask the account owner to upgrade or to free a seat, then accept again.');
    expect(await accountOf(late)).toBe(ownAccount);
    const members = await ts.testDb.db.selectFrom('member').select('userId').where('organizationId', '=', o.accountId).execute();
    expect(members).toHaveLength(2);
    const inv = await ts.testDb.db.selectFrom('invitation').select('status').where('id', '=', bareInvitationId(lateInvitation)).executeTakeFirstOrThrow();
    expect(inv.status).toBe('pending');
  });

  it('seats one of two invitees accepting the last seat at the same moment', async () => {
    const o = await owner('pro');
    const emails = [email('racer-a'), email('racer-b')];
    for (const e of emails) expect((await o.client.trpcMutation('team.invite', { email: e })).status).toBe(200);
    const invitees = await Promise.all(emails.map(async (e) => ({ client: await signUpVerified(ts, { email: e }), invitationId: await invitationIdFromMail(ts, e) })));
    const results = await Promise.all(invitees.map((i) => i.client.trpcMutation('team.acceptInvitation', { invitationId: i.invitationId })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    expect(await ts.testDb.db.selectFrom('member').select('id').where('organizationId', '=', o.accountId).execute()).toHaveLength(2);
  });

  it('lets an existing user (with an account of their own) accept after signing in, and switches them to the team', async () => {
    const existingEmail = email('existing');
    const existing = await signUpVerified(ts, { email: existingEmail });
    const ownAccount = await accountOf(existing);
    const o = await owner('business');
    await o.client.trpcMutation('team.invite', { email: existingEmail.toUpperCase() });
    const invitationId = await invitationIdFromMail(ts, existingEmail);
    expect(await accountOf(existing)).toBe(ownAccount); // not before accepting
    const res = await existing.trpcMutation('team.acceptInvitation', { invitationId });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual({ accountId: o.accountId, accountName: "Owner owner's account", role: 'member', alreadyMember: false });
    expect(await accountOf(existing)).toBe(o.accountId);
    // Their own account is untouched and still theirs.
    const own = await ts.testDb.db.selectFrom('member').select('role').where('organizationId', '=', ownAccount).executeTakeFirstOrThrow();
    expect(own.role).toBe('owner');
  });

  it('refuses someone else, an unknown or cancelled invitation', async () => {
    const o = await owner('pro');
    const target = email('target');
    await o.client.trpcMutation('team.invite', { email: target });
    const invitationId = await invitationIdFromMail(ts, target);
    const stranger = await signUpVerified(ts, { email: email('stranger') });
    const res = await stranger.trpcMutation('team.acceptInvitation', { invitationId });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(`This invitation was sent to ${target}. Sign in with that address to accept it.`);
    expect((await stranger.trpcQuery('account.me')).body.result.data.accountId).not.toBe(o.accountId);
    expect((await stranger.trpcMutation('team.acceptInvitation', { invitationId: 'no-such-invitation' })).status).toBe(404);

    await o.client.trpcMutation('team.cancelInvitation', { invitationId });
    const invitee = await signUpVerified(ts, { email: target });
    expect((await invitee.trpcMutation('team.acceptInvitation', { invitationId })).status).toBe(404);
    expect((await new Browserless(ts.url).trpcMutation('team.acceptInvitation', { invitationId })).status).toBe(401);
  });

  it('joins only through the mailed link: an inviter who hands the invitee a link made from the id the pending list shows cannot pull them into the team', async () => {
    const o = await owner('pro');
    const target = email('lured');
    expect((await o.client.trpcMutation('team.invite', { email: target })).status).toBe(200);
    const victim = await signUpVerified(ts, { email: target });
    const ownAccount = await accountOf(victim);
    // The inviter sees the invitation's id (to cancel it) …
    const listed = (await o.client.trpcQuery('team.invitations')).body.result.data as Array<{ id: string; email: string }>;
    const rawId = listed.find((i) => i.email === target)!.id;
    // … and a page of theirs opens /dashboard/team?invitation=<id> in the victim's signed-in browser, which accepts it.
    for (const forged of [rawId, `${rawId}_${'0'.repeat(32)}`, `${rawId}_${'é'.repeat(32)}`, `${rawId}_`]) {
      const res = await victim.trpcMutation('team.acceptInvitation', { invitationId: forged });
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.message).toBe(TEAM_MESSAGES.openMailedLink);
    }
    expect(await accountOf(victim)).toBe(ownAccount);
    expect((await ts.testDb.db.selectFrom('member').select('id').where('organizationId', '=', o.accountId).execute()).length).toBe(1);
    // The link in the invitation mail (which only the invitee's mailbox has) still works.
    const mailed = await invitationIdFromMail(ts, target);
    expect(mailed).not.toBe(rawId);
    expect((await victim.trpcMutation('team.acceptInvitation', { invitationId: mailed })).status).toBe(200);
    expect(await accountOf(victim)).toBe(o.accountId);
  });

  it('previews the invitation for the sign-in page without a session', async () => {
    const o = await owner('pro');
    const target = email('preview');
    await o.client.trpcMutation('team.invite', { email: target, role: 'admin' });
    const invitationId = await invitationIdFromMail(ts, target);
    const anon = new Browserless(ts.url);
    const res = await anon.trpcQuery('team.invitationPreview', { invitationId });
    expect(res.body.result.data).toEqual({ status: 'pending', expiresAt: expect.any(String), accountName: "Owner owner's account", email: target, role: 'admin' });
    expect((await anon.trpcQuery('team.invitationPreview', { invitationId: 'nope' })).body.result.data.status).toBe('invalid');
  });
});
