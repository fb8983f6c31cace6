// One live subscription per account: two checkouts opened while the account is still Free (two
// tabs, or an abandoned Starter checkout completed after a Pro one) must never both be paid, or the
// customer is billed twice and each renewal of the older one moves the account back to its plan.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { billingTick } from '../../server/features/billing/billing-tick';
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

  it('a late subscription.authenticated of a checkout we already closed does not bring it back to block every later checkout', async () => {
    const client = await signUpVerified(ts, { email: `late-auth-${Date.now().toString(36)}@example.com`, name: 'Payer' });
    const a = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    const authenticatedEarlier = rzp.build('subscription.authenticated', { subscription: { entity: { id: a.subscriptionId, entity: 'subscription', status: 'authenticated' } } }, { createdAt: Math.floor(Date.now() / 1000) - 30 });
    // A second checkout closes A (cancelled at Razorpay, which ends a subscription for good) …
    const b = (await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' })).body.result.data;
    expect(rzp.subscriptions.get(a.subscriptionId)!.status).toBe('cancelled');
    // … then A's delayed webhook from before that arrives.
    expect(await rzp.deliver(authenticatedEarlier)).toBe(200);
    const status = (await ts.testDb.db.selectFrom('subscription').select('status').where('id', '=', a.subscriptionId).executeTakeFirstOrThrow()).status;
    expect(status, 'a subscription ended at Razorpay came back to life here').toBe('cancelled');
    const c = await client.trpcMutation('billing.checkout', { planType: 'business', interval: 'monthly' });
    expect({ status: c.status, message: c.body.error?.message ?? null }).toEqual({ status: 200, message: null });
    expect(b.kind).toBe('subscribe');
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

describe('paying again from the Billing page when a renewal went unpaid', () => {
  const { ts, rzp } = razorpayServer('whsec_pay_again');
  const account = (id: string) =>
    ts.testDb.db.selectFrom('account').select(['plan', 'subscription_id', 'subscription_status', 'grace_ends_at', 'credits_balance']).where('id', '=', id).executeTakeFirstOrThrow();

  for (const state of ['past_due', 'suspended'] as const) {
    it(`a ${state} owner can pay the same plan now: a new subscription replaces the unpaid one (stopped at Razorpay) and the service is back at once`, async () => {
      const client = await signUpVerified(ts, { email: `pay-again-${state}@example.com`, name: 'Payer' });
      const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
      const first = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
      await rzp.pay(first.subscriptionId);
      await rzp.failRenewal(first.subscriptionId);
      expect((await account(accountId)).subscription_status).toBe('past_due');
      if (state === 'suspended') {
        await rzp.halt(first.subscriptionId);
        await billingTick(ts.server.deps, new Date(Date.now() + 8 * 86_400_000));
        expect((await account(accountId)).subscription_status).toBe('suspended');
      }

      // The mail and the banner say: pay from the Billing page. The Starter card's button asks for a checkout.
      const again = await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' });
      expect(again.status).toBe(200);
      const co = again.body.result.data;
      expect(co).toMatchObject({ kind: 'subscribe', planType: 'starter' });
      expect(co.subscriptionId).not.toBe(first.subscriptionId);
      // Nothing is stopped before the new one is paid: an abandoned checkout leaves Razorpay retrying.
      expect(rzp.subscriptions.get(first.subscriptionId)!.status).not.toBe('cancelled');

      // What is left of the last paid period: the new period replaces it, as a Starter renewal does (no rollover).
      await ts.testDb.db.updateTable('account').set({ credits_balance: 1234 }).where('id', '=', accountId).execute();
      await rzp.pay(co.subscriptionId);
      expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_id: co.subscriptionId, subscription_status: 'active', grace_ends_at: null, credits_balance: 10_000 });
      // The unpaid subscription can no longer charge the card for the same service.
      expect(rzp.subscriptions.get(first.subscriptionId)!.status).toBe('cancelled');
      expect((await ts.testDb.db.selectFrom('subscription').select('status').where('id', '=', first.subscriptionId).executeTakeFirstOrThrow()).status).toBe('cancelled');
      // A higher plan on a paid-up subscription is still a change at renewal.
      expect((await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' })).body.result.data.kind).toBe('scheduled');
    });
  }
});

describe('Pay now while Razorpay’s own retry of the unpaid subscription also goes through', () => {
  const { ts, rzp } = razorpayServer('whsec_pay_now_race');
  const account = (id: string) =>
    ts.testDb.db.selectFrom('account').select(['plan', 'subscription_id', 'subscription_status', 'cancel_at_period_end', 'credits_balance']).where('id', '=', id).executeTakeFirstOrThrow();
  const payment = (id: string) => ts.testDb.db.selectFrom('payment').select(['status', 'credits_granted', 'refund_id']).where('id', '=', id).executeTakeFirstOrThrow();

  async function pastDue(tag: string) {
    const client = await signUpVerified(ts, { email: `race-${tag}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const first = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000));
    await rzp.pay(first.subscriptionId);
    await rzp.failRenewal(first.subscriptionId);
    expect((await account(accountId)).subscription_status).toBe('past_due');
    const again = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    return { client, accountId, oldSub: first.subscriptionId as string, newSub: again.subscriptionId as string };
  }

  it('the retry’s charge arriving after the new subscription was paid is refunded, grants nothing and does not stop the subscription just paid', async () => {
    const { accountId, oldSub, newSub } = await pastDue('retry-late');
    const refundsBefore = rzp.refunds.length;
    // Razorpay's retry charges the old subscription before our cancel reaches it; its webhook comes later.
    const retry = rzp.renewHeld(oldSub);
    const paid = await rzp.pay(newSub);
    expect(await account(accountId)).toMatchObject({ subscription_id: newSub, subscription_status: 'active', credits_balance: 10_000 });

    expect(await rzp.deliver(retry.charged)).toBe(200);
    // The customer keeps the subscription they just paid, with one period's credits…
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_id: newSub, subscription_status: 'active', cancel_at_period_end: false, credits_balance: 10_000 });
    expect(rzp.subscriptions.get(newSub)!.status).toBe('active');
    expect(await payment(paid.razorpay_payment_id)).toMatchObject({ status: 'captured', credits_granted: 10_000 });
    // …and the second payment for the same period goes back to them through Razorpay's refund API.
    expect(rzp.refunds.slice(refundsBefore).map((r) => r.payment_id)).toEqual([retry.paymentId]);
    await expect.poll(() => payment(retry.paymentId)).toMatchObject({ status: 'refunded', credits_granted: 0, refund_id: rzp.refunds.at(-1)!.id });
    expect(rzp.subscriptions.get(oldSub)!.status).toBe('cancelled');
    // A replay of the retry's charge changes nothing more.
    expect(await rzp.deliver({ ...retry.charged, id: `${retry.charged.id}_again` })).toBe(200);
    expect(rzp.refunds.length).toBe(refundsBefore + 1);
    expect((await account(accountId)).credits_balance).toBe(10_000);
  });

  it('the retry’s charge arriving first: the Pay now payment that follows for the same period is refunded and its subscription stopped', async () => {
    const { client, accountId, oldSub, newSub } = await pastDue('retry-first');
    const refundsBefore = rzp.refunds.length;
    await rzp.renew(oldSub);
    expect(await account(accountId)).toMatchObject({ subscription_id: oldSub, subscription_status: 'active', credits_balance: 10_000 });
    await ts.testDb.db.updateTable('account').set({ credits_balance: 9_000 }).where('id', '=', accountId).execute();

    // The checkout opened a moment earlier is completed now.
    const paid = await rzp.pay(newSub);
    const verify = await client.trpcMutation('billing.verifyPayment', paid);
    expect(verify.status).toBe(200);
    expect(verify.body.result.data).toMatchObject({ applied: false, message: 'Your subscription had already been paid for this period, so this payment is being refunded to you.' });
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_id: oldSub, subscription_status: 'active', cancel_at_period_end: false, credits_balance: 9_000 });
    expect(rzp.subscriptions.get(oldSub)!.status).toBe('active');
    expect(rzp.refunds.slice(refundsBefore).map((r) => r.payment_id)).toEqual([paid.razorpay_payment_id]);
    await expect.poll(() => payment(paid.razorpay_payment_id)).toMatchObject({ status: 'refunded', credits_granted: 0 });
    expect(rzp.subscriptions.get(newSub)!.status).toBe('cancelled');
  });

  it('both charges at the same moment: the Pay now one applies, the retry’s is refunded, and neither webhook fails on a deadlock', async () => {
    const { accountId, oldSub, newSub } = await pastDue('together');
    const refundsBefore = rzp.refunds.length;
    const retry = rzp.renewHeld(oldSub);
    const paid = rzp.payHeld(newSub);
    const waiting = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(ts.testDb.db)).rows[0]!.n);
    // Both webhooks queue behind the account row (held here a moment), the Pay now charge first.
    let deliveries: Array<Promise<number>> = [];
    await ts.testDb.db.transaction().execute(async (trx) => {
      await trx.selectFrom('account').select('id').where('id', '=', accountId).forUpdate().execute();
      deliveries = [rzp.deliver(paid.charged)];
      await expect.poll(waiting, { interval: 20, timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      deliveries.push(rzp.deliver(retry.charged));
      await expect.poll(waiting, { interval: 20, timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    });
    expect(await Promise.all(deliveries)).toEqual([200, 200]);
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_id: newSub, subscription_status: 'active', cancel_at_period_end: false, credits_balance: 10_000 });
    expect(rzp.refunds.slice(refundsBefore).map((r) => r.payment_id)).toEqual([retry.paymentId]);
    await expect.poll(() => payment(retry.paymentId)).toMatchObject({ status: 'refunded', credits_granted: 0 });
    expect(await payment(paid.paymentId)).toMatchObject({ status: 'captured', credits_granted: 10_000 });
  });

  it('a second payment Razorpay had already refunded (its refund.processed came first) is recorded refunded, not refunded again', async () => {
    const { accountId, oldSub, newSub } = await pastDue('refunded-first');
    const retry = rzp.renewHeld(oldSub);
    await rzp.pay(newSub);
    const early = await rzp.dashboardRefund(retry.paymentId); // delivered before the charge
    expect(await rzp.deliver(retry.charged)).toBe(200);
    const refund = rzp.refunds.find((r) => r.payment_id === retry.paymentId)!;
    expect(await payment(retry.paymentId)).toMatchObject({ status: 'refunded', refund_id: refund.id, credits_granted: 0 });
    expect(rzp.refunds.filter((r) => r.payment_id === retry.paymentId)).toHaveLength(1);
    expect((await ts.testDb.db.selectFrom('billing_event').select('outcome').where('id', '=', early.id).executeTakeFirstOrThrow()).outcome).toBe('refund_recorded');
    expect(await account(accountId)).toMatchObject({ subscription_id: newSub, subscription_status: 'active', credits_balance: 10_000 });
  });
});
