// Deleting an account whose owner pays a live Razorpay subscription stops that subscription at
// Razorpay first; otherwise the customer keeps being charged for an account that is gone. A renewal
// Razorpay charged just before the stop, heard of once the account is gone, is given back.
import { describe, expect, it } from 'vitest';
import { reconcileBilling } from '../../server/features/billing/billing-reconcile';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

describe('delete account with a live subscription', () => {
  const { ts, rzp } = razorpayServer('whsec_delete_sub');

  /** An owner paying a monthly plan through the checkout: signed in, subscription active. */
  async function paying(email: string, planType: 'starter' | 'pro') {
    const client = await signUpVerified(ts, { email, name: 'Payer', password: 'secret123' });
    const co = (await client.trpcMutation('billing.checkout', { planType, interval: 'monthly' })).body.result.data;
    const subscriptionId = co.subscriptionId as string;
    await rzp.pay(subscriptionId);
    return { client, co, subscriptionId };
  }

  /** Razorpay's clock at the period's end and the renewal charged, its webhook held back. */
  function renewalHeld(subscriptionId: string) {
    rzp.setNow(rzp.subscriptions.get(subscriptionId)!.current_end!);
    return rzp.renewHeld(subscriptionId);
  }

  it('cancels the Razorpay subscription when the owner deletes the account (no further renewals charged)', async () => {
    const { client, subscriptionId } = await paying('del-sub@example.com', 'pro');
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

  it('a renewal Razorpay charged just before the deletion stopped it, heard of after the account is gone, is refunded in full (once)', async () => {
    const { client, co, subscriptionId } = await paying('del-sub-race@example.com', 'starter');
    // Razorpay charges the renewal; its webhook is still on its way when the owner deletes the account.
    const { paymentId, charged } = renewalHeld(subscriptionId);
    const del = await client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(rzp.subscriptions.get(subscriptionId)!.status).toBe('cancelled');

    expect(await rzp.deliver(charged)).toBe(200);
    await rzp.settled();
    const refunds = () => rzp.refunds.filter((r) => r.payment_id === paymentId);
    expect(refunds(), 'the customer paid a period of an account that no longer exists and got nothing back').toHaveLength(1);
    expect(refunds()[0]!.amount).toBe(co.amount);
    // The same charge again (a re-sent webhook under another event id): nothing refunded twice.
    const again = rzp.build('subscription.charged', JSON.parse(charged.raw).payload);
    expect(await rzp.deliver(again)).toBe(200);
    await rzp.settled();
    expect(refunds()).toHaveLength(1);
    rzp.setNow(Math.floor(Date.now() / 1000));
  });

  it('a renewal whose charge is applied while the deletion is stopping the subscription is refunded with the account', async () => {
    const { client, co, subscriptionId } = await paying('del-sub-race-between@example.com', 'starter');
    const { paymentId, charged } = renewalHeld(subscriptionId);
    // Its webhook reaches us (and is applied: a new period) while Razorpay is answering the deletion's cancel.
    rzp.beforeNextCancelAnswer(async () => expect(await rzp.deliver(charged)).toBe(200));
    const del = await client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    await rzp.settled();
    expect(rzp.sent.find((w) => w.id === charged.id)?.status).toBe(200);
    expect(rzp.refunds.filter((r) => r.payment_id === paymentId).map((r) => r.amount), 'the period just charged went with the deleted account').toEqual([co.amount]);
    rzp.setNow(Math.floor(Date.now() / 1000));
  });

  it('such a refund Razorpay would not take at first is made by the billing reconciliation', async () => {
    const { client, co, subscriptionId } = await paying('del-sub-race-retry@example.com', 'pro');
    const { paymentId, charged } = renewalHeld(subscriptionId);
    expect((await client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' })).status).toBe(200);
    rzp.failNext(500);
    expect(await rzp.deliver(charged)).toBe(200);
    expect(rzp.refunds.filter((r) => r.payment_id === paymentId)).toHaveLength(0);

    const r = await reconcileBilling(ts.server.deps, new Date());
    expect(r.refunded).toContain(paymentId);
    expect(rzp.refunds.filter((x) => x.payment_id === paymentId).map((x) => x.amount)).toEqual([co.amount]);
    // Made once: the next run finds nothing owed.
    expect((await reconcileBilling(ts.server.deps, new Date())).refunded).not.toContain(paymentId);
    await rzp.settled();
    rzp.setNow(Math.floor(Date.now() / 1000));
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
