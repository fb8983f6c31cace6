// A user who belongs to several accounts (their own, plus teams they joined by invitation) lists
// them and switches the active one for this session only; never into an account they hold no seat in.
import { describe, expect, it } from 'vitest';
import { invitationIdFromMail, ownerOn, setPlan, whoAmI, type Person } from '../helpers/accounts';
import { Browserless, testServer } from '../helpers/test-server';

const ts = testServer();
const db = () => ts.testDb.db;

/** `payer` (owner of their own Pro account) accepts an invitation into `team`'s account as a member. */
async function payerJoinsTeam(): Promise<{ payer: Person; team: Person }> {
  const payer = await ownerOn(ts, 'pro', 'payer');
  const team = await ownerOn(ts, 'business', 'team');
  await db().updateTable('organization').set({ name: 'Payer Co' }).where('id', '=', payer.accountId).execute();
  await db().updateTable('organization').set({ name: 'Team Co' }).where('id', '=', team.accountId).execute();
  expect((await team.client.trpcMutation('team.invite', { email: payer.email, role: 'member' })).status).toBe(200);
  const invitationId = await invitationIdFromMail(ts, payer.email);
  const accepted = await payer.client.trpcMutation('team.acceptInvitation', { invitationId });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { payer, team };
}

async function signInAgain(email: string): Promise<Browserless> {
  const c = new Browserless(ts.url);
  const res = await c.request('/api/auth/sign-in/email', { json: { email, password: 'secret123' } });
  expect(res.status).toBe(200);
  return c;
}

const accounts = async (c: Browserless) => {
  const res = await c.trpcQuery('account.accounts');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.data as Array<{ accountId: string; name: string; role: string; plan: string; active: boolean }>;
};

describe('account switcher', () => {
  it('lets an owner who joined another team switch back to their own account (Billing shows their own subscription); other sessions stay put', async () => {
    const { payer, team } = await payerJoinsTeam();
    const other = await signInAgain(payer.email);
    expect((await whoAmI(payer.client)).accountId).toBe(team.accountId);
    expect((await whoAmI(other)).accountId).toBe(team.accountId);

    expect(await accounts(payer.client)).toEqual([
      { accountId: payer.accountId, name: 'Payer Co', role: 'owner', plan: 'pro', active: false },
      { accountId: team.accountId, name: 'Team Co', role: 'member', plan: 'business', active: true },
    ]);

    const sw = await payer.client.trpcMutation('account.switch', { accountId: payer.accountId });
    expect(sw.status, JSON.stringify(sw.body)).toBe(200);
    const me = (await payer.client.trpcQuery('account.me')).body.result.data;
    expect(me).toMatchObject({ accountId: payer.accountId, role: 'owner', plan: 'pro' });
    const billing = await payer.client.trpcQuery('billing.overview');
    expect(billing.status).toBe(200);
    expect(billing.body.result.data.plan).toBe('pro');
    expect((await accounts(payer.client)).map((a) => [a.accountId, a.active])).toEqual([
      [payer.accountId, true],
      [team.accountId, false],
    ]);

    // The other session of the same user was not switched.
    expect((await whoAmI(other)).accountId).toBe(team.accountId);

    // And back again.
    expect((await payer.client.trpcMutation('account.switch', { accountId: team.accountId })).status).toBe(200);
    expect((await whoAmI(payer.client)).accountId).toBe(team.accountId);
  });

  it('refuses switching into another tenant, a team the user was removed from, or one they hold no seat in, and changes nothing', async () => {
    const { payer, team } = await payerJoinsTeam();
    const stranger = await ownerOn(ts, 'pro', 'stranger');
    expect((await payer.client.trpcMutation('account.switch', { accountId: payer.accountId })).status).toBe(200);

    const foreign = await payer.client.trpcMutation('account.switch', { accountId: stranger.accountId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.data.appCode).toBe('NOT_FOUND');
    expect((await whoAmI(payer.client)).accountId).toBe(payer.accountId);

    const malformed = await payer.client.trpcMutation('account.switch', { accountId: 42 });
    expect(malformed.status).toBe(400);

    // Seat lost: the team's plan fell to Starter (1 member: the owner).
    await setPlan(ts, team.accountId, 'starter');
    const seatless = await payer.client.trpcMutation('account.switch', { accountId: team.accountId });
    expect(seatless.status).toBe(403);
    expect(seatless.body.error.message).toContain('Team Co');
    expect((await whoAmI(payer.client)).accountId).toBe(payer.accountId);
    expect((await accounts(payer.client)).map((a) => a.accountId)).toEqual([payer.accountId]);
    await setPlan(ts, team.accountId, 'business');

    // Removed from the team.
    const members = (await team.client.trpcQuery('team.members')).body.result.data as Array<{ id: string; email: string }>;
    const row = members.find((m) => m.email === payer.email)!;
    expect((await team.client.trpcMutation('team.removeMember', { memberId: row.id })).status).toBe(200);
    const removed = await payer.client.trpcMutation('account.switch', { accountId: team.accountId });
    expect(removed.status).toBe(404);
    expect((await whoAmI(payer.client)).accountId).toBe(payer.accountId);
    expect((await accounts(payer.client)).map((a) => a.accountId)).toEqual([payer.accountId]);

    const sessions = await db().selectFrom('session').select('activeOrganizationId').where('userId', '=', payer.userId).execute();
    expect(sessions.map((s) => s.activeOrganizationId)).not.toContain(stranger.accountId);
    expect(sessions.map((s) => s.activeOrganizationId)).not.toContain(team.accountId);
  });

  it('needs a signed-in user', async () => {
    const anon = new Browserless(ts.url);
    expect((await anon.trpcQuery('account.accounts')).status).toBe(401);
    expect((await anon.trpcMutation('account.switch', { accountId: 'x' })).status).toBe(401);
  });
});
