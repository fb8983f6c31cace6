// Only the auth routes the product uses are reachable. better-auth sits behind an allowlist: the
// organization plugin's own routes (which would bypass the team router's plan limits, roles and
// mail rules), delete-user and the rest answer 404 to everyone and change nothing.
import { describe, expect, it } from 'vitest';
import { ALLOWED_AUTH_ROUTES, isAllowedAuthRoute } from '../../server/auth/auth-routes';
import { joinAs, ownerOn, uniqueEmail, type Person } from '../helpers/accounts';
import { Browserless, signUpVerified, testServer } from '../helpers/test-server';

const ts = testServer();

/** Everything a bypass could change: people, seats, invitations, accounts, active accounts. */
async function snapshot(): Promise<string> {
  const db = ts.testDb.db;
  const [users, orgs, members, invitations, accounts, sessions] = await Promise.all([
    db.selectFrom('user').select(['id', 'email', 'name', 'emailVerified']).orderBy('id').execute(),
    db.selectFrom('organization').select(['id', 'name', 'slug', 'metadata']).orderBy('id').execute(),
    db.selectFrom('member').select(['id', 'organizationId', 'userId', 'role']).orderBy('id').execute(),
    db.selectFrom('invitation').select(['id', 'organizationId', 'email', 'role', 'status']).orderBy('id').execute(),
    db.selectFrom('account').select(['id', 'owner_id', 'plan', 'credits_balance', 'team_member_limit']).orderBy('id').execute(),
    db.selectFrom('session').select(['id', 'userId', 'activeOrganizationId']).orderBy('id').execute(),
  ]);
  return JSON.stringify({ users, orgs, members, invitations, accounts, sessions });
}

interface Team {
  plan: 'free' | 'pro';
  owner: Person;
  admin: Person;
  member: Person;
}

async function team(plan: 'free' | 'pro'): Promise<Team> {
  const owner = await ownerOn(ts, plan, `${plan}-owner`);
  const admin = await joinAs(ts, owner, 'admin', `${plan}-admin`);
  const member = await joinAs(ts, owner, 'member', `${plan}-member`);
  return { plan, owner, admin, member };
}

describe('the better-auth allowlist', () => {
  it('lets through exactly the listed routes (and :token segments), nothing else', () => {
    expect(isAllowedAuthRoute('POST', '/sign-in/email')).toBe(true);
    expect(isAllowedAuthRoute('GET', '/reset-password/abcDEF123_-')).toBe(true);
    expect(isAllowedAuthRoute('GET', '/reset-password/a/b')).toBe(false);
    expect(isAllowedAuthRoute('GET', '/sign-in/email')).toBe(false);
    expect(isAllowedAuthRoute('POST', '/organization/invite-member')).toBe(false);
    expect(isAllowedAuthRoute('POST', '/delete-user')).toBe(false);
    expect(isAllowedAuthRoute('POST', '/sign-in/email/../../organization/delete')).toBe(false);
    expect(ALLOWED_AUTH_ROUTES.some((r) => r.path.startsWith('/organization'))).toBe(false);
  });

  it("answers 404 to each organization route, delete-user and other unused routes, as owner, admin and member of a Free and a Pro account, and changes nothing", async () => {
    const teams = [await team('free'), await team('pro')];
    const pendingFor = uniqueEmail('pending');
    const pro = teams[1]!;
    // A pending invitation the routes could try to accept, list or cancel.
    await ts.testDb.db.updateTable('account').set({ team_member_limit: 1000 }).where('id', '=', pro.owner.accountId).execute();
    expect((await pro.owner.client.trpcMutation('team.invite', { email: pendingFor, role: 'admin' })).status).toBe(200);
    await ts.testDb.db.updateTable('account').set({ team_member_limit: 2 }).where('id', '=', pro.owner.accountId).execute();
    const invitation = await ts.testDb.db.selectFrom('invitation').select('id').where('email', '=', pendingFor).executeTakeFirstOrThrow();

    const before = await snapshot();
    for (const t of teams) {
      const orgId = t.owner.accountId;
      const calls: Array<[string, string, unknown?]> = [
        ['POST', '/api/auth/organization/invite-member', { email: uniqueEmail('bypass'), role: 'admin', organizationId: orgId }],
        ['POST', '/api/auth/organization/accept-invitation', { invitationId: invitation.id }],
        ['POST', '/api/auth/organization/reject-invitation', { invitationId: invitation.id }],
        ['POST', '/api/auth/organization/cancel-invitation', { invitationId: invitation.id }],
        ['POST', '/api/auth/organization/update', { data: { name: 'Hijacked' }, organizationId: orgId }],
        ['POST', '/api/auth/organization/delete', { organizationId: orgId }],
        ['POST', '/api/auth/organization/update-member-role', { memberId: 'x', role: 'owner', organizationId: orgId }],
        ['POST', '/api/auth/organization/remove-member', { memberIdOrEmail: t.owner.email, organizationId: orgId }],
        ['POST', '/api/auth/organization/leave', { organizationId: orgId }],
        ['POST', '/api/auth/organization/set-active', { organizationId: orgId }],
        ['POST', '/api/auth/organization/create', { name: 'Second free account', slug: `second-${Date.now()}` }],
        ['POST', '/api/auth/organization/add-member', { userId: 'someone', role: 'admin', organizationId: orgId }],
        ['GET', `/api/auth/organization/list-invitations?organizationId=${orgId}`],
        ['GET', `/api/auth/organization/get-full-organization?organizationId=${orgId}`],
        ['GET', `/api/auth/organization/list-members?organizationId=${orgId}`],
        ['GET', `/api/auth/organization/get-invitation?id=${invitation.id}`],
        ['GET', '/api/auth/organization/list'],
        ['POST', '/api/auth/delete-user', { password: 'secret123' }],
        ['POST', '/api/auth/update-user', { name: 'Renamed' }],
        ['POST', '/api/auth/change-email', { newEmail: uniqueEmail('moved') }],
        ['GET', '/api/auth/list-sessions'],
        ['POST', '/api/auth/revoke-sessions', {}],
        ['GET', '/api/auth/list-accounts'],
        ['GET', '/api/auth/ok'],
        ['POST', '/api/auth/sign-in/social', { provider: 'github' }],
      ];
      for (const who of [t.owner, t.admin, t.member]) {
        for (const [method, path, json] of calls) {
          const res = await who.client.request(path, { method, json });
          expect(res.status, `${t.plan} ${who.email} ${method} ${path}`).toBe(404);
        }
      }
    }
    expect(await snapshot()).toBe(before);
    // And the team router still works for the roles it allows.
    expect((await teams[1]!.member.client.trpcQuery('team.members')).status).toBe(200);
  });

  it('serves the routes the product uses (sign-in, session, sign-out) and refuses a wrong method on them', async () => {
    const email = uniqueEmail('allowed');
    await signUpVerified(ts, { email });
    const c = new Browserless(ts.url);
    expect((await c.request('/api/auth/sign-in/email', { json: { email, password: 'secret123' } })).status).toBe(200);
    const session = await c.request('/api/auth/get-session');
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(email);
    expect((await c.request('/api/auth/sign-in/email')).status).toBe(405); // GET is not a method it takes
    expect((await c.request('/api/auth/sign-out', { json: {} })).status).toBe(200);
  });

  it('leaves organization deletion off and the plugin limits on the account plan even for server-side calls', async () => {
    const o = await ownerOn(ts, 'pro', 'server-side');
    const headers = new Headers({ cookie: [...o.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') });
    const auth = ts.server.deps.auth;
    await expect(auth.api.deleteOrganization({ headers, body: { organizationId: o.accountId } })).rejects.toMatchObject({ statusCode: 404 });
    // Pro's team is 2 people: at most 2 invitations wait at once (seats are taken on acceptance,
    // spec section 6), whoever asks.
    await auth.api.createInvitation({ headers, body: { email: uniqueEmail('seat1'), role: 'member', organizationId: o.accountId } });
    await auth.api.createInvitation({ headers, body: { email: uniqueEmail('seat2'), role: 'member', organizationId: o.accountId } });
    await expect(auth.api.createInvitation({ headers, body: { email: uniqueEmail('seat3'), role: 'member', organizationId: o.accountId } })).rejects.toMatchObject({
      body: { code: 'INVITATION_LIMIT_REACHED' },
    });
    expect(await ts.testDb.db.selectFrom('organization').select('id').where('id', '=', o.accountId).executeTakeFirst()).toBeDefined();
  });
});
