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

  it('a retry Razorpay charged just before that stop, heard of after it, is refunded and the account stays on Free', async () => {
    const client = await signUpVerified(ts, { email: `cancel-unpaid-race-${Date.now().toString(36)}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000) - 31 * 86_400);
    await rzp.pay(co.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000) - 60);
    await rzp.failRenewal(co.subscriptionId);
    const credits = (await ts.testDb.db.selectFrom('account').select('credits_balance').where('id', '=', accountId).executeTakeFirstOrThrow()).credits_balance;
    // Razorpay's retry goes through a moment before the owner's cancel reaches it; its webhook comes after.
    const { paymentId, charged } = rzp.renewHeld(co.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    const cancel = await client.trpcMutation('billing.cancel');
    expect(cancel.body.result.data.endedNow).toBe(true);

    expect(await rzp.deliver(charged)).toBe(200);
    await rzp.settled();
    // The owner was told the unpaid renewal is not charged again and the account is on Free at once.
    expect(await account(accountId)).toMatchObject({ plan: 'free', subscription_status: 'none', subscription_id: null, cancel_at_period_end: false });
    expect((await ts.testDb.db.selectFrom('account').select('credits_balance').where('id', '=', accountId).executeTakeFirstOrThrow()).credits_balance).toBe(credits);
    expect(rzp.refunds.filter((r) => r.payment_id === paymentId).map((r) => r.amount), 'charged after cancelling, and kept').toEqual([co.amount]);
    const payments = (await client.trpcQuery('billing.payments')).body.result.data as Array<{ id: string; status: string }>;
    expect(payments.find((p) => p.id === paymentId)?.status).toBe('refunded');
  });
});
