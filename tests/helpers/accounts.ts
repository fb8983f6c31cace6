// People and accounts for integration tests, made through the product's own doors (sign-up,
// verification link, team invitation and acceptance); only the plan is set straight in the database.
import { expect } from 'vitest';
import type { Plan } from '../../db/types';
import { planByType } from '../../server/contracts/plans';
import { signUpVerified, type Browserless, type TestServer } from './test-server';

let n = 0;
export const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;

export interface Person {
  client: Browserless;
  email: string;
  userId: string;
  accountId: string;
}

export async function setPlan(ts: TestServer, accountId: string, plan: Plan): Promise<void> {
  const def = planByType(plan);
  await ts.testDb.db
    .updateTable('account')
    .set({ plan, team_member_limit: def.teamMemberLimit, monthly_validations_quota: def.monthlyValidations })
    .where('id', '=', accountId)
    .execute();
}

export async function whoAmI(client: Browserless): Promise<{ userId: string; accountId: string }> {
  const me = await client.trpcQuery('account.me');
  expect(me.status, JSON.stringify(me.body)).toBe(200);
  return { userId: me.body.result.data.user.id, accountId: me.body.result.data.accountId };
}

/** A verified user who owns a fresh account on `plan`. */
export async function ownerOn(ts: TestServer, plan: Plan, tag = 'owner'): Promise<Person> {
  const email = uniqueEmail(tag);
  const client = await signUpVerified(ts, { email, name: `Owner ${tag}` });
  const { userId, accountId } = await whoAmI(client);
  await setPlan(ts, accountId, plan);
  return { client, email, userId, accountId };
}

/** The invitation's own id (as the Pending Invitations list and the database name it) in a mailed reference `<id>_<proof>`. */
export const bareInvitationId = (ref: string): string => ref.split('_')[0]!;

/** The invitation reference the mail's accept link carries (`<id>_<proof>`: team-invitations.ts), as an invitee's browser sends it. */
export async function invitationIdFromMail(ts: TestServer, to: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const mail = await ts.testDb.db.selectFrom('dev_outbox').select('text').where('to', '=', to).where('subject', 'like', "You're invited%").orderBy('id', 'desc').executeTakeFirst();
    const id = mail?.text.match(/\/auth\?invitation=([A-Za-z0-9_%-]+)/)?.[1];
    if (id) return decodeURIComponent(id);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no invitation mail for ${to}`);
}

/**
 * A new user invited by `owner` as `role` who accepted (the account becomes their active one).
 * The seat limit is lifted for the invitation, then left at least at the team's size, so any plan
 * can be given any team shape (past the limit a member would have no seat: membership.ts).
 */
export async function joinAs(ts: TestServer, owner: Person, role: 'admin' | 'member', tag: string = role): Promise<Person> {
  const db = ts.testDb.db;
  const { team_member_limit } = await db.selectFrom('account').select('team_member_limit').where('id', '=', owner.accountId).executeTakeFirstOrThrow();
  await db.updateTable('account').set({ team_member_limit: 1000 }).where('id', '=', owner.accountId).execute();
  try {
    const email = uniqueEmail(tag);
    const sent = await owner.client.trpcMutation('team.invite', { email, role });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const invitationId = await invitationIdFromMail(ts, email);
    const client = await signUpVerified(ts, { email, name: `Invitee ${tag}` });
    const accepted = await client.trpcMutation('team.acceptInvitation', { invitationId });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const { userId, accountId } = await whoAmI(client);
    expect(accountId).toBe(owner.accountId);
    return { client, email, userId, accountId };
  } finally {
    const { n } = await db.selectFrom('member').select((eb) => eb.fn.countAll<string>().as('n')).where('organizationId', '=', owner.accountId).executeTakeFirstOrThrow();
    await db.updateTable('account').set({ team_member_limit: Math.max(team_member_limit, Number(n)) }).where('id', '=', owner.accountId).execute();
  }
}
