// Webhooks lost for good (Razorpay gave up retrying, or our endpoint was down): the hourly
// reconciliation asks Razorpay (the real SDK, against the fake on 127.0.0.1) about subscriptions
// that may have missed one and applies what it holds through the webhook's own idempotent path, so
// a customer who paid gets the period and credits, and a webhook arriving after that grants nothing
// twice.
import { describe, expect, it } from 'vitest';
import { billingTick } from '../../server/features/billing/billing-tick';
import { reconcileBilling } from '../../server/features/billing/billing-reconcile';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

let n = 0;
const HOUR = 3600;

describe('billing reconciliation against Razorpay', () => {
  const { ts, rzp } = razorpayServer('whsec_reconcile_1');
  const db = () => ts.testDb.db;
  const account = (id: string) =>
    db().selectFrom('account').select(['plan', 'subscription_id', 'subscription_status', 'current_period_end', 'credits_balance', 'cancel_at_period_end']).where('id', '=', id).executeTakeFirstOrThrow();
  const grants = async (subscriptionId: string) => (await db().selectFrom('credit_grant').select('key').where('subscription_id', '=', subscriptionId).execute()).length;
  const reconcile = async (subscriptionId: string, atUnix: number) =>
    (await reconcileBilling(ts.server.deps, new Date(atUnix * 1000))).applied.filter((a) => a.subscriptionId === subscriptionId);

  async function checkout(plan: 'starter' | 'pro' = 'starter') {
    const client = await signUpVerified(ts, { email: `reconcile-${++n}-${Date.now().toString(36)}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: plan, interval: 'monthly' })).body.result.data;
    return { client, accountId, subscriptionId: co.subscriptionId as string };
  }
  async function subscribed(plan: 'starter' | 'pro' = 'starter') {
    const c = await checkout(plan);
    rzp.setNow(Math.floor(Date.now() / 1000));
    await rzp.pay(c.subscriptionId);
    return { ...c, end1: rzp.subscriptions.get(c.subscriptionId)!.current_end! };
  }

  it('a renewal whose subscription.charged never arrived is applied from Razorpay’s invoices; the webhook arriving later grants nothing twice', async () => {
    const { accountId, subscriptionId, end1 } = await subscribed('starter');
    await db().updateTable('account').set({ credits_balance: 1500 }).where('id', '=', accountId).execute();
    rzp.setNow(end1);
    const lost = rzp.renewHeld(subscriptionId); // charged at Razorpay; the webhook never reaches us
    const end2 = rzp.subscriptions.get(subscriptionId)!.current_end!;

    // Without it the customer who paid stays on the ended period with last month's credits.
    expect(await account(accountId)).toMatchObject({ current_period_end: new Date(end1 * 1000), credits_balance: 1500 });

    expect(await reconcile(subscriptionId, end1 + 2 * HOUR)).toEqual([{ subscriptionId, event: 'subscription.charged', outcome: 'charged' }]);
    // Asked through the SDK: the subscription and its invoices.
    expect(rzp.requests.some((r) => r.method === 'GET' && r.path === `/v1/subscriptions/${subscriptionId}`)).toBe(true);
    expect(rzp.requests.some((r) => r.method === 'GET' && r.path.startsWith('/v1/invoices?') && r.path.includes(`subscription_id=${subscriptionId}`))).toBe(true);
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_status: 'active', current_period_end: new Date(end2 * 1000), credits_balance: 10_000 });
    expect(await db().selectFrom('payment').select(['status', 'credits_granted', 'period_start']).where('id', '=', lost.paymentId).executeTakeFirstOrThrow()).toEqual({
      status: 'captured',
      credits_granted: 10_000,
      period_start: new Date(end1 * 1000),
    });
    expect(await grants(subscriptionId)).toBe(2);
    // Asked again: nothing left to apply (and the account is no longer a candidate).
    expect(await reconcile(subscriptionId, end1 + 3 * HOUR)).toEqual([]);

    // Razorpay's webhook finally arrives: the same payment, nothing granted twice.
    await db().updateTable('account').set({ credits_balance: 4321 }).where('id', '=', accountId).execute();
    expect(await rzp.deliver(lost.charged)).toBe(200);
    expect((await db().selectFrom('billing_event').select('outcome').where('id', '=', lost.charged.id).executeTakeFirstOrThrow()).outcome).toBe('duplicate');
    expect((await account(accountId)).credits_balance).toBe(4321);
    expect(await grants(subscriptionId)).toBe(2);
  });

  it('a past-due account whose retry was charged but never heard of is restored, and not suspended when the grace ends', async () => {
    const { accountId, subscriptionId, end1 } = await subscribed('starter');
    rzp.setNow(end1);
    await rzp.failRenewal(subscriptionId);
    expect((await account(accountId)).subscription_status).toBe('past_due');
    rzp.setNow(end1 + 2 * 86_400);
    rzp.renewHeld(subscriptionId); // Razorpay's retry succeeds; its webhook is lost

    expect(await reconcile(subscriptionId, end1 + 2 * 86_400 + HOUR)).toEqual([{ subscriptionId, event: 'subscription.charged', outcome: 'charged' }]);
    expect(await account(accountId)).toMatchObject({ subscription_status: 'active', credits_balance: 10_000 });
    await billingTick(ts.server.deps, new Date((end1 + 8 * 86_400) * 1000));
    expect((await account(accountId)).subscription_status).toBe('active');
  });

  it('a checkout paid at Razorpay whose handler answer and webhooks were all lost gets its plan', async () => {
    const { client, accountId, subscriptionId } = await checkout('pro');
    rzp.setNow(Math.floor(Date.now() / 1000));
    const held = rzp.payHeld(subscriptionId);
    expect((await account(accountId)).plan).toBe('free');

    const at = Math.floor(Date.now() / 1000) + 11 * 60;
    expect(await reconcile(subscriptionId, at)).toEqual([{ subscriptionId, event: 'subscription.charged', outcome: 'charged' }]);
    expect(await account(accountId)).toMatchObject({ plan: 'pro', subscription_id: subscriptionId, subscription_status: 'active', credits_balance: 100_500 });
    // The late webhooks and the handler's own answer change nothing more.
    expect(await rzp.deliver(held.activated)).toBe(200);
    expect(await rzp.deliver(held.charged)).toBe(200);
    const proof = { razorpay_payment_id: held.paymentId, razorpay_subscription_id: subscriptionId, razorpay_signature: (await import('node:crypto')).createHmac('sha256', rzp.keySecret).update(`${held.paymentId}|${subscriptionId}`).digest('hex') };
    expect((await client.trpcMutation('billing.verifyPayment', proof)).body.result.data).toMatchObject({ alreadyProcessed: true, plan: 'pro' });
    expect((await account(accountId)).credits_balance).toBe(100_500);
    expect(await grants(subscriptionId)).toBe(1);
  });

  it('a checkout whose subscription.activated arrived but whose charge never did gets its plan', async () => {
    const { accountId, subscriptionId } = await checkout('starter');
    rzp.setNow(Math.floor(Date.now() / 1000));
    const held = rzp.payHeld(subscriptionId);
    expect(await rzp.deliver(held.activated)).toBe(200);
    expect((await account(accountId)).plan).toBe('free');
    expect(await reconcile(subscriptionId, Math.floor(Date.now() / 1000) + 11 * 60)).toEqual([{ subscriptionId, event: 'subscription.charged', outcome: 'charged' }]);
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_id: subscriptionId, subscription_status: 'active' });
  });

  it('a renewal that failed and was halted at Razorpay, its webhooks lost: past due (mail to the owner), then suspended as usual', async () => {
    const { accountId, subscriptionId, end1 } = await subscribed('starter');
    rzp.subscriptions.get(subscriptionId)!.status = 'halted'; // retries exhausted; nothing was delivered
    expect(await reconcile(subscriptionId, end1 + 2 * HOUR)).toEqual([{ subscriptionId, event: 'subscription.halted', outcome: 'past_due' }]);
    expect((await account(accountId)).subscription_status).toBe('past_due');
    await billingTick(ts.server.deps, new Date((end1 + 2 * HOUR + 8 * 86_400) * 1000));
    expect((await account(accountId)).subscription_status).toBe('suspended');
  });

  it('a subscription Razorpay ended (completed) without a webhook falls to Free after its paid period', async () => {
    const { accountId, subscriptionId, end1 } = await subscribed('starter');
    rzp.subscriptions.get(subscriptionId)!.status = 'completed';
    expect(await reconcile(subscriptionId, end1 + 2 * HOUR)).toEqual([{ subscriptionId, event: 'subscription.completed', outcome: 'cancel_recorded' }]);
    expect(await account(accountId)).toMatchObject({ plan: 'free', subscription_status: 'none', subscription_id: null });
  });

  it('a refund made in Razorpay’s dashboard whose refund.processed never arrived follows the refund rule; the late webhook changes nothing', async () => {
    const { accountId, subscriptionId } = await subscribed('starter');
    const paymentId = rzp.subscriptions.get(subscriptionId)!.charges[0]!;
    const held = await rzp.dashboardRefund(paymentId, { hold: true });
    expect((await account(accountId)).plan).toBe('starter');

    const applied = (await reconcileBilling(ts.server.deps, new Date())).applied.filter((a) => a.subscriptionId === subscriptionId);
    expect(applied).toEqual([{ subscriptionId, event: 'refund.processed', outcome: 'refunded' }]);
    expect(await account(accountId)).toMatchObject({ plan: 'free', subscription_status: 'none', subscription_id: null, credits_balance: 500 });
    expect((await db().selectFrom('payment').select('status').where('id', '=', paymentId).executeTakeFirstOrThrow()).status).toBe('refunded');
    expect(rzp.subscriptions.get(subscriptionId)!.status).toBe('cancelled');

    expect(await rzp.deliver(held)).toBe(200);
    expect((await db().selectFrom('billing_event').select('outcome').where('id', '=', held.id).executeTakeFirstOrThrow()).outcome).toBe('already_refunded');
    expect((await db().selectFrom('audit_log').select('id').where('account_id', '=', accountId).where('action', '=', 'billing.refunded').execute()).length).toBe(1);
  });

  it('a renewal applied weeks late keeps Razorpay’s payment time: the 14-day refund window counts from it', async () => {
    const wall = Math.floor(Date.now() / 1000);
    const { client, subscriptionId } = await checkout('starter');
    rzp.setNow(wall - 50 * 86_400);
    await rzp.pay(subscriptionId);
    const end1 = rzp.subscriptions.get(subscriptionId)!.current_end!;
    rzp.setNow(end1); // about 20 days ago
    const lost = rzp.renewHeld(subscriptionId);
    expect(await reconcile(subscriptionId, wall)).toEqual([{ subscriptionId, event: 'subscription.charged', outcome: 'charged' }]);
    expect((await db().selectFrom('payment').select('created_at').where('id', '=', lost.paymentId).executeTakeFirstOrThrow()).created_at).toEqual(new Date(end1 * 1000));
    const refund = await client.trpcMutation('billing.refund');
    expect(refund.status).toBe(409);
    expect(refund.body.error.message).toBe('Refunds are available within 14 days of a payment.');
  });
});
