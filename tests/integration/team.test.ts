import { describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { bareInvitationId, invitationIdFromMail, ownerOn, whoAmI } from '../helpers/accounts';
import { TEAM_MESSAGES } from '../../server/features/team/team.service';
import { Browserless, signUpVerified, testServer } from '../helpers/test-server';

const ts = testServer();

let n = 0;
const email = (tag: string) => `${tag}-${++n}@example.com`;

const accountOf = async (client: Browserless) => (await whoAmI(client)).accountId;
/** An owner on the given plan. */
const owner = (plan: Plan, tag = 'owner') => ownerOn(ts, plan, tag);

/** Owner on `plan` invites a new address as `role`; the invitee signs up and accepts. */
async function joinedMember(plan: Plan, role: 'member' | 'admin' = 'member') {
  const o = await owner(plan);
  const inviteeEmail = email(role);
  expect((await o.client.trpcMutation('team.invite', { email: inviteeEmail, role })).status).toBe(200);
  const invitationId = await invitationIdFromMail(ts, inviteeEmail);
  const invitee = await signUpVerified(ts, { email: inviteeEmail, name: `Invitee ${role}` });
  const accepted = await invitee.trpcMutation('team.acceptInvitation', { invitationId });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { owner: o, invitee, inviteeEmail, invitationId };
}

describe('team: members and invitations', () => {
  it('lists the owner as the only member of a new account', async () => {
    const o = await owner('free');
    const res = await o.client.trpcQuery('team.members');
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual([
      expect.objectContaining({ account_id: o.accountId, role: 'owner', email: o.email, full_name: 'Owner owner' }),
    ]);
    expect((await o.client.trpcQuery('team.invitations')).body.result.data).toEqual([]);
  });

  it('refuses an invite over the plan limit with the upgrade message (Free and Starter allow 1 member total)', async () => {
    for (const plan of ['free', 'starter'] as const) {
      const o = await owner(plan);
      const res = await o.client.trpcMutation('team.invite', { email: email('nope') });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('Your current plan allows 1 team member(s) total');
      expect(res.body.error.data.appCode).toBe('PLAN_REQUIRED');
    }
    expect(await ts.testDb.db.selectFrom('invitation').select('id').where('email', 'like', 'nope-%').execute()).toEqual([]);
  });

  it('invites while the member count is below the limit (mail with the accept link); pending invitations take no seat but are capped at the team size', async () => {
    const o = await owner('pro'); // 2 members total: the owner and one more
    const first = email('first');
    const res = await o.client.trpcMutation('team.invite', { email: first.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toMatchObject({ email: first, role: 'member', account_id: o.accountId, accepted_at: null, rejected_at: null });
    const invitationId = await invitationIdFromMail(ts, first);
    expect(bareInvitationId(invitationId)).toBe(res.body.result.data.id);

    // Spec section 6: one member (the owner) is below Pro's 2, so a second invitation goes out too.
    const second = email('second');
    expect((await o.client.trpcMutation('team.invite', { email: second, role: 'admin' })).status).toBe(200);
    expect((await o.client.trpcQuery('team.seats')).body.result.data).toEqual({ members: 1, invitations: 2, limit: 2 });

    // At most the team size (2) may wait at once: no mailing invitations without end.
    const third = email('third');
    const over = await o.client.trpcMutation('team.invite', { email: third });
    expect(over.status).toBe(409);
    expect(over.body.error.message).toBe('2 invitation(s) are already waiting. Cancel one, or wait until one is accepted, before inviting more.');
    const list = await o.client.trpcQuery('team.invitations');
    expect(list.body.result.data.map((i: { email: string }) => i.email)).toEqual([second, first]);

    const cancel = await o.client.trpcMutation('team.cancelInvitation', { invitationId });
    expect(cancel.status).toBe(200);
    expect(await ts.testDb.db.selectFrom('invitation').select('id').where('id', '=', bareInvitationId(invitationId)).executeTakeFirst()).toBeUndefined();
    const again = await o.client.trpcMutation('team.invite', { email: third, role: 'admin' });
    expect(again.status).toBe(200);
    expect(again.body.result.data.role).toBe('admin');

    const audit = await ts.testDb.db.selectFrom('audit_log').select('action').where('account_id', '=', o.accountId).where('action', 'like', 'team.%').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['team.invitation_sent', 'team.invitation_sent', 'team.invitation_cancelled', 'team.invitation_sent']);
  });

  it('sends one address at most 5 invitations an hour from one account, however often it is cancelled and invited again', async () => {
    const o = await owner('pro');
    const target = email('spammed');
    for (let i = 0; i < 5; i++) {
      const sent = await o.client.trpcMutation('team.invite', { email: target });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect((await o.client.trpcMutation('team.cancelInvitation', { invitationId: sent.body.result.data.id })).status).toBe(200);
    }
    const sixth = await o.client.trpcMutation('team.invite', { email: target });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.message).toBe('This address was sent 5 invitations in the last hour. Try again later.');
    const mails = await ts.testDb.db.selectFrom('dev_outbox').select('id').where('to', '=', target).execute();
    expect(mails).toHaveLength(5);
    expect((await o.client.trpcQuery('team.invitations')).body.result.data).toEqual([]);
    // Another address is not held up.
    expect((await o.client.trpcMutation('team.invite', { email: email('other') })).status).toBe(200);
  });

  it('a refused invite (already invited, already a member) spends none of the address’s invitations', async () => {
    const o = await owner('business');
    const target = email('twice');
    expect((await o.client.trpcMutation('team.invite', { email: target })).status).toBe(200);
    for (let i = 0; i < 6; i++) {
      const again = await o.client.trpcMutation('team.invite', { email: target });
      expect(again.status).toBe(409);
      expect(again.body.error.message).toBe(TEAM_MESSAGES.alreadyInvited);
    }
    for (let i = 0; i < 6; i++) {
      const self = await o.client.trpcMutation('team.invite', { email: o.email.toUpperCase() });
      expect(self.body.error.message).toBe(TEAM_MESSAGES.alreadyMember);
    }
    // Cancelled, it can be sent again: one mail so far.
    const pending = (await o.client.trpcQuery('team.invitations')).body.result.data[0];
    expect((await o.client.trpcMutation('team.cancelInvitation', { invitationId: pending.id })).status).toBe(200);
    expect((await o.client.trpcMutation('team.invite', { email: target })).status).toBe(200);
  });

  it('holds the cap on waiting invitations under concurrent invites', async () => {
    const o = await owner('pro'); // at most 2 waiting
    const results = await Promise.all([0, 1, 2, 3].map((i) => o.client.trpcMutation('team.invite', { email: email(`race${i}`) })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 409, 409]);
    expect((await o.client.trpcQuery('team.seats')).body.result.data).toEqual({ members: 1, invitations: 2, limit: 2 });
  });

  it('refuses an invite once the members fill the plan, with the upgrade message', async () => {
    const { owner: o } = await joinedMember('pro');
    const res = await o.client.trpcMutation('team.invite', { email: email('fourth') });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe('Your current plan allows 2 team member(s) total');
    expect(res.body.error.data.appCode).toBe('PLAN_REQUIRED');
  });

  it('lists pending invitations newest first', async () => {
    const o = await owner('business');
    const a = email('a');
    const b = email('b');
    await o.client.trpcMutation('team.invite', { email: a });
    await o.client.trpcMutation('team.invite', { email: b });
    const list = await o.client.trpcQuery('team.invitations');
    expect(list.body.result.data.map((i: { email: string }) => i.email)).toEqual([b, a]);
  });

  it('validates the invite input: empty email, bad email, owner role, existing member, duplicate invitation', async () => {
    const o = await owner('business');
    const empty = await o.client.trpcMutation('team.invite', { email: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.data.zodIssues[0].message).toBe('Please enter an email address');
    expect((await o.client.trpcMutation('team.invite', { email: 'not-an-email' })).status).toBe(400);
    expect((await o.client.trpcMutation('team.invite', { email: email('x'), role: 'owner' })).status).toBe(400);
    const self = await o.client.trpcMutation('team.invite', { email: o.email });
    expect(self.status).toBe(409);
    expect(self.body.error.message).toBe('This person is already a member of your team.');
    const dup = email('dup');
    expect((await o.client.trpcMutation('team.invite', { email: dup })).status).toBe(200);
    const twice = await o.client.trpcMutation('team.invite', { email: dup });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('An invitation has already been sent to this address.');
  });
});

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

describe('team: roles and tenancy', () => {
  it('a member cannot invite, list invitations, cancel or remove', async () => {
    const { owner: o, invitee } = await joinedMember('business', 'member');
    const invite = await invitee.trpcMutation('team.invite', { email: email('by-member') });
    expect(invite.status).toBe(403);
    expect(invite.body.error.data.appCode).toBe('PERMISSION_DENIED');
    expect((await invitee.trpcQuery('team.invitations')).status).toBe(403);
    const ownerRow = (await o.client.trpcQuery('team.members')).body.result.data.find((m: { role: string }) => m.role === 'owner');
    expect((await invitee.trpcMutation('team.removeMember', { memberId: ownerRow.id })).status).toBe(403);
    // Members can still see who is on the team.
    expect((await invitee.trpcQuery('team.members')).body.result.data).toHaveLength(2);
  });

  it('nobody can remove the owner; an admin can remove a member, who falls back to their own account', async () => {
    const { owner: o, invitee: admin } = await joinedMember('business', 'admin');
    const members = (await o.client.trpcQuery('team.members')).body.result.data as Array<{ id: string; role: string; email: string }>;
    const ownerRow = members.find((m) => m.role === 'owner')!;
    for (const c of [admin, o.client]) {
      const res = await c.trpcMutation('team.removeMember', { memberId: ownerRow.id });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('The account owner cannot be removed.');
    }
    // The admin invites a member; the member joins; the admin removes them.
    const memberEmail = email('removable');
    expect((await admin.trpcMutation('team.invite', { email: memberEmail })).status).toBe(200);
    const member = await signUpVerified(ts, { email: memberEmail });
    const ownAccount = await accountOf(member);
    expect((await member.trpcMutation('team.acceptInvitation', { invitationId: await invitationIdFromMail(ts, memberEmail) })).status).toBe(200);
    expect(await accountOf(member)).toBe(o.accountId);
    const row = (await admin.trpcQuery('team.members')).body.result.data.find((m: { email: string }) => m.email === memberEmail);
    const removed = await admin.trpcMutation('team.removeMember', { memberId: row.id });
    expect(removed.status).toBe(200);
    expect(await accountOf(member)).toBe(ownAccount);
    expect((await o.client.trpcQuery('team.members')).body.result.data.map((m: { email: string }) => m.email)).not.toContain(memberEmail);
    const audit = await ts.testDb.db.selectFrom('audit_log').select(['action', 'actor_user_id']).where('account_id', '=', o.accountId).where('action', '=', 'team.member_removed').execute();
    expect(audit).toHaveLength(1);
  });

  it('a member can leave the team themselves and is back in their own account; the owner cannot leave', async () => {
    const { owner: o, invitee, inviteeEmail } = await joinedMember('business', 'member');
    expect(await accountOf(invitee)).toBe(o.accountId);
    // Only an account they belong to.
    const other = await owner('business', 'other');
    expect((await invitee.trpcMutation('team.leave', { accountId: other.accountId })).status).toBe(404);
    const left = await invitee.trpcMutation('team.leave', { accountId: o.accountId });
    expect(left.status, JSON.stringify(left.body)).toBe(200);
    expect(await accountOf(invitee)).not.toBe(o.accountId);
    const members = (await o.client.trpcQuery('team.members')).body.result.data.map((m: { email: string }) => m.email);
    expect(members).not.toContain(inviteeEmail);
    const audit = await ts.testDb.db.selectFrom('audit_log').select('action').where('account_id', '=', o.accountId).where('action', '=', 'team.member_left').execute();
    expect(audit).toHaveLength(1);
    // The owner has nowhere to leave to.
    const ownerLeaves = await o.client.trpcMutation('team.leave', { accountId: o.accountId });
    expect(ownerLeaves.status).toBe(403);
    expect(ownerLeaves.body.error.message).toBe(TEAM_MESSAGES.ownerCannotLeave);
  });

  it('a member without a seat (the plan fell) can leave that team, which they cannot work in', async () => {
    const { owner: o, invitee, inviteeEmail } = await joinedMember('pro', 'member');
    await ts.testDb.db.updateTable('account').set({ plan: 'starter', team_member_limit: 1 }).where('id', '=', o.accountId).execute();
    expect(await accountOf(invitee)).not.toBe(o.accountId);
    expect((await invitee.trpcQuery('account.me')).body.result.data.seatless).toHaveLength(1);
    const left = await invitee.trpcMutation('team.leave', { accountId: o.accountId });
    expect(left.status, JSON.stringify(left.body)).toBe(200);
    expect((await invitee.trpcQuery('account.me')).body.result.data.seatless).toEqual([]);
    expect((await o.client.trpcQuery('team.members')).body.result.data.map((m: { email: string }) => m.email)).not.toContain(inviteeEmail);
  });

  it('a removed admin no longer receives the account’s events at the webhook endpoints they added; endpoints others added stay', async () => {
    const db = ts.testDb.db;
    const { owner: o, invitee: admin, inviteeEmail } = await joinedMember('business', 'admin');
    const adminId = (await whoAmI(admin)).userId;
    const theirs = await db.insertInto('webhook_endpoint').values({ account_id: o.accountId, url: 'https://hooks.departing-admin.example/mailvet', events: ['job.completed', 'schedule.run_completed'], created_by: adminId }).returning('id').executeTakeFirstOrThrow();
    const owners = await db.insertInto('webhook_endpoint').values({ account_id: o.accountId, url: 'https://crm.example/mailvet', events: ['job.completed'], created_by: o.userId }).returning('id').executeTakeFirstOrThrow();
    const row = (await o.client.trpcQuery('team.members')).body.result.data.find((m: { email: string }) => m.email === inviteeEmail);
    expect((await o.client.trpcMutation('team.removeMember', { memberId: row.id })).status).toBe(200);
    const left = await db.selectFrom('webhook_endpoint').select('id').where('account_id', '=', o.accountId).execute();
    expect(left.map((e) => e.id)).toEqual([owners.id]);
    const audit = await db.selectFrom('audit_log').select(['action', 'target_id']).where('account_id', '=', o.accountId).where('action', '=', 'webhook.endpoint_deleted').execute();
    expect(audit).toEqual([{ action: 'webhook.endpoint_deleted', target_id: theirs.id }]);
  });

  it('a removed admin no longer has access through the API keys they created (revoked, audited); keys made by others keep working', async () => {
    const db = ts.testDb.db;
    const { owner: o, invitee: admin, inviteeEmail } = await joinedMember('business', 'admin');
    const create = async (c: Browserless, name: string) => {
      const res = await c.trpcMutation('apiKeys.create', { name });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result.data as { id: string; api_key: string };
    };
    const adminKey = await create(admin, 'Admin integration');
    const ownerKey = await create(o.client, 'Owner integration');
    const v1Account = (key: string) => fetch(`${ts.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    expect((await v1Account(adminKey.api_key)).status).toBe(200);

    const row = (await o.client.trpcQuery('team.members')).body.result.data.find((m: { email: string }) => m.email === inviteeEmail);
    expect((await o.client.trpcMutation('team.removeMember', { memberId: row.id })).status).toBe(200);

    // "… no longer has access to this account": not through the key only they ever saw either.
    const after = await v1Account(adminKey.api_key);
    expect(after.status).toBe(401);
    expect(((await after.json()) as { code: string }).code).toBe('KEY_REVOKED');
    expect((await v1Account(ownerKey.api_key)).status).toBe(200);
    const audit = await ts.testDb.db.selectFrom('audit_log').select(['action', 'target_id']).where('account_id', '=', o.accountId).where('action', '=', 'api_key.revoked').execute();
    expect(audit).toEqual([{ action: 'api_key.revoked', target_id: adminKey.id }]);

    // Likewise an admin who leaves by deleting their own user.
    const leaverEmail = email('leaver');
    await db.updateTable('account').set({ team_member_limit: 10 }).where('id', '=', o.accountId).execute();
    expect((await o.client.trpcMutation('team.invite', { email: leaverEmail, role: 'admin' })).status).toBe(200);
    const leaver = await signUpVerified(ts, { email: leaverEmail });
    expect((await leaver.trpcMutation('team.acceptInvitation', { invitationId: await invitationIdFromMail(ts, leaverEmail) })).status).toBe(200);
    const leaverKey = await create(leaver, 'Leaver integration');
    expect((await leaver.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' })).status).toBe(200);
    expect((await v1Account(leaverKey.api_key)).status).toBe(401);
    expect((await v1Account(ownerKey.api_key)).status).toBe(200);
  });

  it('a removed admin cannot come back through an invitation they sent before removal (to a second address of theirs): it is withdrawn', async () => {
    const { owner: o, invitee: admin, inviteeEmail } = await joinedMember('business', 'admin');
    const alt = email('alt-of-admin');
    expect((await admin.trpcMutation('team.invite', { email: alt, role: 'admin' })).status).toBe(200);
    const invitationId = await invitationIdFromMail(ts, alt);
    const row = (await o.client.trpcQuery('team.members')).body.result.data.find((m: { email: string }) => m.email === inviteeEmail);
    expect((await o.client.trpcMutation('team.removeMember', { memberId: row.id })).status).toBe(200);

    const altClient = await signUpVerified(ts, { email: alt });
    const accepted = await altClient.trpcMutation('team.acceptInvitation', { invitationId });
    expect(accepted.status).toBe(404);
    expect(accepted.body.error.message).toBe('This invitation is no longer valid. Ask your team admin to send a new one.');
    expect((await o.client.trpcQuery('team.members')).body.result.data.map((m: { email: string }) => m.email)).toEqual([o.email]);
    expect((await o.client.trpcQuery('team.invitations')).body.result.data).toEqual([]);
    const audit = await ts.testDb.db.selectFrom('audit_log').select(['action', 'target_id']).where('account_id', '=', o.accountId).where('action', '=', 'team.invitation_cancelled').execute();
    expect(audit).toEqual([{ action: 'team.invitation_cancelled', target_id: bareInvitationId(invitationId) }]);
  });

  it('another account cannot see, cancel or remove this account’s invitations and members', async () => {
    const { owner: a, inviteeEmail } = await joinedMember('business');
    const pending = email('pending');
    await a.client.trpcMutation('team.invite', { email: pending });
    const invitationId = await invitationIdFromMail(ts, pending);
    const members = (await a.client.trpcQuery('team.members')).body.result.data as Array<{ id: string; email: string }>;
    const memberRow = members.find((m) => m.email === inviteeEmail)!;

    const b = await owner('business', 'other');
    const bMembers = (await b.client.trpcQuery('team.members')).body.result.data as Array<{ email: string }>;
    expect(bMembers.map((m) => m.email)).toEqual([b.email]);
    expect((await b.client.trpcQuery('team.invitations')).body.result.data).toEqual([]);
    const cancel = await b.client.trpcMutation('team.cancelInvitation', { invitationId });
    expect(cancel.status).toBe(404);
    const remove = await b.client.trpcMutation('team.removeMember', { memberId: memberRow.id });
    expect(remove.status).toBe(404);
    expect(await ts.testDb.db.selectFrom('invitation').select('status').where('id', '=', bareInvitationId(invitationId)).executeTakeFirst()).toEqual({ status: 'pending' });
    expect(await ts.testDb.db.selectFrom('member').select('id').where('id', '=', memberRow.id).executeTakeFirst()).toBeDefined();
  });

  it('answers a NUL character in an id with 400 and a message, never a 500 (anonymous preview included)', async () => {
    const o = await owner('business', 'nul');
    const anon = new Browserless(ts.url);
    const calls: Array<[string, Promise<{ status: number; body: any }>]> = [
      ['anon invitationPreview', anon.trpcQuery('team.invitationPreview', { invitationId: 'abc\u0000' })],
      ['invitationPreview', o.client.trpcQuery('team.invitationPreview', { invitationId: '\u0000' })],
      ['cancelInvitation', o.client.trpcMutation('team.cancelInvitation', { invitationId: '\u0000' })],
      ['removeMember', o.client.trpcMutation('team.removeMember', { memberId: 'x\u0000' })],
      ['acceptInvitation', o.client.trpcMutation('team.acceptInvitation', { invitationId: '\u0000' })],
      ['auditLog', o.client.trpcQuery('account.auditLog', { actorUserId: '\u0000' })],
      ['nested', o.client.trpcMutation('account.profile.update', { full_name: 'Ok', company_name: 'a\u0000b' })],
    ];
    for (const [name, call] of calls) {
      const res = await call;
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.data.appCode, name).toBe('BAD_INPUT');
    }
    expect((await o.client.trpcQuery('account.profile.get')).body.result.data.company_name ?? '').not.toContain('\u0000');
  });

  it('requires a session', async () => {
    const anon = new Browserless(ts.url);
    expect((await anon.trpcQuery('team.members')).status).toBe(401);
    expect((await anon.trpcMutation('team.invite', { email: 'x@example.com' })).status).toBe(401);
  });
});
