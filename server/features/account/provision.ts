// Every user belongs to an account. Sign-up creates the organization (better-auth's team model),
// the owner membership, the account row (plan free, 500 credits) and the profile in ONE
// transaction; the call is idempotent, so it also heals a user whose provisioning was interrupted.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/client';
import { FREE_SIGNUP_CREDITS, planByType } from '../../contracts/plans';
import { writeAudit } from '../audit/audit';

export interface ProvisionedAccount {
  accountId: string;
  role: string;
}

export async function provisionAccount(db: Db, user: { id: string; name: string; email: string }): Promise<ProvisionedAccount> {
  return db.transaction().execute(async (trx) => {
    // Serialise concurrent provisioning of the same user (sign-up hook racing a first request).
    await trx.selectFrom('user').select('id').where('id', '=', user.id).forUpdate().executeTakeFirst();
    const existing = await trx
      .selectFrom('member')
      .select(['organizationId', 'role'])
      .where('userId', '=', user.id)
      .orderBy('createdAt', 'asc')
      .executeTakeFirst();
    if (existing) return { accountId: existing.organizationId, role: existing.role };

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
        credits_balance: FREE_SIGNUP_CREDITS,
        monthly_validations_quota: free.monthlyValidations,
        team_member_limit: free.teamMemberLimit,
      })
      .execute();
    await trx
      .insertInto('profile')
      .values({ id: user.id, full_name: user.name.trim().slice(0, 200) })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await writeAudit(trx, { accountId, actorUserId: user.id, action: 'account.created', targetType: 'account', targetId: accountId, data: { plan: 'free', credits: FREE_SIGNUP_CREDITS } });
    return { accountId, role: 'owner' };
  });
}
