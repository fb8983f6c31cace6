// Operator changes to an account (the `mailvet accounts set-plan` and `grant-credits` commands).
// Each is one transaction with an audit entry (actor 'operator'); credits go through features/credits.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { PLAN_RANK, UNLIMITED, isUnlimited, planByType, type PlanType } from '../../contracts/plans';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { balanceAfterPlanGrant, grantCredits, grantCreditsOnce } from '../credits/credits';

/** The account named by id or by its owner's email. */
export async function resolveAccountRef(db: Db, ref: string): Promise<{ id: string; plan: PlanType; credits_balance: number; owner_email: string }> {
  const q = db
    .selectFrom('account')
    .innerJoin('user', 'user.id', 'account.owner_id')
    .select(['account.id', 'account.plan', 'account.credits_balance', 'user.email as owner_email']);
  const row = ref.includes('@') ? await q.where(sql`lower(${sql.ref('user.email')})`, '=', ref.trim().toLowerCase()).executeTakeFirst() : await q.where('account.id', '=', ref.trim()).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', `No account found for "${ref}" (give an account id or the owner's email).`);
  return row;
}

export async function setPlan(db: Db, ref: string, plan: PlanType, o: { grantCredits?: boolean } = {}) {
  return db.transaction().execute(async (trx) => {
    const account = await resolveAccountRef(trx, ref);
    // A plan paid through Razorpay is the subscription's: its next renewal would set that plan again
    // (and charge the card on top of the deal), and a cancelled one moves the account to Free at its
    // period's end. It is stopped and detached first.
    const billing = await trx.selectFrom('account').select(['subscription_id', 'plan']).where('id', '=', account.id).forUpdate().executeTakeFirstOrThrow();
    if (billing.subscription_id !== null) {
      throw new AppError(
        'CONFLICT',
        `This account pays for its ${planByType(billing.plan).name} plan with the Razorpay subscription ${billing.subscription_id}: its next renewal would put that plan back and charge the card again (a cancelled one moves the account to Free when its period ends). ` +
          `Stop the subscription first — cancel it at once in Razorpay's dashboard, then run \`mailvet accounts set-billing ${account.id} --status none\` — and set the plan again.`,
      );
    }
    const def = planByType(plan);
    const upgrade = PLAN_RANK[plan] > PLAN_RANK[account.plan];
    const grant = upgrade && o.grantCredits !== false ? def.monthlyValidations : 0;
    const fromUnlimited = isUnlimited(planByType(account.plan).monthlyValidations);
    const after = balanceAfterPlanGrant(account.credits_balance, grant, UNLIMITED, { fromUnlimited, monthly: def.monthlyValidations });
    await trx
      .updateTable('account')
      .set({ plan, monthly_validations_quota: def.monthlyValidations, team_member_limit: def.teamMemberLimit, credits_balance: after, updated_at: new Date() })
      .where('id', '=', account.id)
      .execute();
    await writeAudit(trx, {
      accountId: account.id,
      actor: 'operator',
      action: 'account.plan_set',
      targetType: 'account',
      targetId: account.id,
      data: { from_plan: account.plan, plan, credits_before: account.credits_balance, credits_after: after, team_member_limit: def.teamMemberLimit, monthly_validations_quota: def.monthlyValidations },
    });
    return { accountId: account.id, from: account.plan, plan, creditsBefore: account.credits_balance, creditsAfter: after, teamMemberLimit: def.teamMemberLimit, quota: def.monthlyValidations };
  });
}

const GRANT_KEY = /^[\x21-\x7e]{1,200}$/;

/**
 * Adds n credits. With `key` (an idempotency key: a ticket number, a deal id) the grant happens once:
 * the command run again with that key (a retry after a lost connection) grants nothing more and says
 * so; the key with another amount is refused.
 */
export async function grantAccountCredits(db: Db, ref: string, n: number, o: { key?: string } = {}) {
  if (o.key !== undefined && !GRANT_KEY.test(o.key)) throw new AppError('BAD_INPUT', 'The key must be 1–200 visible ASCII characters (no spaces).');
  return db.transaction().execute(async (trx) => {
    const account = await resolveAccountRef(trx, ref);
    if (o.key !== undefined) {
      const once = await grantCreditsOnce(trx, account.id, n, o.key);
      if (once.kind === 'already') {
        if (once.credits !== n) throw new AppError('CONFLICT', `The key ${o.key} was already used for a grant of ${once.credits} credits to this account; use a new key for another grant.`);
        return { accountId: account.id, creditsBefore: once.balance, creditsAfter: once.balance, alreadyGranted: true };
      }
      await writeAudit(trx, { accountId: account.id, actor: 'operator', action: 'account.credits_granted', targetType: 'account', targetId: account.id, data: { credits: n, credits_before: once.before, credits_after: once.after, key: o.key } });
      return { accountId: account.id, creditsBefore: once.before, creditsAfter: once.after, alreadyGranted: false };
    }
    const { before, after } = await grantCredits(trx, account.id, n);
    await writeAudit(trx, { accountId: account.id, actor: 'operator', action: 'account.credits_granted', targetType: 'account', targetId: account.id, data: { credits: n, credits_before: before, credits_after: after } });
    return { accountId: account.id, creditsBefore: before, creditsAfter: after, alreadyGranted: false };
  });
}
