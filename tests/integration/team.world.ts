// The team tests' people, made through the product's own doors: an owner on a plan and a member
// who joined by invitation (team.invite, team.accept and team.roles tests).
import { expect } from 'vitest';
import type { Plan } from '../../db/types';
import { invitationIdFromMail, ownerOn, whoAmI } from '../helpers/accounts';
import { signUpVerified, type Browserless, type TestServer } from '../helpers/test-server';

export function teamWorld(ts: TestServer) {
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

  return { email, accountOf, owner, joinedMember };
}
