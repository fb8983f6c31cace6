// Cancelling while a renewal is unpaid (past due, or suspended): there is no paid period left to run
// to, so the subscription stops at Razorpay at once. Cancelled "at the cycle end" instead, Razorpay
// went on retrying the unpaid renewal: a retry that went through charged the customer who had
// cancelled and put the account back on the plan, renewing, as if they never had.
import { describe, expect, it } from 'vitest';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

describe('cancelling an unpaid subscription', () => {
  const { ts, rzp } = razorpayServer('whsec_cancel_unpaid');
  const account = (id: string) => ts.testDb.db.selectFrom('account').select(['plan', 'subscription_status', 'subscription_id', 'cancel_at_period_end']).where('id', '=', id).executeTakeFirstOrThrow();

  it('past due, then cancelled: stopped at Razorpay at once (no retry can charge it), the account is on Free', async () => {
    const client = await signUpVerified(ts, { email: `cancel-unpaid-${Date.now().toString(36)}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000) - 31 * 86_400);
    await rzp.pay(co.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    await rzp.failRenewal(co.subscriptionId);
    expect((await account(accountId)).subscription_status).toBe('past_due');

    const cancel = await client.trpcMutation('billing.cancel');
    expect(cancel.status).toBe(200);
    expect(cancel.body.result.data.endedNow).toBe(true);
    const stop = rzp.requests.filter((r) => r.path === `/v1/subscriptions/${co.subscriptionId}/cancel`).at(-1);
    expect(stop?.body.cancel_at_cycle_end, 'left to Razorpay’s retries until the cycle end').toBeFalsy();
    expect(rzp.subscriptions.get(co.subscriptionId)!.status).toBe('cancelled');
    expect(await account(accountId)).toMatchObject({ plan: 'free', subscription_status: 'none', subscription_id: null });
    const overview = (await client.trpcQuery('billing.overview')).body.result.data;
    expect(overview).toMatchObject({ plan: 'free', status: 'none', cancelAtPeriodEnd: false });
  });
});
