// Two tabs of one browser share one session, and so its active account: a switch in one tab moves
// the other's requests to the account switched to, while that tab still shows the first one.
import { describe, expect, it } from 'vitest';
import { ACCOUNT_HEADER, ACCOUNT_LEFT_MESSAGE } from '../../server/contracts/transport';
import { invitationIdFromMail, ownerOn, setPlan, uniqueEmail, whoAmI } from '../helpers/accounts';
import { Browserless, signUpVerified, testServer } from '../helpers/test-server';

const ts = testServer();

/** A mutation from a tab that shows `shownAccount` (the SPA sends it in ACCOUNT_HEADER). */
async function mutateFromTab(client: Browserless, shownAccount: string, proc: string, input: unknown) {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(new URL(`/api/trpc/${proc}`, ts.url), {
    method: 'POST',
    headers: { origin: ts.url, cookie, 'content-type': 'application/json', [ACCOUNT_HEADER]: shownAccount },
    body: JSON.stringify(input),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('account switch in another tab', () => {
  it('a change made in a tab still showing the account switched away from is refused, not done in the other account', async () => {
    // An admin of a Business team who also owns a Business account of their own.
    const team = await ownerOn(ts, 'business', 'team-owner');
    const adminEmail = uniqueEmail('admin');
    const admin = await signUpVerified(ts, { email: adminEmail });
    const own = (await whoAmI(admin)).accountId;
    await setPlan(ts, own, 'business');
    expect((await team.client.trpcMutation('team.invite', { email: adminEmail, role: 'admin' })).status).toBe(200);
    const accepted = await admin.trpcMutation('team.acceptInvitation', { invitationId: await invitationIdFromMail(ts, adminEmail) });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    // Tab A is on their own account's Team page; tab B switches the session to the team.
    expect((await admin.trpcMutation('account.switch', { accountId: own })).status).toBe(200);
    expect((await admin.trpcMutation('account.switch', { accountId: team.accountId })).status).toBe(200);

    // Tab A invites a colleague to what it shows: their own account.
    const colleague = uniqueEmail('colleague');
    const res = await mutateFromTab(admin, own, 'team.invite', { email: colleague, role: 'admin' });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.data.details).toMatchObject({ accountChanged: true });
    expect(res.body.error.message).toContain('another tab');
    const sent = await ts.testDb.db.selectFrom('invitation').select('organizationId').where('email', '=', colleague).execute();
    expect(sent).toEqual([]);

    // The tab that shows the active account works as before, as does a caller that names none.
    expect((await mutateFromTab(admin, team.accountId, 'team.invite', { email: colleague })).status).toBe(200);
    expect((await admin.trpcMutation('team.cancelInvitation', { invitationId: (await admin.trpcQuery('team.invitations')).body.result.data[0].id })).status).toBe(200);
  });

  it('a change from a tab still showing a team the user was removed from is refused, saying so', async () => {
    const team = await ownerOn(ts, 'business', 'team-owner');
    const memberEmail = uniqueEmail('removed');
    const member = await signUpVerified(ts, { email: memberEmail });
    await setPlan(ts, (await whoAmI(member)).accountId, 'business');
    expect((await team.client.trpcMutation('team.invite', { email: memberEmail, role: 'admin' })).status).toBe(200);
    expect((await member.trpcMutation('team.acceptInvitation', { invitationId: await invitationIdFromMail(ts, memberEmail) })).status).toBe(200);
    const row = (await team.client.trpcQuery('team.members')).body.result.data.find((m: { email: string }) => m.email === memberEmail);
    expect((await team.client.trpcMutation('team.removeMember', { memberId: row.id })).status).toBe(200);

    // Their open tab still shows the team's Team page.
    const colleague = uniqueEmail('colleague');
    const res = await mutateFromTab(member, team.accountId, 'team.invite', { email: colleague });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.message).toBe(ACCOUNT_LEFT_MESSAGE);
    expect(await ts.testDb.db.selectFrom('invitation').select('id').where('email', '=', colleague).execute()).toEqual([]);
  });
});
