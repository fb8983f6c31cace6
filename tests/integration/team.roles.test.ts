// Team roles and tenancy: who may manage, removal and leaving (and what goes with them), other accounts, bad ids (split from team.test.ts by concern).
import { describe, expect, it } from 'vitest';
import { bareInvitationId, invitationIdFromMail, whoAmI } from '../helpers/accounts';
import { TEAM_MESSAGES } from '../../server/features/team/team.service';
import { Browserless, signUpVerified, testServer } from '../helpers/test-server';
import { teamWorld } from './team.world';

const ts = testServer();
const { email, accountOf, owner, joinedMember } = teamWorld(ts);

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
