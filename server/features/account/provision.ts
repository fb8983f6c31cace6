// Every user gets one account at sign-up: the organization (better-auth's team model), the owner
// membership, the account row and the profile, in ONE transaction. The 500 free credits come with
// it once per person: free_grant records every user ever provisioned and, per normalised email,
// the one grant it ever had. So a deleted account, a team left, a re-sign-up with the same mailbox
// (or a +tag/dotted spelling of it) or any request path can never produce a second grant, and a
// user who had an account is never silently given a fresh one.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { FREE_SIGNUP_CREDITS, planByType } from '../../contracts/plans';
import { writeAudit } from '../audit/audit';
import { freeGrantEmailKey } from './email-key';

export type ProvisionOutcome =
  | { status: 'member'; accountId: string; role: string }
  | { status: 'created'; accountId: string; role: 'owner'; credits: number }
  /** The user had an account before (deleted since): nothing is created. */
  | { status: 'deleted' };

interface NewUser {
  id: string;
  name: string;
  email: string;
}

/**
 * Provisions the user's own account unless they have (or had) one. With `reopen`, a user whose
 * account was deleted gets a new, empty Free account (no credits) to start a paid plan from.
 */
export async function provisionAccount(db: Db, user: NewUser, o: { reopen?: boolean } = {}): Promise<ProvisionOutcome> {
  return db.transaction().execute(async (trx) => {
    // Serialise concurrent provisioning of the same user (sign-up hook racing a first request).
    await trx.selectFrom('user').select('id').where('id', '=', user.id).forUpdate().executeTakeFirst();
    const existing = await trx
      .selectFrom('member')
      .select(['organizationId', 'role'])
      .where('userId', '=', user.id)
      .orderBy('createdAt', 'asc')
      .executeTakeFirst();
    if (existing) return { status: 'member', accountId: existing.organizationId, role: existing.role };
    const before = await trx.selectFrom('free_grant').select(['user_id']).where('user_id', '=', user.id).executeTakeFirst();
    if (before && !o.reopen) return { status: 'deleted' };

    const emailKey = freeGrantEmailKey(user.email);
    // One grant per email key, whoever asks at the same moment.
    await sql`select pg_advisory_xact_lock(hashtextextended(${`free_grant:${emailKey}`}, 0))`.execute(trx);
    const granted = before
      ? true // a reopened account never gets the free credits again
      : (await trx.selectFrom('free_grant').select('user_id').where('email_key', '=', emailKey).where('granted_at', 'is not', null).executeTakeFirst()) !== undefined;
    const credits = granted ? 0 : FREE_SIGNUP_CREDITS;

    const free = planByType('free');
    const accountId = randomUUID();
    const now = new Date();
    const name = user.name.trim() ? `${user.name.trim().slice(0, 80)}'s account` : user.email;
    await trx.insertInto('organization').values({ id: accountId, name, slug: `acct-${accountId}`, logo: null, metadata: null, createdAt: now }).execute();
    await trx.insertInto('member').values({ id: randomUUID(), organizationId: accountId, userId: user.id, role: 'owner', createdAt: now }).execute();
    await trx
      .insertInto('account')
      .values({
        id: accountId,
        owner_id: user.id,
        plan: 'free',
        credits_balance: credits,
        monthly_validations_quota: free.monthlyValidations,
        team_member_limit: free.teamMemberLimit,
      })
      .execute();
    await trx
      .insertInto('profile')
      .values({ id: user.id, full_name: user.name.trim().slice(0, 200) })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    if (before) {
      await trx.updateTable('free_grant').set({ account_id: accountId }).where('user_id', '=', user.id).execute();
    } else {
      await trx
        .insertInto('free_grant')
        .values({ user_id: user.id, email_key: emailKey, account_id: accountId, credits, granted_at: credits > 0 ? now : null })
        .execute();
    }
    await writeAudit(trx, {
      accountId,
      actorUserId: user.id,
      action: before ? 'account.reopened' : 'account.created',
      targetType: 'account',
      targetId: accountId,
      data: { plan: 'free', credits, ...(credits === 0 ? { free_credits: 'already granted to this email' } : {}) },
    });
    return { status: 'created', accountId, role: 'owner', credits };
  });
}
