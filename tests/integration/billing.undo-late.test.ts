// A plan change taken back after the period it waited for has ended. The change has started by then
// (Razorpay charges the new plan at that moment; its subscription.charged may still be on its way):
// "Undo plan change" / "Keep my current plan" is refused with a clear message, and the new plan goes
// on. It used to stop the new plan's subscription and drop the account to Free, as a cancellation
// would, telling the owner nothing was charged — while Razorpay's charge for it came in after.
import { describe, expect, it } from 'vitest';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;
const DAY = 86_400;
const TOO_LATE = /^Too late to undo: your plan changed to Pro on [A-Z][a-z]+ \d{1,2}, \d{4} \(UTC\), when the period you had paid for ended\. To stop it, cancel your subscription\.$/;

describe('a plan change taken back after its period ended', () => {
  const { ts, rzp } = razorpayServer('whsec_undo_late');
  const state = (accountId: string) =>
    ts.testDb.db.selectFrom('account').select(['plan', 'subscription_status', 'cancel_at_period_end', 'current_period_end', 'billing_interval', 'subscription_id']).where('id', '=', accountId).executeTakeFirstOrThrow();

  async function starter() {
    const client = await signUpVerified(ts, { email: email('undo-late'), name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000) - 10 * DAY);
    await rzp.pay(co.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    return { client, accountId, first: co.subscriptionId as string };
  }
  /** The paid period is over (an hour ago), as for an owner back on the page after its end. */
  async function periodOver(accountId: string, subIds: string[]) {
    const end = new Date(Date.now() - 3600_000);
    await ts.testDb.db.updateTable('account').set({ current_period_end: end }).where('id', '=', accountId).execute();
    await ts.testDb.db.updateTable('subscription').set({ current_end: end }).where('id', '=', subIds[0]!).execute();
    for (const id of subIds.slice(1)) await ts.testDb.db.updateTable('subscription').set({ start_at: end }).where('id', '=', id).execute();
    for (const id of subIds) {
      const remote = rzp.subscriptions.get(id)!;
      if (remote.current_end !== null) remote.current_end = Math.floor(end.getTime() / 1000);
      if (remote.start_at !== null) remote.start_at = Math.floor(end.getTime() / 1000);
    }
    return end;
  }

  it('a higher plan chosen after cancelling: the undo is refused, the plan goes on as chosen', async () => {
    const { client, accountId, first } = await starter();
    expect((await client.trpcMutation('billing.cancel')).status).toBe(200);
    const pro = (await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(pro.subscriptionId));
    const end = await periodOver(accountId, [first, pro.subscriptionId]);
    const before = await state(accountId);
    expect(before).toMatchObject({ plan: 'starter', subscription_id: pro.subscriptionId, cancel_at_period_end: false });

    const undo = await client.trpcMutation('billing.keepCurrentPlan');
    expect(undo.status, `an undo after the period's end ended the plan: ${JSON.stringify(undo.body)}`).toBe(409);
    expect(undo.body.error.message).toMatch(TOO_LATE);
    expect(rzp.subscriptions.get(pro.subscriptionId)!.status, 'Pro was stopped at Razorpay').toBe('authenticated');
    expect(await state(accountId)).toEqual(before);

    // Razorpay's first charge of Pro, at the period's end: the account is on Pro.
    rzp.setNow(Math.floor(end.getTime() / 1000));
    await rzp.renew(pro.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    expect(await state(accountId)).toMatchObject({ plan: 'pro', subscription_status: 'active', cancel_at_period_end: false, subscription_id: pro.subscriptionId });
  });

  it('cancelled instead, before Razorpay’s first charge of the new plan: stopped, and the answer says the account is on Free now', async () => {
    const { client, accountId, first } = await starter();
    expect((await client.trpcMutation('billing.cancel')).status).toBe(200);
    const pro = (await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(pro.subscriptionId));
    await periodOver(accountId, [first, pro.subscriptionId]);
    expect((await client.trpcMutation('billing.keepCurrentPlan')).status).toBe(409);

    const cancel = await client.trpcMutation('billing.cancel');
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(rzp.subscriptions.get(pro.subscriptionId)!.status).toBe('cancelled');
    expect(await state(accountId)).toMatchObject({ plan: 'free', subscription_status: 'none', subscription_id: null });
    expect(cancel.body.result.data, 'the page said the plan stays active until a day already past').toMatchObject({ endedNow: true });
  });

  it('a change scheduled on a running subscription: "Keep my current plan" is refused once the renewal is due', async () => {
    const { client, accountId, first } = await starter();
    const sched = await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(sched.body.result.data).toMatchObject({ kind: 'scheduled' });
    const end = await periodOver(accountId, [first]);

    const keep = await client.trpcMutation('billing.keepCurrentPlan');
    expect(keep.status, `a change taken back after Razorpay's renewal: ${JSON.stringify(keep.body)}`).toBe(409);
    expect(keep.body.error.message).toMatch(TOO_LATE);
    expect(rzp.requests.some((r) => r.path === `/v1/subscriptions/${first}/cancel_scheduled_changes`), 'the change was withdrawn at Razorpay').toBe(false);
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ plan: 'starter', nextPlan: 'pro' });

    rzp.setNow(Math.floor(end.getTime() / 1000));
    await rzp.renew(first);
    rzp.setNow(Math.floor(Date.now() / 1000));
    expect(await state(accountId)).toMatchObject({ plan: 'pro', subscription_status: 'active', subscription_id: first });
  });

  it('a change chosen after the period ended, its renewal not heard of yet: refused, not scheduled a period later than the page says', async () => {
    const { client, accountId, first } = await starter();
    const end = await periodOver(accountId, [first]);
    const change = await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(change.status, `scheduled at Razorpay's next cycle end, a period later: ${JSON.stringify(change.body)}`).toBe(409);
    expect(change.body.error.message).toMatch(/^Your renewal of [A-Z][a-z]+ \d{1,2}, \d{4} \(UTC\) is being charged right now\. Choose the plan again once it is confirmed: reload this page in a few minutes\.$/);
    expect(rzp.requests.some((r) => r.method === 'PATCH' && r.path === `/v1/subscriptions/${first}`)).toBe(false);
    rzp.setNow(Math.floor(end.getTime() / 1000));
    await rzp.renew(first);
    rzp.setNow(Math.floor(Date.now() / 1000));
    const after = await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.result.data).toMatchObject({ kind: 'scheduled' });
  });
});
