// Team: the account's members (better-auth `member` rows, the spec's user_roles), listed, removed or
// leaving, as plain rows scoped to the caller's account; and the team's messages. Invitations:
// team-invitations.ts.
import type { Db } from '../../../db/client';
import { AppError } from '../../lib/app-error';
import { revokeKeysOfLeavingUser } from '../api-keys/api-keys.service';
import { deleteEndpointsOfLeavingUser } from '../webhooks/webhooks.service';
import { pauseSchedulesOfLeavingUser } from '../schedules/schedules-of-leavers';
import { AUTH_MAILS_PER_HOUR } from '../account/auth-mail-throttle';
import { writeAudit } from '../audit/audit';
import { lockTeam, teamMemberLimit } from './team-seats';

export type InviteRole = 'member' | 'admin';

export const TEAM_MESSAGES = {
  limit: (n: number) => `Your current plan allows ${n} team member(s) total`,
  alreadyMember: 'This person is already a member of your team.',
  alreadyInvited: 'An invitation has already been sent to this address.',
  ownerCannotBeRemoved: 'The account owner cannot be removed.',
  ownerCannotLeave: 'The account owner cannot leave their own account. Switch to another account from the header menu instead.',
  memberNotFound: 'Team member not found.',
  invitationNotFound: 'Invitation not found.',
  invitationInvalid: 'This invitation is no longer valid. Ask your team admin to send a new one.',
  invitationExpired: 'This invitation has expired. Ask your team admin to send a new one.',
  openMailedLink: 'To join this team, open the invitation link in the email that was sent to you.',
  wrongRecipient: (email: string) => `This invitation was sent to ${email}. Sign in with that address to accept it.`,
  /** Accepting when the team is already full (spec section 6's wording, then what to do). */
  teamFull: (n: number) => `Your current plan allows ${n} team member(s) total. This team is full: ask the account owner to upgrade or to free a seat, then accept again.`,
  tooManyToAddress: `This address was sent ${AUTH_MAILS_PER_HOUR} invitations in the last hour. Try again later.`,
  tooManyInvitations: (n: number) => `${n} invitation(s) are already waiting. Cancel one, or wait until one is accepted, before inviting more.`,
} as const;

export interface TeamMember {
  id: string;
  user_id: string;
  account_id: string;
  role: 'owner' | 'admin' | 'member';
  created_at: Date;
  email: string;
  full_name: string;
  /**
   * False for a member past the plan's team size (the plan fell): they work in no part of the
   * account until a seat is free (membership.ts seats the owners, then the earliest members).
   */
  seated: boolean;
}

/** The spec's user_roles reading: members with profile email and full_name, oldest first. */
export async function listMembers(db: Db, accountId: string): Promise<TeamMember[]> {
  const rows = await db
    .selectFrom('member')
    .innerJoin('user', 'user.id', 'member.userId')
    .leftJoin('profile', 'profile.id', 'member.userId')
    .select(['member.id', 'member.userId', 'member.organizationId', 'member.role', 'member.createdAt', 'user.email', 'user.name', 'profile.full_name'])
    .where('member.organizationId', '=', accountId)
    .orderBy('member.createdAt', 'asc')
    .orderBy('member.id', 'asc')
    .execute();
  const limit = await teamMemberLimit(db, accountId);
  // Seats in membership.ts's order: owners, then the others by joining order.
  const owners = rows.filter((r) => r.role === 'owner').length;
  let others = 0;
  return rows.map((r) => ({
    id: r.id,
    user_id: r.userId,
    account_id: r.organizationId,
    role: r.role as TeamMember['role'],
    created_at: new Date(r.createdAt),
    email: r.email,
    full_name: r.full_name || r.name,
    seated: r.role === 'owner' || owners + others++ < limit,
  }));
}

/**
 * Removes a member (not the owner) from this account: their sessions stop pointing at it, the API
 * keys they created are revoked, the invitations they sent that are still pending are withdrawn and
 * the schedules they created are paused (`schedules_paused`: the Team screen says so).
 */
export async function removeMember(db: Db, o: { accountId: string; userId: string; memberId: string; leaving?: boolean }): Promise<{ id: string; schedules_paused: number }> {
  return db.transaction().execute(async (trx) => {
    // What the member may be doing as they are removed finishes first or sees them gone:
    //  - the team's lock, under which a new invitation is kept only while its inviter is still a
    //    manager (inviteMember), so an invitation of theirs under way is either withdrawn below or
    //    dropped by that check (it was stored after, and a removed admin accepted it from another
    //    address of theirs, back as admin);
    //  - then the schedules they created, paused before the account row is locked: a schedule's run
    //    locks its row and then the account's (runSchedule), so taking them the other way round
    //    deadlocked with a run starting at that moment (an owner, refused below, rolls this back);
    //  - then the account row, which creating an API key holds (api-keys.service.ts), so a key of
    //    theirs under way is committed before their keys are revoked, or is refused (creation checks
    //    the membership again under that lock); it came out working, or the two deadlocked (a 500).
    await lockTeam(trx, o.accountId);
    const leaving = await trx.selectFrom('member').select('userId').where('id', '=', o.memberId).where('organizationId', '=', o.accountId).where('role', '<>', 'owner').executeTakeFirst();
    const schedulesPaused = leaving
      ? await pauseSchedulesOfLeavingUser(trx, { accountId: o.accountId, userId: leaving.userId, actorUserId: o.userId, reason: o.leaving ? 'member_left' : 'member_removed' })
      : 0;
    await trx.selectFrom('account').select('id').where('id', '=', o.accountId).forUpdate().executeTakeFirst();
    const target = await trx
      .selectFrom('member')
      .innerJoin('user', 'user.id', 'member.userId')
      .select(['member.id', 'member.userId', 'member.role', 'user.email'])
      .where('member.id', '=', o.memberId)
      .where('member.organizationId', '=', o.accountId)
      .forUpdate()
      .executeTakeFirst();
    if (!target) throw new AppError('NOT_FOUND', TEAM_MESSAGES.memberNotFound);
    if (target.role === 'owner') throw new AppError('PERMISSION_DENIED', TEAM_MESSAGES.ownerCannotBeRemoved);
    await trx.deleteFrom('member').where('id', '=', target.id).execute();
    await trx.updateTable('session').set({ activeOrganizationId: null }).where('userId', '=', target.userId).where('activeOrganizationId', '=', o.accountId).execute();
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: o.leaving ? 'team.member_left' : 'team.member_removed', targetType: 'user', targetId: target.userId, data: { email: target.email, role: target.role } });
    // "No longer has access": not through an API key only they were ever shown either,
    await revokeKeysOfLeavingUser(trx, { userId: target.userId, accountId: o.accountId, actorUserId: o.userId, reason: o.leaving ? 'member_left' : 'member_removed' });
    // nor through the webhook endpoints they added, which the account's events (addresses) go to,
    await deleteEndpointsOfLeavingUser(trx, { accountId: o.accountId, userId: target.userId, actorUserId: o.userId, reason: o.leaving ? 'member_left' : 'member_removed' });
    // nor through an invitation they sent while they could (say, to another address of theirs).
    const withdrawn = await trx
      .deleteFrom('invitation')
      .where('organizationId', '=', o.accountId)
      .where('inviterId', '=', target.userId)
      .where('status', '=', 'pending')
      .returning(['id', 'email'])
      .execute();
    for (const inv of withdrawn) {
      await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'team.invitation_cancelled', targetType: 'invitation', targetId: inv.id, data: { email: inv.email, reason: 'inviter_removed' } });
    }
    // (Their schedules were paused above: they stop spending the account's credits in the name of someone no longer on the team.)
    return { id: target.id, schedules_paused: schedulesPaused };
  });
}

/**
 * A member or admin leaves an account on their own, seat or no seat (a team whose plan fell below its
 * size), as if removed (removeMember: their keys revoked, their pending invitations withdrawn); the
 * owner cannot.
 */
export async function leaveTeam(db: Db, o: { accountId: string; userId: string }): Promise<{ id: string; schedules_paused: number }> {
  const own = await db.selectFrom('member').select(['id', 'role']).where('organizationId', '=', o.accountId).where('userId', '=', o.userId).executeTakeFirst();
  if (!own) throw new AppError('NOT_FOUND', TEAM_MESSAGES.memberNotFound);
  if (own.role === 'owner') throw new AppError('PERMISSION_DENIED', TEAM_MESSAGES.ownerCannotLeave);
  return removeMember(db, { accountId: o.accountId, userId: o.userId, memberId: own.id, leaving: true });
}
