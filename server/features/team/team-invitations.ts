// A team's invitations (better-auth `invitation` rows, the spec's team_invitations): listed, sent and
// accepted through better-auth's organization API (so its mail hook and checks run), previewed for the
// sign-in page, cancelled as plain rows scoped to the caller's account. Members: team.service.ts.
import { APIError } from 'better-auth/api';
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { isUnlimited } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { PERMISSION_DENIED_MESSAGES } from '../../contracts/permissions';
import { mayMailMailbox } from '../account/auth-mail-throttle';
import { writeAudit } from '../audit/audit';
import { parseInvitationRef, proofHolds } from './invitation-ref';
import { sendInvitationMail } from './invitation-mail';
import { TEAM_MESSAGES, type InviteRole } from './team.service';
import { lockTeam, pendingInvitationCap, teamMemberLimit, teamSeats } from './team-seats';

export interface TeamInvitation {
  id: string;
  account_id: string;
  email: string;
  role: InviteRole;
  created_at: Date;
  expires_at: Date;
  /** Always null here: the list holds only invitations neither accepted nor rejected. */
  accepted_at: null;
  rejected_at: null;
  expired: boolean;
}

/** Pending invitations (neither accepted nor rejected), newest first; expired ones are flagged. */
export async function listPendingInvitations(db: Db, accountId: string): Promise<TeamInvitation[]> {
  const rows = await db
    .selectFrom('invitation')
    .select(['id', 'organizationId', 'email', 'role', 'createdAt', 'expiresAt'])
    .where('organizationId', '=', accountId).where('status', '=', 'pending')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    account_id: r.organizationId,
    email: r.email,
    role: r.role === 'admin' ? 'admin' : 'member',
    created_at: new Date(r.createdAt),
    expires_at: new Date(r.expiresAt),
    accepted_at: null,
    rejected_at: null,
    expired: new Date(r.expiresAt).getTime() <= now,
  }));
}

interface AuthApiError {
  statusCode: number;
  message: string;
  body?: { code?: string; message?: string };
}

/** better-auth's API errors (better-call APIError): an HTTP status and a body with a code. */
function asAuthError(err: unknown): AuthApiError | null {
  if (err instanceof APIError) return err as unknown as AuthApiError;
  if (err && typeof err === 'object' && typeof (err as { statusCode?: unknown }).statusCode === 'number') return err as AuthApiError;
  return null;
}

function authErrorCode(err: unknown): string | undefined {
  return asAuthError(err)?.body?.code;
}

function isClientAuthError(err: unknown): err is AuthApiError {
  const e = asAuthError(err);
  return e !== null && e.statusCode >= 400 && e.statusCode < 500;
}

/**
 * Sends an invitation through better-auth, never holding a connection of the pool while better-auth
 * works: it draws on the same pool, and invites that each held one (waiting on the team's lock, or
 * on better-auth) while the lock's holder waited for better-auth's connection hung the whole server
 * once the pool's 20 were taken (one tRPC batch of 20 invites did it). So: the checks under the
 * team's lock, committed; better-auth stores and mails the invitation; then, under the lock again,
 * it is kept only while the cap on waiting invitations holds (the earliest are kept) and the inviter
 * is still a manager of the account (removeMember withdraws the invitations of whom it removes).
 * Only then, once that is committed, is the invitation mailed (invitation-mail.ts): a refused one
 * was mailed already, its link then "no longer valid".
 */
export async function inviteMember(
  deps: AppDeps,
  o: { accountId: string; userId: string; headers: Headers; email: string; role: InviteRole },
): Promise<TeamInvitation> {
  const email = o.email.toLowerCase();
  await deps.db.transaction().execute(async (trx) => {
    await lockTeam(trx, o.accountId);
    const seats = await teamSeats(trx, o.accountId);
    if (!isUnlimited(seats.limit) && seats.members >= seats.limit) throw new AppError('PLAN_REQUIRED', TEAM_MESSAGES.limit(seats.limit));
    const cap = pendingInvitationCap(seats.limit);
    if (seats.invitations >= cap) throw new AppError('CONFLICT', TEAM_MESSAGES.tooManyInvitations(cap));
    // An expired invitation to the same address is dead weight: replace it with the new one.
    await trx
      .deleteFrom('invitation')
      .where('organizationId', '=', o.accountId)
      .where('email', '=', email)
      .where('status', '=', 'pending')
      .where('expiresAt', '<=', new Date())
      .execute();
    // Refusals better-auth would make, made here first, so they spend nothing of the address's mails below.
    const member = await trx
      .selectFrom('member')
      .innerJoin('user', 'user.id', 'member.userId')
      .select('member.id')
      .where('member.organizationId', '=', o.accountId)
      .where(sql<boolean>`lower("user".email) = ${email}`)
      .executeTakeFirst();
    if (member) throw new AppError('CONFLICT', TEAM_MESSAGES.alreadyMember);
    const waiting = await trx
      .selectFrom('invitation')
      .select('id')
      .where('organizationId', '=', o.accountId)
      .where(sql<boolean>`lower(email) = ${email}`)
      .where('status', '=', 'pending')
      .where('expiresAt', '>', new Date())
      .executeTakeFirst();
    if (waiting) throw new AppError('CONFLICT', TEAM_MESSAGES.alreadyInvited);
    // Cancel-and-invite-again must not turn the invitation mail (with the account's name in it) into
    // a way to flood an address: a few an hour per address from one account. Counted last, so a
    // refused invitation (say, an existing member) spends nothing.
    if (!(await mayMailMailbox(trx, `invite:${o.accountId}`, email))) throw new AppError('RATE_LIMITED', TEAM_MESSAGES.tooManyToAddress);
  });
  let created: { id: string };
  const startedAt = new Date(Date.now() - 1000);
  try {
    // better-auth checks the inviter's role in this account, refuses existing members and
    // duplicate invitations and stores the invitation (it sends no mail: see below).
    created = await deps.auth.api.createInvitation({ headers: o.headers, body: { email, role: o.role, organizationId: o.accountId } });
  } catch (err) {
    const code = authErrorCode(err);
    if (code === 'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION') throw new AppError('CONFLICT', TEAM_MESSAGES.alreadyMember);
    if (code === 'USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION') throw new AppError('CONFLICT', TEAM_MESSAGES.alreadyInvited);
    if (code === 'INVALID_EMAIL') throw new AppError('BAD_INPUT', 'Please enter a valid email address');
    if (code === 'INVITATION_LIMIT_REACHED') {
      throw new AppError('CONFLICT', TEAM_MESSAGES.tooManyInvitations(pendingInvitationCap(await teamMemberLimit(deps.db, o.accountId))));
    }
    if (isClientAuthError(err)) throw new AppError('BAD_INPUT', err.body?.message || err.message || 'Failed to send invitation');
    // Whatever better-auth stored of it must not be left taking a place.
    console.error('[team] invitation failed:', err);
    await deps.db
      .deleteFrom('invitation')
      .where('organizationId', '=', o.accountId)
      .where('email', '=', email)
      .where('status', '=', 'pending')
      .where('createdAt', '>=', startedAt)
      .execute();
    throw new AppError('UPSTREAM_UNAVAILABLE', 'Failed to send invitation');
  }
  const outcome = await deps.db.transaction().execute(async (trx) => {
    await lockTeam(trx, o.accountId);
    const inviter = await trx.selectFrom('member').select('role').where('organizationId', '=', o.accountId).where('userId', '=', o.userId).executeTakeFirst();
    const cap = pendingInvitationCap(await teamMemberLimit(trx, o.accountId));
    const kept = await trx
      .selectFrom('invitation')
      .select('id')
      .where('organizationId', '=', o.accountId)
      .where('status', '=', 'pending')
      .where('expiresAt', '>', new Date())
      .orderBy('createdAt')
      .orderBy('id')
      .limit(cap)
      .execute();
    const removed = !inviter || (inviter.role !== 'owner' && inviter.role !== 'admin');
    if (removed || !kept.some((k) => k.id === created.id)) {
      // Invites at the same moment went past the cap (this one came later), or the inviter was removed meanwhile.
      // (Refused after this transaction commits the deletion.)
      await trx.deleteFrom('invitation').where('id', '=', created.id).where('status', '=', 'pending').execute();
      return { refused: removed ? new AppError('PERMISSION_DENIED', PERMISSION_DENIED_MESSAGES['team.manage']!) : new AppError('CONFLICT', TEAM_MESSAGES.tooManyInvitations(cap)) };
    }
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'team.invitation_sent', targetType: 'invitation', targetId: created.id, data: { email, role: o.role } });
    const row = await trx
      .selectFrom('invitation')
      .select(['id', 'organizationId', 'email', 'role', 'createdAt', 'expiresAt'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    const invitation: TeamInvitation = {
      id: row.id,
      account_id: row.organizationId,
      email: row.email,
      role: row.role === 'admin' ? 'admin' : 'member',
      created_at: new Date(row.createdAt),
      expires_at: new Date(row.expiresAt),
      accepted_at: null,
      rejected_at: null,
      expired: false,
    };
    return { invitation };
  });
  if ('refused' in outcome) throw outcome.refused;
  await mailInvitation(deps, { ...o, invitationId: outcome.invitation.id, email });
  return outcome.invitation;
}

/**
 * The kept invitation's mail. Through a relay it goes after the answer, as better-auth's mails do
 * (a failed send is logged: the admin can cancel and invite again); the dev outbox is a local
 * insert, kept in line, and an invitation whose mail could not be stored is withdrawn.
 */
async function mailInvitation(deps: AppDeps, o: { accountId: string; userId: string; invitationId: string; email: string }): Promise<void> {
  const sending = (async () => sendInvitationMail({ db: deps.db, mailer: deps.mailer, baseURL: deps.baseURL, secret: (await deps.auth.$context).secret }, o.invitationId))();
  if (deps.mailer.transport === 'smtp') {
    void sending.catch((err: unknown) => console.error('[team] invitation mail failed:', err));
    return;
  }
  try {
    await sending;
  } catch (err) {
    console.error('[team] invitation mail failed:', err);
    await deps.db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('invitation').where('id', '=', o.invitationId).where('status', '=', 'pending').returning('id').executeTakeFirst();
      if (gone) await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'team.invitation_cancelled', targetType: 'invitation', targetId: gone.id, data: { email: o.email, reason: 'mail_failed' } });
    });
    throw new AppError('UPSTREAM_UNAVAILABLE', 'Failed to send invitation');
  }
}

/** Cancelling deletes the invitation (spec section 4); only this account's pending ones. */
export async function cancelInvitation(db: Db, o: { accountId: string; userId: string; invitationId: string }): Promise<{ id: string }> {
  const { id } = parseInvitationRef(o.invitationId);
  return db.transaction().execute(async (trx) => {
    const gone = await trx
      .deleteFrom('invitation')
      .where('id', '=', id)
      .where('organizationId', '=', o.accountId)
      .where('status', '=', 'pending')
      .returning(['id', 'email'])
      .executeTakeFirst();
    if (!gone) throw new AppError('NOT_FOUND', TEAM_MESSAGES.invitationNotFound);
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'team.invitation_cancelled', targetType: 'invitation', targetId: gone.id, data: { email: gone.email } });
    return { id: gone.id };
  });
}

export interface InvitationPreview {
  status: 'pending' | 'expired' | 'accepted' | 'invalid';
  /** When it stops working (pending and expired ones; the sign-in page says so). */
  expiresAt: string | null;
  accountName: string | null;
  email: string | null;
  role: InviteRole | null;
}

/** What the invitation link is about, for the sign-in page (the id is the unguessable secret). */
export async function previewInvitation(db: Db, invitationRef: string): Promise<InvitationPreview> {
  const { id: invitationId } = parseInvitationRef(invitationRef);
  const inv = await db
    .selectFrom('invitation').innerJoin('organization', 'organization.id', 'invitation.organizationId')
    .select(['invitation.status', 'invitation.expiresAt', 'invitation.email', 'invitation.role', 'organization.name'])
    .where('invitation.id', '=', invitationId)
    .executeTakeFirst();
  if (!inv || (inv.status !== 'pending' && inv.status !== 'accepted')) return { status: 'invalid', expiresAt: null, accountName: null, email: null, role: null };
  const status = inv.status === 'accepted' ? 'accepted' : new Date(inv.expiresAt).getTime() <= Date.now() ? 'expired' : 'pending';
  return { status, expiresAt: status === 'accepted' ? null : new Date(inv.expiresAt).toISOString(), accountName: inv.name, email: inv.email, role: inv.role === 'admin' ? 'admin' : 'member' };
}

/**
 * The signed-in, verified user accepts an invitation sent to their address: through better-auth
 * (which adds the member row and makes the account the session's active one).
 */
export async function acceptInvitation(
  deps: AppDeps,
  o: { user: { id: string; email: string; emailVerified: boolean }; headers: Headers; invitationId: string },
): Promise<{ accountId: string; accountName: string; role: InviteRole; alreadyMember: boolean }> {
  const ref = parseInvitationRef(o.invitationId);
  const inv = await deps.db
    .selectFrom('invitation')
    .innerJoin('organization', 'organization.id', 'invitation.organizationId')
    .select(['invitation.id', 'invitation.organizationId', 'invitation.email', 'invitation.role', 'invitation.status', 'invitation.expiresAt', 'organization.name'])
    .where('invitation.id', '=', ref.id)
    .executeTakeFirst();
  if (!inv || inv.status !== 'pending') throw new AppError('NOT_FOUND', TEAM_MESSAGES.invitationInvalid);
  if (!proofHolds((await deps.auth.$context).secret, inv.id, ref.proof)) throw new AppError('PERMISSION_DENIED', TEAM_MESSAGES.openMailedLink);
  if (new Date(inv.expiresAt).getTime() <= Date.now()) throw new AppError('BAD_INPUT', TEAM_MESSAGES.invitationExpired);
  if (inv.email.toLowerCase() !== o.user.email.toLowerCase() || !o.user.emailVerified) throw new AppError('PERMISSION_DENIED', TEAM_MESSAGES.wrongRecipient(inv.email));
  const role: InviteRole = inv.role === 'admin' ? 'admin' : 'member';

  const existing = await deps.db.selectFrom('member').select('id').where('organizationId', '=', inv.organizationId).where('userId', '=', o.user.id).executeTakeFirst();
  if (existing) {
    // Already in (e.g. accepted in another tab): settle the invitation, switch to the account.
    await deps.db.updateTable('invitation').set({ status: 'accepted' }).where('id', '=', inv.id).where('status', '=', 'pending').execute();
    await deps.auth.api.setActiveOrganization({ headers: o.headers, body: { organizationId: inv.organizationId } });
    return { accountId: inv.organizationId, accountName: inv.name, role, alreadyMember: true };
  }

  // Seats are taken on acceptance (spec section 6), never holding a database connection while
  // better-auth works (it draws on the same pool: connections held across its call, waiting on a
  // lock, starved it and hung the server): the seat is checked, taken through better-auth, then
  // checked again under the team's lock. Of invitees who took the last seat at the same moment, the
  // earliest members keep their seats and the others are turned back, their invitations pending again.
  const before = await teamSeats(deps.db, inv.organizationId);
  if (!isUnlimited(before.limit) && before.members >= before.limit) throw new AppError('PLAN_REQUIRED', TEAM_MESSAGES.teamFull(before.limit));
  try {
    await deps.auth.api.acceptInvitation({ headers: o.headers, body: { invitationId: inv.id } });
  } catch (err) {
    const code = authErrorCode(err);
    if (code === 'INVITATION_NOT_FOUND') throw new AppError('NOT_FOUND', TEAM_MESSAGES.invitationInvalid);
    if (code === 'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION') throw new AppError('PERMISSION_DENIED', TEAM_MESSAGES.wrongRecipient(inv.email));
    if (code === 'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED') throw new AppError('PLAN_REQUIRED', TEAM_MESSAGES.teamFull(before.limit));
    if (isClientAuthError(err)) throw new AppError('BAD_INPUT', err.body?.message || err.message || TEAM_MESSAGES.invitationInvalid);
    throw err;
  }
  const seated = await deps.db.transaction().execute(async (trx) => {
    await lockTeam(trx, inv.organizationId);
    const seats = await teamSeats(trx, inv.organizationId);
    if (isUnlimited(seats.limit) || seats.members <= seats.limit) return { kept: true, limit: seats.limit };
    const first = await trx.selectFrom('member').select('userId').where('organizationId', '=', inv.organizationId).orderBy('createdAt').orderBy('id').limit(seats.limit).execute();
    if (first.some((m) => m.userId === o.user.id)) return { kept: true, limit: seats.limit };
    await trx.deleteFrom('member').where('organizationId', '=', inv.organizationId).where('userId', '=', o.user.id).execute();
    await trx.updateTable('invitation').set({ status: 'pending' }).where('id', '=', inv.id).execute();
    return { kept: false, limit: seats.limit };
  });
  if (!seated.kept) throw new AppError('PLAN_REQUIRED', TEAM_MESSAGES.teamFull(seated.limit));
  await writeAudit(deps.db, { accountId: inv.organizationId, actorUserId: o.user.id, action: 'team.invitation_accepted', targetType: 'invitation', targetId: inv.id, data: { email: inv.email, role } });
  return { accountId: inv.organizationId, accountName: inv.name, role, alreadyMember: false };
}
