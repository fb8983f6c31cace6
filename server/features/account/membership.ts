// Which account a signed-in user is acting in (and with which role and plan): the one read every
// session-authenticated door (tRPC, upload/export, reports, receipts) starts from.
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../../db/client';
import type { Plan } from '../../../db/types';
import type { Role } from '../../contracts/permissions';
import { ACCOUNT_CHANGED_MESSAGE, ACCOUNT_LEFT_MESSAGE } from '../../contracts/transport';
import { AppError } from '../../lib/app-error';

export interface Membership {
  accountId: string;
  role: Role;
  plan: Plan;
}

/**
 * SQL: the `member` row (joined with its `account`) holds a seat: an owner, or a member whom the
 * members seated before them (owners first, then by joining order) leave room for in the team size.
 * As text too, for the API key lookup's prepared statement (api-keys.queries.ts).
 */
export const SEATED_SQL = `(member.role = 'owner' or (select count(*) from member ahead
  where ahead."organizationId" = member."organizationId"
    and (ahead.role = 'owner' or (ahead."createdAt", ahead.id) < (member."createdAt", member.id))) < account.team_member_limit)`;
const seated = sql<SqlBool>`${sql.raw(SEATED_SQL)}`;

/** The teams the user belongs to but has no seat in (their plan fell below the team's size): told on every screen. */
export async function seatlessMemberships(db: Db, userId: string): Promise<Array<{ accountId: string; name: string; limit: number }>> {
  const rows = await db
    .selectFrom('member')
    .innerJoin('account', 'account.id', 'member.organizationId')
    .innerJoin('organization', 'organization.id', 'member.organizationId')
    .select(['member.organizationId as accountId', 'organization.name', 'account.team_member_limit as limit'])
    .where('member.userId', '=', userId)
    .where(sql<SqlBool>`not ${seated}`)
    .orderBy('member.createdAt', 'asc')
    .execute();
  return rows.map((r) => ({ accountId: r.accountId, name: r.name, limit: r.limit }));
}

/**
 * The caller's active account. A user may belong to several: the personal account sign-up gave
 * them, plus any they joined by accepting an invitation. In order of preference:
 *  1. the session's active account (better-auth's session.activeOrganizationId, which accepting an
 *     invitation sets), while the user is still a member of it;
 *  2. the account they most recently joined by invitation (a non-owner membership), so an invitee
 *     who signs in again lands in the shared team rather than in the empty personal account;
 *  3. their oldest membership (their own account).
 * Removal from a team drops that membership, so the choice falls back to the user's own account.
 * So does a seat past the account's team size (spec section 6: team_member_limit, owner included),
 * as when a plan falls to a smaller one (a refund, a downgrade at renewal, a cancelled period's end):
 * owners always keep theirs, then the earliest members; the others work in no account of that team
 * until an upgrade (or the removal of a member) gives them a seat again.
 */
export async function resolveMembership(db: Db, userId: string, sessionId: string | null = null): Promise<Membership | null> {
  const rows = await db
    .selectFrom('member')
    .innerJoin('account', 'account.id', 'member.organizationId')
    .leftJoin('session', (join) =>
      join.on('session.id', '=', sessionId ?? '').onRef('session.activeOrganizationId', '=', 'member.organizationId'),
    )
    .select(['member.organizationId as accountId', 'member.role', 'account.plan', 'member.createdAt', 'session.id as activeSessionId'])
    .where('member.userId', '=', userId)
    .where(seated)
    .orderBy('member.createdAt', 'asc')
    .execute();
  const row =
    rows.find((r) => r.activeSessionId !== null) ??
    rows.filter((r) => r.role !== 'owner').at(-1) ??
    rows[0];
  return row ? { accountId: row.accountId, role: row.role as Role, plan: row.plan } : null;
}


export interface AccountChoice {
  accountId: string;
  /** The account's display name (its organization's name). */
  name: string;
  role: Role;
  plan: Plan;
  /** Whether this is the account the caller's session is working in now (resolveMembership's choice). */
  active: boolean;
}

/** The accounts the user can work in (a seated membership in each), oldest membership first: the account switcher's list. */
export async function listAccountChoices(db: Db, userId: string, sessionId: string | null): Promise<AccountChoice[]> {
  const [rows, current] = await Promise.all([
    db
      .selectFrom('member')
      .innerJoin('account', 'account.id', 'member.organizationId')
      .innerJoin('organization', 'organization.id', 'member.organizationId')
      .select(['member.organizationId as accountId', 'organization.name', 'member.role', 'account.plan'])
      .where('member.userId', '=', userId)
      .where(seated)
      .orderBy('member.createdAt', 'asc')
      .orderBy('member.id', 'asc')
      .execute(),
    resolveMembership(db, userId, sessionId),
  ]);
  return rows.map((r) => ({ accountId: r.accountId, name: r.name, role: r.role as Role, plan: r.plan, active: r.accountId === current?.accountId }));
}

export type SwitchOutcome = { status: 'switched'; membership: Membership } | { status: 'not_member' } | { status: 'seatless'; name: string };

/**
 * Makes `accountId` the active account of this one session (better-auth's session.activeOrganizationId),
 * only while the user holds a seat there: the check and the write are one statement, so a removal
 * or a seat lost in between leaves the session as it was. Other sessions of the user are untouched.
 */
export async function switchActiveAccount(db: Db, o: { userId: string; sessionId: string; accountId: string }): Promise<SwitchOutcome> {
  const updated = await db
    .updateTable('session')
    .set({ activeOrganizationId: o.accountId })
    .where('session.id', '=', o.sessionId)
    .where('session.userId', '=', o.userId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('member')
          .innerJoin('account', 'account.id', 'member.organizationId')
          .select('member.id')
          .where('member.userId', '=', o.userId)
          .where('member.organizationId', '=', o.accountId)
          .where(seated),
      ),
    )
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) {
    const membership = await resolveMembership(db, o.userId, o.sessionId);
    if (membership?.accountId === o.accountId) return { status: 'switched', membership };
  }
  const seatless = (await seatlessMemberships(db, o.userId)).find((m) => m.accountId === o.accountId);
  return seatless ? { status: 'seatless', name: seatless.name } : { status: 'not_member' };
}

/**
 * A change sent from a page that shows another account than the session's active one (switched in
 * another tab of the browser, which shares the session, or the user was removed from that team) is
 * refused: made here it would land in the active account, unseen. Callers that name no account
 * (scripts, tests) are not checked.
 */
export async function assertShownAccount(db: Db, userId: string, shown: string | null | undefined, activeAccountId: string): Promise<void> {
  if (!shown || shown === activeAccountId) return;
  const stillIn = (await memberRole(db, shown, userId)) !== null;
  throw new AppError('CONFLICT', stillIn ? ACCOUNT_CHANGED_MESSAGE : ACCOUNT_LEFT_MESSAGE, { details: { accountChanged: true } });
}

/** The user's role in the account, or null when they are no member of it or hold no seat there. */
export async function memberRole(db: Db, accountId: string, userId: string): Promise<Role | null> {
  const row = await db
    .selectFrom('member')
    .innerJoin('account', 'account.id', 'member.organizationId')
    .select('member.role')
    .where('member.organizationId', '=', accountId)
    .where('member.userId', '=', userId)
    .where(seated)
    .executeTakeFirst();
  return row ? (row.role as Role) : null;
}
