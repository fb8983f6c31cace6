// An annual subscription switched to monthly billing (at its renewal) goes on renewing month after
// month. Razorpay makes a subscription's total_count charges and then completes it: created annual
// (ten charges, ten years), a switch that kept its count would have ended the plan after nine
// monthly renewals, the account falling to Free without anyone choosing it.
import { describe, expect, it } from 'vitest';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

describe('switching the billing interval at the renewal', () => {
  const { ts, rzp } = razorpayServer('whsec_interval_switch');
  const account = (id: string) => ts.testDb.db.selectFrom('account').select(['plan', 'subscription_status', 'billing_interval', 'cancel_at_period_end']).where('id', '=', id).executeTakeFirstOrThrow();

  it('annual → monthly: the subscription renews monthly beyond the nine charges its annual count had left', async () => {
    const client = await signUpVerified(ts, { email: `interval-switch-${Date.now().toString(36)}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    rzp.setNow(Math.floor(Date.now() / 1000));
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'annual' })).body.result.data;
    await rzp.pay(co.subscriptionId);
    expect(await account(accountId)).toMatchObject({ plan: 'starter', billing_interval: 'annual' });

    const change = await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect(change.body.result.data.kind).toBe('scheduled');

    // The year ends; then a dozen monthly renewals.
    for (let month = 1; month <= 12; month++) {
      await rzp.renew(co.subscriptionId);
      expect(await account(accountId), `renewal ${month}`).toMatchObject({ plan: 'starter', subscription_status: 'active', billing_interval: 'monthly', cancel_at_period_end: false });
    }
    rzp.setNow(Math.floor(Date.now() / 1000));
  });
});
