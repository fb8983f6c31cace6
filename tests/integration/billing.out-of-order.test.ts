// Razorpay delivers webhooks at least once and in no promised order: the charge of an older period
// can arrive after the charge of the newer one (a retried delivery). It is a payment to record, not
// a new period: the account's current period, plan, usage and credits never move backwards.
import { describe, expect, it } from 'vitest';
import { planByType } from '../../server/contracts/plans';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;
const DAY = 86_400;

describe('subscription.charged of an older period delivered after a newer one', () => {
  const { ts, rzp } = razorpayServer('whsec_out_of_order');

  const account = (id: string) =>
    ts.testDb.db
      .selectFrom('account')
      .select(['plan', 'credits_balance', 'monthly_validations_used', 'monthly_validations_quota', 'usage_period_start', 'current_period_end', 'subscription_status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('keeps the current period’s usage, credits, end and plan; the late payment is recorded', async () => {
    const client = await signUpVerified(ts, { email: email('late-charge'), name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    const t0 = Math.floor(Date.now() / 1000) - 62 * DAY;
    rzp.setNow(t0);
    await rzp.pay(co.subscriptionId);

    // Renewal 1 (Starter) is charged, but its webhook is held back by Razorpay's retries.
    rzp.setNow(t0 + 31 * DAY);
    const late = rzp.renewHeld(co.subscriptionId);
    // The owner moves up to Pro at the next renewal (chosen while period 2 runs: the server's clock
    // sees the period it knows of, period 1, running too); renewal 2 (Pro) is charged and delivered.
    const known = (await account(accountId)).current_period_end;
    await ts.testDb.db.updateTable('account').set({ current_period_end: new Date(Date.now() + DAY * 1000) }).where('id', '=', accountId).execute();
    const change = await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(change.body.result.data.kind).toBe('scheduled');
    await ts.testDb.db.updateTable('account').set({ current_period_end: known }).where('id', '=', accountId).execute();
    rzp.setNow(t0 + 61 * DAY);
    await rzp.renew(co.subscriptionId);
    const current = await account(accountId);
    expect(current).toMatchObject({ plan: 'pro', monthly_validations_quota: planByType('pro').monthlyValidations, subscription_status: 'active' });

    // The team uses the current period.
    await ts.testDb.db.updateTable('account').set({ monthly_validations_used: 1_234, credits_balance: current.credits_balance - 1_234 }).where('id', '=', accountId).execute();
    const used = await account(accountId);

    // Renewal 1's charge finally arrives.
    expect(await rzp.deliver(late.charged)).toBe(200);
    const after = await account(accountId);
    expect(after, 'an older period’s charge moved the account backwards').toEqual(used);
    const pay = await ts.testDb.db.selectFrom('payment').select(['status', 'plan']).where('id', '=', late.paymentId).executeTakeFirst();
    expect(pay, 'the late payment is on the payments list').toEqual({ status: 'captured', plan: 'starter' });
    const sub = await ts.testDb.db.selectFrom('subscription').select(['plan']).where('id', '=', co.subscriptionId).executeTakeFirstOrThrow();
    expect(sub.plan).toBe('pro');
    // The same late charge again changes nothing either.
    expect(await rzp.deliver({ ...late.charged, id: `${late.charged.id}_again` })).toBe(200);
    expect(await account(accountId)).toEqual(used);
  });
});
