// One live subscription per account: two checkouts opened while the account is still Free (two
// tabs, or an abandoned Starter checkout completed after a Pro one) must never both be paid, or the
// customer is billed twice and each renewal of the older one moves the account back to its plan.
import { describe, expect, it } from 'vitest';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

describe('one subscription per account', () => {
  const { ts, rzp } = razorpayServer('whsec_one_subscription');
  const account = (id: string) => ts.testDb.db.selectFrom('account').select(['plan', 'subscription_id']).where('id', '=', id).executeTakeFirstOrThrow();

  it('a new checkout cancels an unpaid earlier one at Razorpay, so only the new one can be paid', async () => {
    const client = await signUpVerified(ts, { email: 'two-checkouts@example.com', name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const a = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    const b = (await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' })).body.result.data;
    expect([a.kind, b.kind]).toEqual(['subscribe', 'subscribe']);
    expect(rzp.subscriptions.get(a.subscriptionId)!.status).toBe('cancelled');
    expect((await ts.testDb.db.selectFrom('subscription').select('status').where('id', '=', a.subscriptionId).executeTakeFirstOrThrow()).status).toBe('cancelled');

    await expect(rzp.pay(a.subscriptionId)).rejects.toThrow(/cancelled/);
    await rzp.pay(b.subscriptionId);
    expect(await account(accountId)).toMatchObject({ plan: 'pro', subscription_id: b.subscriptionId });
    const live = [...rzp.subscriptions.values()].filter((s) => [a.subscriptionId, b.subscriptionId].includes(s.id) && s.status === 'active');
    expect(live.map((s) => s.id)).toEqual([b.subscriptionId]);
  });

  it('while an earlier checkout is being paid (authenticated, not applied yet), a second checkout waits', async () => {
    const client = await signUpVerified(ts, { email: 'paying-now@example.com', name: 'Payer' });
    const a = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    const sub = rzp.subscriptions.get(a.subscriptionId)!;
    expect(await rzp.deliver(rzp.build('subscription.authenticated', { subscription: { entity: { id: sub.id, entity: 'subscription', plan_id: sub.plan_id, status: 'authenticated' } } }))).toBe(200);
    const second = await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe('A payment for this account is being processed. Please wait a minute, then reload this page.');
    expect(rzp.subscriptions.get(a.subscriptionId)!.status).not.toBe('cancelled');
  });
});
