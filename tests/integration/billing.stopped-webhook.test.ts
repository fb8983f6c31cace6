// Razorpay sends subscription.cancelled for a subscription cancelled at once (cancel_at_cycle_end=0)
// as it does at a cycle end, and in no promised order with its answer to the cancel call. A
// subscription Mailvet stops itself (cancelling an unpaid renewal, cancelling a resumed plan before
// it started, undoing a plan chosen after cancelling) is one change to the account: the webhook that
// confirms the stop is not a second cancellation ("ended at Razorpay" in the audit log, the plan
// ended under the owner's own cancel, their undo refused as if nothing were waiting).
import { describe, expect, it } from 'vitest';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;
const DAY = 86_400;

describe('subscription.cancelled for a subscription Mailvet stopped itself', () => {
  const { ts, rzp } = razorpayServer('whsec_stopped_webhook');
  const state = (accountId: string) =>
    ts.testDb.db.selectFrom('account').select(['plan', 'credits_balance', 'subscription_status', 'cancel_at_period_end', 'current_period_end', 'billing_interval', 'subscription_id']).where('id', '=', accountId).executeTakeFirstOrThrow();
  const actions = async (accountId: string) =>
    (await ts.testDb.db.selectFrom('audit_log').select('action').where('account_id', '=', accountId).where('action', 'like', 'billing.%').orderBy('created_at').orderBy('id').execute()).map((r) => r.action);

  async function starter(daysAgo: number) {
    const client = await signUpVerified(ts, { email: email('stopped'), name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000) - daysAgo * DAY);
    await rzp.pay(co.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    return { client, accountId, first: co.subscriptionId as string };
  }

  it('an unpaid renewal cancelled: the webhook reaching us before Razorpay’s answer is not a second cancellation', async () => {
    const { client, accountId, first } = await starter(31);
    await rzp.failRenewal(first);
    expect((await state(accountId)).subscription_status).toBe('past_due');

    rzp.cancelledWebhookFirst();
    const cancel = await client.trpcMutation('billing.cancel');
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.result.data.endedNow).toBe(true);
    await rzp.settled();
    expect(rzp.sent.filter((w) => w.event === 'subscription.cancelled').map((w) => w.status)).toEqual([200]);
    expect(await state(accountId)).toMatchObject({ plan: 'free', subscription_status: 'none', subscription_id: null });
    const log = await actions(accountId);
    expect(log, 'the owner’s cancellation, logged once, is not also an ending at Razorpay').not.toContain('billing.subscription_ended');
    expect(log.filter((a) => a === 'billing.cancelled')).toHaveLength(1);
    expect(log.filter((a) => a === 'billing.fell_to_free')).toHaveLength(1);
    expect(log.indexOf('billing.cancelled'), 'the plan ended under the owner’s cancel').toBeLessThan(log.indexOf('billing.fell_to_free'));
  });

  it('a resumed plan cancelled again before it started: the webhook of the stopped subscription changes nothing more', async () => {
    const { client, accountId, first } = await starter(10);
    expect((await client.trpcMutation('billing.cancel')).status).toBe(200);
    const resumed = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(resumed.subscriptionId));
    const before = await state(accountId);

    rzp.cancelledWebhookFirst();
    const again = await client.trpcMutation('billing.cancel');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await rzp.settled();
    expect(rzp.subscriptions.get(resumed.subscriptionId)!.status).toBe('cancelled');
    expect(await state(accountId)).toEqual({ ...before, subscription_id: first, cancel_at_period_end: true });
    expect(await actions(accountId)).not.toContain('billing.subscription_ended');
  });

  it('a higher plan chosen after cancelling, undone: the webhook of its stopped subscription changes nothing more', async () => {
    const { client, accountId, first } = await starter(10);
    expect((await client.trpcMutation('billing.cancel')).status).toBe(200);
    const before = await state(accountId);
    const pro = (await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(pro.subscriptionId));

    rzp.cancelledWebhookFirst();
    const undo = await client.trpcMutation('billing.keepCurrentPlan');
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(undo.body.result.data.message).toMatch(/^Nothing was charged: your plan does not change to Pro\. Your Starter plan stays cancelled/);
    await rzp.settled();
    expect(await state(accountId)).toEqual(before);
    expect(before.subscription_id).toBe(first);
    expect(await actions(accountId)).not.toContain('billing.subscription_ended');
  });
});
