// The billing clock (worker cron billing-tick, every 10 minutes): grace periods that ended, paused
// and cancelled plans whose paid period is over, and the monthly refills of annual plans. What
// Razorpay tells us is applied in billing-webhook.ts; this is what the passing of time decides.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { isUnlimited, planByType } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { addMonthsClamped } from '../../lib/dates';
import { writeAudit } from '../audit/audit';
import { grantPeriodMonth } from '../credits/credits';
import { endIfDue, suspendIfPausedAndDue } from './subscription-lifecycle';
import { sendBillingMails, type BillingMail } from './billing-mail';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Annual plans are charged once a year but hold a monthly quota: month k (1–11) of the paid period
 * starts k months after the period's start and refills the plan's monthly credits then (rollover
 * plans add). Each month is keyed `period:<subscription>:<month start>` in credit_grant — the same
 * key as the charge that starts a period (month 0) — so a month is granted once, however often this
 * runs, and a year holds exactly 12 grants. Months missed while the worker was down are granted in
 * order. Suspended accounts get nothing until they pay.
 */
export async function refillAnnualMonths(db: Kysely<Database>, now: Date): Promise<Array<{ accountId: string; monthStart: string }>> {
  const cutoff = new Date(now.getTime() - 27 * DAY).toISOString().slice(0, 10);
  const candidates = await db
    .selectFrom('account')
    .select('account.id')
    .where('account.billing_interval', '=', 'annual')
    .where('account.subscription_status', 'in', ['active', 'past_due'])
    .where('account.subscription_id', 'is not', null)
    .where('account.usage_period_start', '<=', cutoff)
    .execute();
  const granted: Array<{ accountId: string; monthStart: string }> = [];
  for (const c of candidates) {
    await db.transaction().execute(async (trx) => {
      // The subscription whose paid period is running: the account's own, or — while a resumed plan's
      // new subscription waits for its start — the one it follows, whose year is still being served.
      const a = await trx
        .selectFrom('account')
        .innerJoin('subscription as next', 'next.id', 'account.subscription_id')
        .innerJoin('subscription', (join) =>
          join.on((eb) => eb('subscription.id', '=', eb.case().when(eb.and([eb('next.follows_id', 'is not', null), eb('next.current_start', 'is', null)])).then(eb.ref('next.follows_id')).else(eb.ref('next.id')).end())),
        )
        .select(['account.id', 'account.plan', 'account.billing_interval', 'account.subscription_status', 'subscription.id as subId', 'subscription.current_start', 'subscription.current_end'])
        .where('account.id', '=', c.id)
        .forUpdate('account') // the account only: a charge locks the subscription before the account
        .executeTakeFirst();
      if (!a || a.billing_interval !== 'annual' || !a.current_start || (a.subscription_status !== 'active' && a.subscription_status !== 'past_due')) return;
      const plan = planByType(a.plan);
      for (let k = 1; k <= 11; k++) {
        const monthStart = addMonthsClamped(a.current_start, k);
        if (monthStart > now || (a.current_end && monthStart >= a.current_end)) break;
        const r = await grantPeriodMonth(trx, a.id, { subscriptionId: a.subId, paymentId: null, monthStart, monthly: plan.monthlyValidations, rollover: plan.rollover, upgrade: false, unlimited: isUnlimited(plan.monthlyValidations) });
        if (!r.granted) continue;
        const day = monthStart.toISOString().slice(0, 10);
        granted.push({ accountId: a.id, monthStart: day });
        await writeAudit(trx, { accountId: a.id, actor: 'system', actorUserId: null, action: 'quota.reset', targetType: 'account', targetId: a.id, data: { period: day, plan: a.plan, month: k, subscription_id: a.subId, credits_after: r.balance } });
      }
    });
  }
  return granted;
}

/**
 * billing-tick (worker cron, every 10 minutes; payload { now? } for a fake clock): past_due accounts
 * whose grace ended are suspended, and so are accounts whose paused subscription's paid period is
 * over; cancelled plans whose period ended fall to Free; annual plans
 * get the monthly refills that are due (refillAnnualMonths).
 */
export async function billingTick(deps: AppDeps, now: Date): Promise<{ suspended: string[]; fellToFree: string[]; refilled: Array<{ accountId: string; monthStart: string }> }> {
  const mails: BillingMail[] = [];
  const result = await deps.db.transaction().execute(async (trx) => {
    const suspended = await trx
      .updateTable('account')
      .set({ subscription_status: 'suspended', updated_at: new Date() })
      .where('subscription_status', '=', 'past_due')
      .where('grace_ends_at', '<=', now)
      .returning('id')
      .execute();
    for (const r of suspended) {
      await writeAudit(trx, { accountId: r.id, actor: 'system', actorUserId: null, action: 'billing.suspended', targetType: 'account', targetId: r.id, data: { at: now.toISOString() } });
      mails.push({ accountId: r.id, kind: 'suspended' });
    }
    const due = await trx
      .selectFrom('account')
      .select('id')
      .where('cancel_at_period_end', '=', true)
      .where('current_period_end', '<=', now)
      .forUpdate()
      .execute();
    const fell: string[] = [];
    for (const r of due) if (await endIfDue(trx, r.id, now)) fell.push(r.id);
    const paused = await trx
      .selectFrom('account')
      .innerJoin('subscription', 'subscription.id', 'account.subscription_id')
      .select('account.id')
      .where('subscription.status', '=', 'paused')
      .where('account.subscription_status', '=', 'active')
      .where('account.current_period_end', '<=', now)
      .execute();
    const pausedSuspended: string[] = [];
    for (const r of paused) if (await suspendIfPausedAndDue(trx, r.id, now)) pausedSuspended.push(r.id);
    return { suspended: [...suspended.map((r) => r.id), ...pausedSuspended], fellToFree: fell };
  });
  await sendBillingMails(deps, mails);
  const refilled = await refillAnnualMonths(deps.db, now);
  return { ...result, refilled };
}
