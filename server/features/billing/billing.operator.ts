// Operator view and control of an account's billing state (the `mailvet accounts billing`,
// `set-billing` and `set-api-rate` commands). Every change is one transaction with an audit entry
// (actor 'operator').
import { z } from 'zod';
import type { Db } from '../../../db/client';
import type { SubscriptionState } from '../../../db/types';
import { PAST_DUE_GRACE_DAYS } from '../../contracts/plans';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';

export const subscriptionStateSchema = z.enum(['none', 'active', 'past_due', 'suspended']);

export async function billingState(db: Db, accountId: string) {
  const a = await db
    .selectFrom('account')
    .select(['id', 'plan', 'subscription_status', 'billing_interval', 'current_period_end', 'grace_ends_at', 'cancel_at_period_end', 'subscription_id', 'billing_country', 'api_rate_per_second', 'credits_balance'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!a) throw new AppError('NOT_FOUND', `No account ${accountId}.`);
  const payments = await db
    .selectFrom('payment')
    .select(['id', 'status', 'amount', 'currency', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(5)
    .execute();
  return { ...a, payments };
}

/**
 * Sets the billing state by hand (support cases): past_due starts a grace period (default 7 days),
 * active clears it, suspended stops new work, none detaches any subscription. `periodEnd` moves the
 * paid period's end.
 */
export async function setBillingState(db: Db, accountId: string, o: { status?: SubscriptionState; periodEnd?: Date; graceEndsAt?: Date; now?: Date }) {
  const now = o.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('account').select(['subscription_status', 'current_period_end', 'grace_ends_at']).where('id', '=', accountId).forUpdate().executeTakeFirst();
    if (!before) throw new AppError('NOT_FOUND', `No account ${accountId}.`);
    const status = o.status ?? before.subscription_status;
    const grace =
      status === 'past_due' ? (o.graceEndsAt ?? (before.subscription_status === 'past_due' ? before.grace_ends_at : null) ?? new Date(now.getTime() + PAST_DUE_GRACE_DAYS * 86_400_000)) : status === 'suspended' ? before.grace_ends_at : null;
    await trx
      .updateTable('account')
      .set({
        subscription_status: status,
        grace_ends_at: grace,
        ...(o.periodEnd ? { current_period_end: o.periodEnd } : {}),
        ...(status === 'none' ? { subscription_id: null, billing_interval: null, cancel_at_period_end: false } : {}),
        updated_at: now,
      })
      .where('id', '=', accountId)
      .execute();
    await writeAudit(trx, {
      accountId,
      actor: 'operator',
      action: 'billing.state_set',
      targetType: 'account',
      targetId: accountId,
      data: { from: before.subscription_status, status, grace_ends_at: grace?.toISOString() ?? null, period_end: (o.periodEnd ?? before.current_period_end)?.toISOString() ?? null },
    });
    return { from: before.subscription_status, status, graceEndsAt: grace, periodEnd: o.periodEnd ?? before.current_period_end };
  });
}

/** Enterprise's custom API rate (requests per second); null returns to the plan table's rate. */
export async function setApiRate(db: Db, accountId: string, rate: number | null) {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('account').select(['plan', 'api_rate_per_second']).where('id', '=', accountId).forUpdate().executeTakeFirst();
    if (!before) throw new AppError('NOT_FOUND', `No account ${accountId}.`);
    if (rate !== null && before.plan !== 'enterprise') throw new AppError('CONFLICT', 'Custom API rates are for Enterprise accounts; the other plans use the plan table.');
    await trx.updateTable('account').set({ api_rate_per_second: rate, updated_at: new Date() }).where('id', '=', accountId).execute();
    await writeAudit(trx, { accountId, actor: 'operator', action: 'account.api_rate_set', targetType: 'account', targetId: accountId, data: { from: before.api_rate_per_second, to: rate } });
    return { from: before.api_rate_per_second, to: rate };
  });
}
