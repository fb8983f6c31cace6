// An account whose cancelled plan ran out (billing-tick moved it to Free) before Razorpay's
// subscription.cancelled for the cycle's end reached us — Razorpay does not promise when, or that it
// comes before anything else — subscribes again. The old subscription, still "active" in our rows,
// is not a payment in progress: it was the plan that just ended.
import { describe, expect, it } from 'vitest';
import { billingTick } from '../../server/features/billing/billing-tick';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

const DAY = 86_400;

describe('subscribing again after a cancelled plan fell to Free', () => {
  const { ts, rzp } = razorpayServer('whsec_after_free');

  it('the ended plan’s subscription.cancelled not heard of yet: the new checkout opens, and the late webhook changes nothing', async () => {
    const client = await signUpVerified(ts, { email: `after-free-${Date.now().toString(36)}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const first = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000) - 31 * DAY);
    await rzp.pay(first.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    expect((await client.trpcMutation('billing.cancel')).status).toBe(200);
    await billingTick(ts.server.deps, new Date());
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ plan: 'free', status: 'none' });

    const again = await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(again.body.result.data.subscriptionId));
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ plan: 'starter', status: 'active', cancelAtPeriodEnd: false });

    // Razorpay's word on the ended one, late: the new plan is untouched.
    await rzp.endSubscription(first.subscriptionId);
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ plan: 'starter', status: 'active', cancelAtPeriodEnd: false });
    const a = await ts.testDb.db.selectFrom('account').select('subscription_id').where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(a.subscription_id).toBe(again.body.result.data.subscriptionId);
  });
});
