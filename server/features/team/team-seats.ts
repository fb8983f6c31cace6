// A team's seats: members and live invitations against the plan's team size, the cap on invitations
// waiting at once, and the lock that serialises seat-changing operations of one account.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { isUnlimited } from '../../contracts/plans';

/**
 * The team's members, live (pending, unexpired) invitations and the plan's team size. Spec section 6:
 * only members take seats; an invitation is checked against the limit when it is accepted.
 */
export async function teamSeats(db: Db, accountId: string): Promise<{ members: number; invitations: number; limit: number }> {
  const r = await db
    .selectFrom('account')
    .select((eb) => [
      'account.team_member_limit',
      eb.selectFrom('member').select(eb.fn.countAll<string>().as('n')).whereRef('member.organizationId', '=', 'account.id').as('members'),
      eb
        .selectFrom('invitation')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('invitation.organizationId', '=', 'account.id')
        .where('invitation.status', '=', 'pending')
        .where('invitation.expiresAt', '>', new Date())
        .as('invitations'),
    ])
    .where('account.id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { members: Number(r.members ?? 0), invitations: Number(r.invitations ?? 0), limit: r.team_member_limit };
}

/** The account's team size (owner included) from our plan columns; 0 when the account is gone. */
export async function teamMemberLimit(db: Db, accountId: string): Promise<number> {
  const row = await db.selectFrom('account').select('team_member_limit').where('id', '=', accountId).executeTakeFirst();
  return row?.team_member_limit ?? 0;
}

/** How long an invitation can be accepted (better-auth's invitationExpiresIn, auth.ts; said in its mail and on the invitee's sign-in page). */
export const INVITATION_EXPIRES_HOURS = 48;

/** Unlimited teams (Enterprise) may have this many invitations waiting at once. */
export const MAX_PENDING_INVITATIONS = 100;

/**
 * How many invitations may wait at once: as many as the plan's team size (Enterprise:
 * MAX_PENDING_INVITATIONS), so nobody can mail invitations without end. Also better-auth's
 * `invitationLimit`, which it compares with the pending invitations.
 */
export function pendingInvitationCap(teamLimit: number): number {
  return isUnlimited(teamLimit) ? MAX_PENDING_INVITATIONS : teamLimit;
}

export async function invitationAllowance(db: Db, accountId: string): Promise<number> {
  return pendingInvitationCap(await teamMemberLimit(db, accountId));
}

/** Serialises seat-changing operations of one account (invites) for the life of a transaction. */
export async function lockTeam(trx: Db, accountId: string) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`team:${accountId}`}, 0))`.execute(trx);
}
