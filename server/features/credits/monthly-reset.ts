// The monthly reset (quota-reset cron, backfilled): a new usage period for every account still in an older
// one. monthly_validations_used goes to 0; credits per plans.ts: paid plans get their monthly
// validations (plans with rollover add them to the unused balance; unlimited stays unlimited);
// free gets nothing. Keyed on usage_period_start, so running twice in a month changes nothing.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { PLANS, UNLIMITED } from '../../contracts/plans';
import { MAX_CREDITS_BALANCE } from './credits';

export function periodStart(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

export async function resetMonthlyQuotas(db: Db, now: Date): Promise<Array<{ id: string; plan: string; credits_balance: number }>> {
  const period = periodStart(now);
  const plans = sql.join(PLANS.map((p) => sql`(${p.type}::text, ${p.monthlyValidations}::int, ${p.rollover}::boolean)`));
  return db.transaction().execute(async (trx) => {
    const r = await sql<{ id: string; plan: string; credits_balance: number; before: number }>`
      with p(plan, monthly, rollover) as (values ${plans}),
      old as (select id, credits_balance from account where usage_period_start < ${period}::date
        -- subscriptions refill on their own months (credit_grant, keyed per month): monthly ones on
        -- their charges, annual ones k months after their period's start (billing-tick); a
        -- suspended account gets nothing until it pays
        and not (billing_interval is not null and subscription_status in ('active','past_due'))
        and subscription_status <> 'suspended'
        for update)
      update account a set
        credits_balance = case
          when a.plan = 'free' then a.credits_balance
          when p.monthly >= ${UNLIMITED} then greatest(a.credits_balance, p.monthly)
          when p.rollover then least(a.credits_balance::bigint + p.monthly, ${MAX_CREDITS_BALANCE})::int
          else p.monthly end,
        monthly_validations_used = 0,
        monthly_validations_quota = p.monthly,
        usage_period_start = ${period}::date,
        updated_at = now()
      from p, old
      where p.plan = a.plan and old.id = a.id
      returning a.id, a.plan, a.credits_balance, old.credits_balance as before`.execute(trx);
    if (r.rows.length > 0) {
      await trx
        .insertInto('audit_log')
        .values(
          r.rows.map((row) => ({
            account_id: row.id,
            actor: 'system',
            action: 'quota.reset',
            target_type: 'account',
            target_id: row.id,
            actor_user_id: null,
            data: JSON.stringify({ period, plan: row.plan, credits_before: row.before, credits_after: row.credits_balance }),
          })),
        )
        .execute();
    }
    return r.rows.map(({ id, plan, credits_balance }) => ({ id, plan, credits_balance }));
  });
}

