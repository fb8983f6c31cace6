// subscription.paused / subscription.resumed: Razorpay takes no payment while a subscription is
// paused, so the plan runs to the end of the period already paid and the service pauses then
// (suspended: 402 for new work, data readable) until the subscription is charged again; resuming
// within the paid period changes nothing for the customer. The paused subscription still counts
// as live: deleting the account stops it at Razorpay, so a later resume cannot bill a deleted account.
import { describe, expect, it } from 'vitest';
import { billingTick } from '../../server/features/billing/billing-tick';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

let n = 0;
const DAY = 86_400;

describe('paused and resumed subscriptions', () => {
  const { ts, rzp } = razorpayServer('whsec_paused_1');
  const db = () => ts.testDb.db;
  const account = (id: string) => db().selectFrom('account').select(['plan', 'subscription_status', 'subscription_id']).where('id', '=', id).executeTakeFirstOrThrow();
  const subStatus = async (id: string) => (await db().selectFrom('subscription').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  async function subscribed() {
    const client = await signUpVerified(ts, { email: `paused-${++n}-${Date.now().toString(36)}@example.com`, name: 'Payer', password: 'secret123' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000));
    await rzp.pay(co.subscriptionId);
    return { client, accountId, subscriptionId: co.subscriptionId as string, end: rzp.subscriptions.get(co.subscriptionId)!.current_end! };
  }

  it('paused: the plan runs to the paid period’s end, then new work answers 402 until a charge after resuming restores it', async () => {
    const { client, accountId, subscriptionId, end } = await subscribed();
    rzp.setNow(end - 10 * DAY);
    await rzp.pause(subscriptionId);
    expect(await subStatus(subscriptionId)).toBe('paused');
    await billingTick(ts.server.deps, new Date((end - DAY) * 1000));
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_status: 'active' });

    // The paid period is over and Razorpay charges nothing while paused: the service is not free.
    await billingTick(ts.server.deps, new Date((end + 60) * 1000));
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_status: 'suspended', subscription_id: subscriptionId });
    const check = await client.trpcMutation('validation.check', { email: 'someone@example.com' });
    expect(check.status).toBe(402);
    // The Billing page tells a pause from a failed payment (nothing failed; nothing is charged).
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ status: 'suspended', paused: true });

    rzp.setNow(end + 2 * DAY);
    await rzp.resume(subscriptionId);
    expect(await subStatus(subscriptionId)).toBe('active');
    expect((await account(accountId)).subscription_status).toBe('suspended'); // nothing paid yet
    await rzp.renew(subscriptionId);
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_status: 'active' });
  });

  it('a plan change chosen while paused (Razorpay updates no paused subscription) is refused with what to do, not "try again"', async () => {
    const { client, subscriptionId, end } = await subscribed();
    rzp.setNow(end - 10 * DAY);
    await rzp.pause(subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    const change = await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(change.status, JSON.stringify(change.body)).toBe(409);
    expect(change.body.error.message).toMatch(/^Your subscription is paused at Razorpay, so its plan cannot change at the renewal\. Resume it first, or choose the plan again after [A-Z][a-z]+ \d{1,2}, \d{4} \(UTC\), when the period you paid for ends\.$/);
    expect(rzp.requests.some((r) => r.method === 'PATCH'), 'asked Razorpay to update a paused subscription').toBe(false);
  });

  it('resumed within the paid period: nothing changes for the customer', async () => {
    const { accountId, subscriptionId, end } = await subscribed();
    rzp.setNow(end - 20 * DAY);
    await rzp.pause(subscriptionId);
    rzp.setNow(end - 15 * DAY);
    await rzp.resume(subscriptionId);
    expect(await subStatus(subscriptionId)).toBe('active');
    await billingTick(ts.server.deps, new Date((end - DAY) * 1000));
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_status: 'active' });
  });

  it('resumed delivered before the pause it followed: the subscription ends active and the service does not pause at the renewal', async () => {
    const { client, accountId, subscriptionId, end } = await subscribed();
    const entity = (status: string) => ({ subscription: { entity: { ...rzp.subscriptions.get(subscriptionId)!, entity: 'subscription', status } } });
    const paused = rzp.build('subscription.paused', entity('paused'), { createdAt: end - 20 * DAY });
    const resumed = rzp.build('subscription.resumed', entity('active'), { createdAt: end - 15 * DAY });
    expect(await rzp.deliver(resumed)).toBe(200);
    expect(await rzp.deliver(paused)).toBe(200);
    expect(await subStatus(subscriptionId), 'the older pause, delivered last, won over the resume').toBe('active');
    // The renewal is due (Razorpay charges a running subscription); its webhook has not come yet.
    await billingTick(ts.server.deps, new Date((end + 60) * 1000));
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_status: 'active' });
    expect((await client.trpcMutation('validation.check', { email: 'someone@example.com' })).status).not.toBe(402);
  });

  it('deleting accounts while Razorpay’s subscription.cancelled for their stopped subscriptions comes in: never a deadlock (500)', async () => {
    for (let i = 0; i < 4; i++) {
      const { client, subscriptionId } = await subscribed();
      const del = await client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' });
      expect(del.status, `deletion ${i + 1}: ${JSON.stringify(del.body)}`).toBe(200);
      await rzp.settled();
      expect(rzp.sent.filter((w) => w.event === 'subscription.cancelled' && w.raw.includes(subscriptionId)).map((w) => w.status)).toEqual([200]);
    }
  });

  it('deleting the account while its subscription is paused stops it at Razorpay', async () => {
    const { client, subscriptionId } = await subscribed();
    await rzp.pause(subscriptionId);
    const del = await client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' });
    expect(del.status).toBe(200);
    expect(rzp.subscriptions.get(subscriptionId)!.status).toBe('cancelled');
  });
});
