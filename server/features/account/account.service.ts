// The signed-in user's account: the Overview's numbers, the profile, and deleting it all.
// Transport-free (no tRPC, no Express): routers map inputs to these calls.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../../db/client';
import { isUnlimited, planByType } from '../../contracts/plans';
import { TEXT_CONTROLS } from '../../contracts/text-controls';
import { AppError } from '../../lib/app-error';
import { resolveTimeZone } from '../reporting/time-zone';
import type { AppDeps } from '../../deps';
import { revokeKeysOfLeavingUser } from '../api-keys/api-keys.service';
import { deleteEndpointsOfLeavingUser } from '../webhooks/webhooks.service';
import { pauseSchedulesOfLeavingUser } from '../schedules/schedules-of-leavers';
import { writeAudit } from '../audit/audit';
import { gatewayFor, stopSubscriptionsOf } from '../billing/billing-gateway';
import { chargedDuringDeletion, paymentsOf, refundDeletedAccountCharges } from '../billing/deleted-account-charges';
import { lockAccountBilling } from '../billing/billing-locks';
import { hasAnyValidation, recentSingleChecks, validationsPerDay } from '../validation/validation.queries';
import { accountById, hasApiKey, ownedAccounts, passOwnership, profileByUserId, recentJobs, saveProfile } from './account.queries';

export const RECENT_ACTIVITY_LIMIT = 10;
export const CHART_DAYS = 30;

export type ActivityItem =
  | { kind: 'check'; id: string; email: string; result: 'valid' | 'invalid' | 'risky'; deliverability_score: number; at: string }
  | { kind: 'job'; id: string; filename: string; status: 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled'; total_emails: number; processed_emails: number; at: string };

export interface Overview {
  plan: string;
  plan_name: string;
  credits_balance: number;
  monthly_validations_quota: number;
  quota_unlimited: boolean;
  monthly_validations_used: number;
  /** Percent of the monthly quota used, rounded to one decimal (0 when unlimited). */
  usage_percent: number;
  usage_period_start: string;
  recent_activity: ActivityItem[];
  getting_started: { account_created: true; first_validation: boolean; api_key_created: boolean };
  validations_per_day: Array<{ date: string; count: number }>;
}

export function usagePercent(used: number, quota: number): number {
  if (quota <= 0 || isUnlimited(quota)) return 0;
  return Math.round((used / quota) * 1000) / 10;
}


export async function accountOverview(db: Db, accountId: string, o: { timeZone?: string } = {}): Promise<Overview> {
  const account = await accountById(db, accountId);
  if (!account) throw new AppError('NOT_A_MEMBER', 'User account not found');
  // An IANA zone both the runtime and PostgreSQL know ('Europe/Paris'); anything else is UTC.
  const timeZone = (await resolveTimeZone(db, o.timeZone)) ?? 'UTC';
  const [checks, jobs, validated, apiKey, perDay] = await Promise.all([
    recentSingleChecks(db, accountId, RECENT_ACTIVITY_LIMIT),
    recentJobs(db, accountId, RECENT_ACTIVITY_LIMIT),
    hasAnyValidation(db, accountId),
    hasApiKey(db, accountId),
    validationsPerDay(db, accountId, CHART_DAYS, timeZone),
  ]);
  const activity: Array<ActivityItem & { sortAt: number }> = [
    ...checks.map((c) => ({ kind: 'check' as const, id: String(c.id), email: c.email, result: c.result, deliverability_score: c.deliverability_score, at: c.checked_at.toISOString(), sortAt: c.checked_at.getTime() })),
    ...jobs.map((j) => ({ kind: 'job' as const, id: j.id, filename: j.filename, status: j.status, total_emails: j.total_emails, processed_emails: j.processed_emails, at: j.created_at.toISOString(), sortAt: j.created_at.getTime() })),
  ];
  activity.sort((a, b) => b.sortAt - a.sortAt);
  const plan = planByType(account.plan);
  return {
    plan: account.plan,
    plan_name: plan.name,
    credits_balance: account.credits_balance,
    monthly_validations_quota: account.monthly_validations_quota,
    quota_unlimited: isUnlimited(account.monthly_validations_quota),
    monthly_validations_used: account.monthly_validations_used,
    usage_percent: usagePercent(account.monthly_validations_used, account.monthly_validations_quota),
    usage_period_start: account.usage_period_start,
    recent_activity: activity.slice(0, RECENT_ACTIVITY_LIMIT).map(({ sortAt: _sortAt, ...item }) => item),
    getting_started: { account_created: true, first_validation: validated, api_key_created: apiKey },
    validations_per_day: perDay,
  };
}

/** The account's plan, credits, quota, usage and team limit (account.me). */
export async function accountSummary(db: Db, accountId: string) {
  return db
    .selectFrom('account')
    .select(['plan', 'credits_balance', 'monthly_validations_quota', 'monthly_validations_used', 'team_member_limit'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
}

export async function getProfile(db: Db, userId: string) {
  const profile = await profileByUserId(db, userId);
  if (!profile) throw new AppError('NOT_FOUND', 'User not found');
  return profile;
}

export const PROFILE_FIELD_MAX = 200;

function cleanField(label: string, value: string, required: boolean): string {
  const v = value.trim();
  if (required && v === '') throw new AppError('BAD_INPUT', `${label} is required.`);
  if (v.length > PROFILE_FIELD_MAX) throw new AppError('BAD_INPUT', `${label} must be at most ${PROFILE_FIELD_MAX} characters.`);
  // Shown to teammates: no text-direction character either (U+202E drew the text after it backwards).
  if (TEXT_CONTROLS.test(v)) throw new AppError('BAD_INPUT', `${label} cannot contain line breaks, control characters or text-direction characters.`);
  return v;
}

/** Spec "Settings": full name and company name are editable; the email is not. */
export async function updateProfile(db: Db, o: { userId: string; accountId: string; full_name: string; company_name: string }) {
  const full_name = cleanField('Full name', o.full_name, true);
  const company_name = cleanField('Company name', o.company_name, false);
  await db.transaction().execute(async (trx) => {
    await saveProfile(trx, o.userId, { full_name, company_name });
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'profile.updated', targetType: 'user', targetId: o.userId, data: { full_name, company_name } });
  });
  return getProfile(db, o.userId);
}

export const DELETE_CONFIRMATION = 'DELETE';

export interface DeleteOutcome {
  /** Accounts removed with everything in them (those the user was the only owner of). */
  deleted_accounts: number;
}

/**
 * Deletes the user. Every account the user is the only owner of goes with them (organization →
 * account → results, jobs, schedules, API keys, members and invitations cascade). An account with
 * another owner keeps its data: account.owner_id passes to that owner (the column no longer
 * cascades, so a user row can never take an account with it). In accounts they merely belong to,
 * only their membership goes, the API keys they created anywhere are revoked and the webhook endpoints they added deleted. Sessions, credentials, 2FA and the profile cascade from the user
 * row; the free_grant record stays (free credits once per person). The caller checked the password.
 */
export async function deleteUserAndOwnedAccounts(deps: AppDeps, o: { userId: string; email: string }): Promise<DeleteOutcome> {
  const { db } = deps;
  // First their subscriptions stop at Razorpay (or nothing is deleted): no renewal for a gone account.
  const soleOwnedIds = (await ownedAccounts(db, o.userId)).filter((a) => a.otherOwners === 0).map((a) => a.accountId);
  const paid = await paymentsOf(db, soleOwnedIds);
  const stoppedSubscriptions = await stopSubscriptionsOf(deps, soleOwnedIds);
  let owed: Array<{ paymentId: string; amount: number }> = [];
  const deleted = await db.transaction().execute(async (trx) => {
    // Serialise with a concurrent provisioning or second delete of the same user.
    await trx.selectFrom('user').select('id').where('id', '=', o.userId).forUpdate().executeTakeFirst();
    const owned = await ownedAccounts(trx, o.userId);
    const soleOwned = owned.filter((a) => a.otherOwners === 0);
    // Each account's billing lock first (billing-locks.ts), in one order: Razorpay's
    // subscription.cancelled for a subscription just stopped, applied meanwhile, takes it before the
    // subscription and account rows this delete removes — without it the two deadlock (a 500).
    for (const id of soleOwned.map((a) => a.accountId).toSorted()) await lockAccountBilling(trx, id);
    // A renewal charged and applied while its subscription was being stopped goes back to the card.
    owed = await chargedDuringDeletion(trx, { accountIds: soleOwned.map((a) => a.accountId), stopped: stoppedSubscriptions, paid });
    for (const a of soleOwned) {
      await trx.deleteFrom('organization').where('id', '=', a.accountId).execute();
    }
    // In the accounts that stay, the schedules they created are paused (before the user row goes, and
    // created_by with it; and before passOwnership locks account rows: a run locks its schedule, then the account).
    await pauseSchedulesOfLeavingUser(trx, { userId: o.userId, actorUserId: null, reason: 'user_deleted' });
    const passed = await passOwnership(trx, o.userId);
    // In the accounts that stay (ownership passed, or they were a member), their API keys stop working.
    await revokeKeysOfLeavingUser(trx, { userId: o.userId, actorUserId: null, reason: 'user_deleted' });
    // … and the webhook endpoints they added there are deleted: the account's events stop going to a URL they chose.
    await deleteEndpointsOfLeavingUser(trx, { userId: o.userId, actorUserId: null, reason: 'user_deleted' });
    // A few rows that name this user must not block the delete.
    await trx.deleteFrom('invitation').where('inviterId', '=', o.userId).execute();
    await trx.deleteFrom('user').where('id', '=', o.userId).execute();
    await writeAudit(trx, {
      accountId: null,
      actorUserId: null,
      action: 'user.deleted',
      targetType: 'user',
      targetId: o.userId,
      data: { deleted_accounts: soleOwned.map((a) => ({ id: a.accountId, members_removed: a.otherMembers })), ownership_passed: passed, subscriptions_stopped: stoppedSubscriptions },
    });
    for (const p of passed) {
      await writeAudit(trx, { accountId: p.accountId, actorUserId: null, actor: 'system', action: 'account.owner_changed', targetType: 'account', targetId: p.accountId, data: { from: o.userId, to: p.to } });
    }
    return soleOwned.length;
  });
  await refundDeletedAccountCharges(db, gatewayFor(deps), owed);
  // Uploaded files live under validation-files/{userId}/ (bucket folder inside the storage root,
  // or the storage root itself): remove them once the rows are gone.
  for (const root of [path.resolve(deps.storageDir, 'validation-files'), path.resolve(deps.storageDir)]) {
    const dir = path.resolve(root, o.userId);
    if (path.dirname(dir) === root) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
  return { deleted_accounts: deleted };
}
