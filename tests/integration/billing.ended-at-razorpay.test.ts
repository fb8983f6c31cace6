// closeOpenCheckouts and stopSubscriptionsOf cancel at Razorpay every subscription our row
// still calls live. When Razorpay has already ended one (a cancelled-at-period-end subscription at
// its cycle end, whose subscription.cancelled webhook is not applied yet), Razorpay answers 400
// "not cancellable in cancelled status" and the account can neither be deleted nor buy again.
import { describe, expect, it } from 'vitest';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

describe('subscriptions Razorpay already ended (review)', () => {
  const { ts, rzp } = razorpayServer('whsec_review_ended');

  it('deleting the account after a cancelled-at-period-end subscription ended at Razorpay succeeds', async () => {
    const client = await signUpVerified(ts, { email: 'ended-del@example.com', name: 'Payer', password: 'secret123' });
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    await rzp.pay(co.subscriptionId);
    expect((await client.trpcMutation('billing.cancel')).status).toBe(200);
    // The cycle ends at Razorpay; its subscription.cancelled webhook has not been applied yet.
    rzp.subscriptions.get(co.subscriptionId)!.status = 'cancelled';

    const del = await client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' });
    expect({ status: del.status, message: del.body.error?.message ?? null }).toEqual({ status: 200, message: null });
  });

  it('a new checkout after an earlier unpaid one that Razorpay already closed opens', async () => {
    const client = await signUpVerified(ts, { email: 'ended-co@example.com', name: 'Payer' });
    const a = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    // Closed at Razorpay (say, from Razorpay's dashboard); its webhook not applied yet.
    rzp.subscriptions.get(a.subscriptionId)!.status = 'cancelled';
    const b = await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect({ status: b.status, message: b.body.error?.message ?? null }).toEqual({ status: 200, message: null });
  });
});
