// A year of credits (issue #10): a month of a paid plan is granted once, whichever door reaches it
// (the charge that starts a period, an annual plan's monthly refill, the calendar quota reset, a
// replayed webhook, the checkout handler). Both crons run every simulated day for a year against the
// fake Razorpay's signed webhooks; the balances must come out exact: 12 grants a year, one a month.
import { describe, expect, it } from 'vitest';
import { planByType } from '../../server/contracts/plans';
import { billingTick } from '../../server/features/billing/billing-tick';
import { takeCredits } from '../../server/features/credits/credits';
import { resetMonthlyQuotas } from '../../server/features/credits/monthly-reset';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

const DAY = 86_400;
const PRO = planByType('pro').monthlyValidations; // 100,000, rollover
const STARTER = planByType('starter').monthlyValidations; // 10,000, no rollover
const USE = 1_000; // validations used each month
const T0 = Date.UTC(2027, 0, 31, 10, 0, 0) / 1000; // Jan 31: month starts clamp to Feb 28, Apr 30, …

describe('a year of monthly grants', () => {
  let n = 0;
  const webhookSecret = 'whsec_year_1';
  const { ts, rzp } = razorpayServer(webhookSecret);

  async function subscribe(plan: 'pro' | 'starter', interval: 'monthly' | 'annual') {
    const client = await signUpVerified(ts, { email: `year-${++n}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: plan, interval })).body.result.data;
    return { client, accountId, subscriptionId: co.subscriptionId as string };
  }
  const balance = async (id: string) => (await ts.testDb.db.selectFrom('account').select('credits_balance').where('id', '=', id).executeTakeFirstOrThrow()).credits_balance;
  const grants = (id: string) => ts.testDb.db.selectFrom('credit_grant').select(['period_start', 'credits', 'payment_id']).where('account_id', '=', id).orderBy('period_start').execute();
  /** Both crons, as the worker runs them, at a simulated moment. */
  const crons = async (at: number) => {
    const now = new Date(at * 1000);
    await billingTick(ts.server.deps, now);
    await resetMonthlyQuotas(ts.testDb.db, now);
  };
  const use = (id: string) => ts.testDb.db.transaction().execute((trx) => takeCredits(trx, id, USE));

  it('annual: the charge grants month 0 and the refills months 1–11 on the period’s own month starts, once each — 12 in the year, exact balances', { timeout: 120_000 }, async () => {
    const { client, accountId, subscriptionId } = await subscribe('pro', 'annual');
    rzp.setNow(T0);
    const proof = await rzp.pay(subscriptionId);
    // The checkout handler's answer for the same payment, and a replayed charge: nothing more.
    expect((await client.trpcMutation('billing.verifyPayment', proof)).body.result.data.alreadyProcessed).toBe(true);
    await rzp.deliver(rzp.sent.find((s) => s.event === 'subscription.charged')!);
    let expected = 500 + PRO; // the Free balance is kept on the upgrade
    expect(await balance(accountId)).toBe(expected);

    // Every day for a year, both crons; usage mid-month. The balance is checked every day.
    let granted = 1;
    for (let day = 0; day < 365; day++) {
      const at = T0 + day * DAY + 3600;
      await crons(at);
      const now = (await grants(accountId)).length;
      expect(now - granted).toBeLessThanOrEqual(1); // never two grants on one day
      expected += (now - granted) * PRO;
      granted = now;
      if (new Date(at * 1000).getUTCDate() === 15) {
        await use(accountId);
        expected -= USE;
      }
      expect(await balance(accountId)).toBe(expected);
    }
    const months = await grants(accountId);
    expect(months.map((m) => m.period_start)).toEqual([
      '2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30',
      '2027-07-31', '2027-08-31', '2027-09-30', '2027-10-31', '2027-11-30', '2027-12-31',
    ]);
    expect(months.every((m) => m.credits === PRO)).toBe(true);
    expect(months[0]!.payment_id).toBe(proof.razorpay_payment_id);
    expect(await balance(accountId)).toBe(expected); // Pro rolls over: each month added its 100,000
    expect(expected).toBe(500 + 12 * PRO - 12 * USE);

    // The renewal a year on starts the next period: month 0 of year two, once, even with the crons
    // and a replay on the same day.
    const sub = rzp.subscriptions.get(subscriptionId)!;
    const yearEnd = sub.current_end!;
    expect(yearEnd).toBe(Date.UTC(2028, 0, 31, 10, 0, 0) / 1000);
    await crons(yearEnd + 60); // before the charge arrives: month 12 belongs to the new period
    expect(await balance(accountId)).toBe(expected);
    rzp.setNow(yearEnd);
    await rzp.renew(subscriptionId);
    await rzp.deliver(rzp.sent.filter((s) => s.event === 'subscription.charged').at(-1)!);
    await crons(yearEnd + 3600);
    await crons(yearEnd + 20 * DAY);
    expect(await balance(accountId)).toBe(expected + PRO);
    expect((await grants(accountId)).map((m) => m.period_start).slice(-2)).toEqual(['2027-12-31', '2028-01-31']);
  });

  it('monthly: each charge grants its month; the crons add nothing — 12 in the year, exact balances (no rollover: the balance resets)', { timeout: 120_000 }, async () => {
    const { accountId, subscriptionId } = await subscribe('starter', 'monthly');
    rzp.setNow(T0);
    await rzp.pay(subscriptionId);
    expect(await balance(accountId)).toBe(500 + STARTER);
    const sub = rzp.subscriptions.get(subscriptionId)!;
    let charges = 1;
    for (let day = 0; day < 365; day++) {
      const at = T0 + day * DAY + 3600;
      if (sub.current_end! <= at) {
        rzp.setNow(sub.current_end!);
        await rzp.renew(subscriptionId);
        charges++;
        expect(await balance(accountId)).toBe(STARTER); // Starter does not roll over
      }
      await crons(at);
      if (new Date(at * 1000).getUTCDate() === 15) await use(accountId);
    }
    expect(charges).toBe(12);
    const months = await grants(accountId);
    expect(months).toHaveLength(12);
    expect(months.every((m) => m.credits === STARTER && m.payment_id !== null)).toBe(true);
    expect(await balance(accountId)).toBe(STARTER - USE); // the last period (from Jan 3) had its mid-month usage
    const charged = await ts.testDb.db.selectFrom('audit_log').select('id').where('account_id', '=', accountId).where('action', '=', 'billing.charged').execute();
    expect(charged).toHaveLength(12);
  });
});
