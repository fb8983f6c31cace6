// Account, profile and activity reads/writes. Every query takes the account or user id it serves.
import type { Kysely } from 'kysely';
import type { Database, JobStatus, Plan } from '../../../db/types';
import { resolveMembership } from './membership';
import { SESSION_MAX_AGE_MS } from '../../auth/session-lifetime';

export interface AccountRow {
  plan: Plan;
  credits_balance: number;
  monthly_validations_quota: number;
  monthly_validations_used: number;
  team_member_limit: number;
  usage_period_start: string;
}

export async function accountById(db: Kysely<Database>, accountId: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('account')
    .select(['plan', 'credits_balance', 'monthly_validations_quota', 'monthly_validations_used', 'team_member_limit', 'usage_period_start'])
    .where('id', '=', accountId)
    .executeTakeFirst();
}

export interface RecentJob {
  id: string;
  filename: string;
  status: JobStatus;
  total_emails: number;
  processed_emails: number;
  created_at: Date;
}

export async function recentJobs(db: Kysely<Database>, accountId: string, limit: number): Promise<RecentJob[]> {
  return db
    .selectFrom('validation_job')
    .select(['id', 'filename', 'status', 'total_emails', 'processed_emails', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

export async function hasApiKey(db: Kysely<Database>, accountId: string): Promise<boolean> {
  const row = await db.selectFrom('api_key').select('id').where('account_id', '=', accountId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export interface ProfileView {
  email: string;
  full_name: string;
  company_name: string;
  two_factor_enabled: boolean;
}

export async function profileByUserId(db: Kysely<Database>, userId: string): Promise<ProfileView | undefined> {
  const row = await db
    .selectFrom('user').leftJoin('profile', 'profile.id', 'user.id')
    .select(['user.email', 'user.name', 'user.twoFactorEnabled', 'profile.full_name', 'profile.company_name'])
    .where('user.id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    email: row.email,
    full_name: row.full_name ?? row.name,
    company_name: row.company_name ?? '',
    two_factor_enabled: row.twoFactorEnabled === true,
  };
}

/** Saves the profile (creating it if sign-up never did) and keeps better-auth's user.name in step. */
export async function saveProfile(trx: Kysely<Database>, userId: string, p: { full_name: string; company_name: string }): Promise<void> {
  const now = new Date();
  await trx
    .insertInto('profile')
    .values({ id: userId, full_name: p.full_name, company_name: p.company_name })
    .onConflict((oc) => oc.column('id').doUpdateSet({ full_name: p.full_name, company_name: p.company_name, updated_at: now }))
    .execute();
  await trx.updateTable('user').set({ name: p.full_name, updatedAt: now }).where('id', '=', userId).execute();
}

/** Accounts (organizations) this user owns, with how many other owners and members each has. */
export async function ownedAccounts(trx: Kysely<Database>, userId: string): Promise<Array<{ accountId: string; otherOwners: number; otherMembers: number }>> {
  const owned = await trx.selectFrom('member').select('organizationId').where('userId', '=', userId).where('role', '=', 'owner').execute();
  const out: Array<{ accountId: string; otherOwners: number; otherMembers: number }> = [];
  for (const { organizationId } of owned) {
    const others = await trx.selectFrom('member').select('role').where('organizationId', '=', organizationId).where('userId', '!=', userId).execute();
    out.push({ accountId: organizationId, otherOwners: others.filter((m) => m.role === 'owner').length, otherMembers: others.length });
  }
  return out;
}

/**
 * Accounts whose owner_id is this user but which stay (another owner member exists): owner_id
 * passes to that owner (the oldest). Returns what changed.
 */
export async function passOwnership(trx: Kysely<Database>, userId: string): Promise<Array<{ accountId: string; to: string }>> {
  const accounts = await trx.selectFrom('account').select('id').where('owner_id', '=', userId).forUpdate().execute();
  const out: Array<{ accountId: string; to: string }> = [];
  for (const { id } of accounts) {
    const heir = await trx
      .selectFrom('member')
      .select('userId')
      .where('organizationId', '=', id)
      .where('userId', '!=', userId)
      .where('role', '=', 'owner')
      .orderBy('createdAt', 'asc')
      .executeTakeFirst();
    if (!heir) continue; // left for the foreign key to refuse: an account never silently loses its owner
    await trx.updateTable('account').set({ owner_id: heir.userId, updated_at: new Date() }).where('id', '=', id).execute();
    out.push({ accountId: id, to: heir.userId });
  }
  return out;
}

/**
 * The account is (still) the one the user works in: resolveMembership (membership.ts: a seated
 * membership, the session's active account first) still answers with it, so a removal, a lost seat
 * or a switch to another account ends it; and, when a session is named, that session is still live
 * (not ended, and not past its 30 days from the sign-in: server/auth/session-lifetime.ts).
 */
export async function isStillMember(db: Kysely<Database>, o: { userId: string; accountId: string; sessionId: string | null }): Promise<boolean> {
  if ((await resolveMembership(db, o.userId, o.sessionId))?.accountId !== o.accountId) return false;
  if (o.sessionId === null) return true;
  const session = await db.selectFrom('session').select('id').where('id', '=', o.sessionId).where('userId', '=', o.userId).where('expiresAt', '>', new Date()).where('createdAt', '>', new Date(Date.now() - SESSION_MAX_AGE_MS)).executeTakeFirst();
  return session !== undefined;
}
