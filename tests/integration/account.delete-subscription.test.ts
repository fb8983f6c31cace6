// Deleting an account whose owner pays a live Razorpay subscription stops that subscription at
// Razorpay first; otherwise the customer keeps being charged for an account that is gone.
import { describe, expect, it } from 'vitest';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

describe('delete account with a live subscription', () => {
  const { ts, rzp } = razorpayServer('whsec_delete_sub');

  it('cancels the Razorpay subscription when the owner deletes the account (no further renewals charged)', async () => {
    const client = await signUpVerified(ts, { email: 'del-sub@example.com', name: 'Payer', password: 'secret123' });
    const co = (await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' })).body.result.data;
    const subscriptionId = co.subscriptionId as string;
    await rzp.pay(subscriptionId);
    expect(rzp.subscriptions.get(subscriptionId)!.status).toBe('active');

    const del = await client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' });
    if (del.status !== 200) {
      // Also acceptable: deletion refused while a paid subscription runs (the account and its billing stay intact).
      expect(del.status).toBeGreaterThanOrEqual(400);
      expect(del.status).toBeLessThan(500);
      const sub = await ts.testDb.db.selectFrom('subscription').select('id').where('id', '=', subscriptionId).executeTakeFirst();
      expect(sub?.id).toBe(subscriptionId);
      return;
    }
    expect(del.body.result.data.deleted_accounts).toBe(1);

    // Expected: the subscription was stopped at Razorpay (cancel call), so it cannot renew.
    const cancels = rzp.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscriptionId}/cancel`);
    expect(cancels.length, 'no cancel request reached Razorpay for the deleted account\'s subscription').toBeGreaterThan(0);
    expect(rzp.subscriptions.get(subscriptionId)!.status).toBe('cancelled');
  });

  it('when Razorpay cannot stop the subscription, nothing is deleted and the user is told', async () => {
    const client = await signUpVerified(ts, { email: 'del-sub-down@example.com', name: 'Payer', password: 'secret123' });
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    await rzp.pay(co.subscriptionId as string);
    rzp.failNext(500);
    const del = await client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' });
    expect(del.status).toBe(503);
    expect(del.body.error.message).toMatch(/^Your subscription could not be stopped at Razorpay, so nothing was deleted/);
    expect(await ts.testDb.db.selectFrom('user').select('id').where('email', '=', 'del-sub-down@example.com').executeTakeFirst()).toBeDefined();
    expect(rzp.subscriptions.get(co.subscriptionId as string)!.status).toBe('active');
  });
});
