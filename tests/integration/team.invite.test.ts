// Team invitations: sent, listed, capped, rate-limited, validated (split from team.test.ts by concern).
import { describe, expect, it } from 'vitest';
import { bareInvitationId, invitationIdFromMail } from '../helpers/accounts';
import { TEAM_MESSAGES } from '../../server/features/team/team.service';
import { testServer } from '../helpers/test-server';
import { teamWorld } from './team.world';

const ts = testServer();
const { email, owner, joinedMember } = teamWorld(ts);

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
