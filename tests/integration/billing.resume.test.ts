// An owner who cancelled (the plan runs to the period's end) and changes their mind before the end
// keeps their plan — or switches it to annual — without paying twice: Razorpay cannot take a
// cancellation back, so a new subscription is authorised now and first charged at the end of the
// period already paid, going on from the cancelled one without a gap. Nothing is granted or charged
// before; cancelling again or a refund stops it before it can charge.
// A higher plan chosen after cancelling starts the same way at the period's end, as a plan change on
// a running subscription does, so no paid day is lost. A renewal of the cancelled subscription that
// Razorpay took anyway, arriving after the resume, is given back and leaves the resumed one alone.
import { describe, expect, it } from 'vitest';
import { reconcileBilling } from '../../server/features/billing/billing-reconcile';
import { billingTick } from '../../server/features/billing/billing-tick';
import { joinAs } from '../helpers/accounts';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;
const DAY = 86_400;
const unix = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

describe('a cancelled plan resumed before its period ends', () => {
  const { ts, rzp } = razorpayServer('whsec_resume');

  async function cancelledStarter() {
    const client = await signUpVerified(ts, { email: email('resume'), name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000) - 10 * DAY);
    await rzp.pay(co.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    expect((await client.trpcMutation('billing.cancel')).status).toBe(200);
    const ov = (await client.trpcQuery('billing.overview')).body.result.data;
    expect(ov).toMatchObject({ plan: 'starter', cancelAtPeriodEnd: true });
    return { client, accountId, first: co.subscriptionId as string, periodEnd: ov.currentPeriodEnd as string };
  }
  const state = (accountId: string) =>
    ts.testDb.db.selectFrom('account').select(['plan', 'credits_balance', 'subscription_status', 'cancel_at_period_end', 'current_period_end', 'billing_interval', 'subscription_id']).where('id', '=', accountId).executeTakeFirstOrThrow();
  const payments = (accountId: string) =>
    ts.testDb.db.selectFrom('payment').select(['id', 'subscription_id', 'status', 'second_payment']).where('account_id', '=', accountId).orderBy('created_at').execute();

  it('resumes the same plan: nothing charged now, renews at the period’s end on the new subscription', async () => {
    const { client, accountId, first, periodEnd } = await cancelledStarter();
    const before = await state(accountId);

    const co = await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' });
    expect(co.status, `a cancelled owner could not keep their plan: ${JSON.stringify(co.body)}`).toBe(200);
    const order = co.body.result.data;
    expect(order).toMatchObject({ kind: 'subscribe', planType: 'starter', interval: 'monthly', amount: 1900 });
    expect(order.message).toMatch(/^Nothing is charged now: your Starter plan goes on after /);
    const remote = rzp.subscriptions.get(order.subscriptionId)!;
    expect(remote.start_at, 'the new subscription is first charged when the paid period ends').toBe(Math.floor(new Date(periodEnd).getTime() / 1000));

    const proof = await rzp.pay(order.subscriptionId); // authorises the card only
    const verified = await client.trpcMutation('billing.verifyPayment', proof);
    expect(verified.status).toBe(200);
    expect(verified.body.result.data).toMatchObject({ applied: true, resumed: true, plan: 'starter' });
    expect(verified.body.result.data.message).toMatch(/^Your Starter plan is no longer cancelled\. It renews on /);
    const resumed = await state(accountId);
    expect(resumed).toEqual({ ...before, cancel_at_period_end: false, subscription_id: order.subscriptionId });
    expect(await payments(accountId), 'nothing is charged before the period ends').toHaveLength(1);
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ plan: 'starter', cancelAtPeriodEnd: false, currentPeriodEnd: periodEnd, nextPlan: null, nextInterval: null });

    // The period ends: Razorpay ends the cancelled subscription; the account stays on Starter.
    await rzp.endSubscription(first);
    await billingTick(ts.server.deps, new Date(new Date(periodEnd).getTime() + 3600_000));
    expect(await state(accountId)).toMatchObject({ plan: 'starter', subscription_status: 'active', subscription_id: order.subscriptionId });

    // The new subscription's first charge at start_at: the next period, granted once.
    rzp.setNow(remote.start_at!);
    await rzp.renew(order.subscriptionId);
    const renewed = await state(accountId);
    expect(renewed).toMatchObject({ plan: 'starter', credits_balance: 10_000, subscription_status: 'active', cancel_at_period_end: false, billing_interval: 'monthly', subscription_id: order.subscriptionId });
    expect(renewed.current_period_end!.getTime()).toBeGreaterThan(new Date(periodEnd).getTime() + 27 * DAY * 1000);
    expect(await payments(accountId)).toHaveLength(2);
    rzp.setNow(Math.floor(Date.now() / 1000));
  });

  it('switches a cancelled monthly plan to annual from the period’s end; a second resume replaces the first before it charges', async () => {
    const { client, accountId, periodEnd } = await cancelledStarter();
    const monthly = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(monthly.subscriptionId));
    // Resumed on monthly; now the owner wants annual instead.
    const annual = await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'annual' });
    expect(annual.status, JSON.stringify(annual.body)).toBe(200);
    expect(annual.body.result.data).toMatchObject({ kind: 'subscribe', interval: 'annual', amount: 1900 * 12 * 0.8 });
    const v = await client.trpcMutation('billing.verifyPayment', await rzp.pay(annual.body.result.data.subscriptionId));
    expect(v.body.result.data).toMatchObject({ applied: true, resumed: true });
    expect(rzp.subscriptions.get(monthly.subscriptionId)!.status, 'the monthly one would have charged too').toBe('cancelled');
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ plan: 'starter', cancelAtPeriodEnd: false, interval: 'monthly', nextInterval: 'annual', currentPeriodEnd: periodEnd });
    // The same plan and interval again: already subscribed.
    const again = await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'annual' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('You are already on the Starter plan.');

    rzp.setNow(rzp.subscriptions.get(annual.body.result.data.subscriptionId)!.start_at!);
    await rzp.renew(annual.body.result.data.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    expect(await state(accountId)).toMatchObject({ plan: 'starter', billing_interval: 'annual', credits_balance: 10_000 });
    expect(await payments(accountId)).toHaveLength(2);
  });

  it('minutes before the period ends, a higher plan paid now replaces a resumed subscription not started yet (it is stopped, nothing refunded as a second payment)', async () => {
    const { client, accountId } = await cancelledStarter();
    const resumed = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(resumed.subscriptionId));
    // Earlier, a higher plan starts at the period's end too (below).
    await ts.testDb.db.updateTable('account').set({ current_period_end: new Date(Date.now() + 5 * 60_000) }).where('id', '=', accountId).execute();
    const pro = await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(pro.body.result.data).toMatchObject({ kind: 'subscribe', planType: 'pro' });
    const v = await client.trpcMutation('billing.verifyPayment', await rzp.pay(pro.body.result.data.subscriptionId));
    expect(v.body.result.data).toMatchObject({ applied: true, plan: 'pro' });
    expect(await state(accountId)).toMatchObject({ plan: 'pro', subscription_status: 'active', cancel_at_period_end: false, subscription_id: pro.body.result.data.subscriptionId });
    expect(rzp.subscriptions.get(resumed.subscriptionId)!.status).toBe('cancelled');
    // Nothing left that could hold a later checkout as 'a payment in progress'.
    const live = await ts.testDb.db.selectFrom('subscription').select('id').where('account_id', '=', accountId).where('status', 'not in', ['cancelled', 'completed']).execute();
    expect(live.map((r) => r.id)).toEqual([pro.body.result.data.subscriptionId]);
    const pays = await ts.testDb.db.selectFrom('payment').select(['status', 'second_payment']).where('account_id', '=', accountId).execute();
    expect(pays).toEqual([
      { status: 'captured', second_payment: false },
      { status: 'captured', second_payment: false },
    ]);
  });

  it('an annual plan resumed keeps getting the paid year’s monthly refills until the new subscription starts', async () => {
    const client = await signUpVerified(ts, { email: email('resume-annual'), name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'annual' })).body.result.data;
    const t0 = Math.floor(Date.now() / 1000) - 40 * DAY; // paid 40 days ago: month 1 of the year has begun
    rzp.setNow(t0);
    await rzp.pay(co.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    expect((await client.trpcMutation('billing.cancel')).status).toBe(200);
    const order = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'annual' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(order.subscriptionId));
    expect(await state(accountId)).toMatchObject({ cancel_at_period_end: false, subscription_id: order.subscriptionId, billing_interval: 'annual' });

    await billingTick(ts.server.deps, new Date());
    const grants = await ts.testDb.db.selectFrom('credit_grant').select('period_start').where('account_id', '=', accountId).where('subscription_id', '=', co.subscriptionId).execute();
    expect(grants, 'month 1 of the year already paid was not refilled').toHaveLength(2);
  });

  it('minutes before the period ends it is too late to resume, and the owner is told so (not "already subscribed")', async () => {
    const { client, accountId } = await cancelledStarter();
    await ts.testDb.db.updateTable('account').set({ current_period_end: new Date(Date.now() + 5 * 60_000) }).where('id', '=', accountId).execute();
    const r = await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' });
    expect(r.status).toBe(409);
    expect(r.body.error.message).toMatch(/^Your Starter plan ends in a few minutes \(.+\), too soon to keep it going\. Once the account is on the Free plan, choose Starter again to subscribe\.$/);
  });

  it('a card authorised whose webhook never came (the browser closed too): the reconciliation resumes the plan', async () => {
    const { client, accountId } = await cancelledStarter();
    const order = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.subscriptions.get(order.subscriptionId)!.status = 'authenticated'; // authorised at Razorpay; nothing reached us
    expect(await state(accountId)).toMatchObject({ cancel_at_period_end: true });
    await reconcileBilling(ts.server.deps, new Date(Date.now() + 15 * 60_000), { subscriptionIds: [order.subscriptionId] });
    expect(await state(accountId)).toMatchObject({ plan: 'starter', cancel_at_period_end: false, subscription_id: order.subscriptionId });
  });

  it('cancelling again, or a refund, stops the resumed subscription before it can charge', async () => {
    for (const how of ['cancel', 'refund'] as const) {
      const { client, accountId, first, periodEnd } = await cancelledStarter();
      const order = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
      await client.trpcMutation('billing.verifyPayment', await rzp.pay(order.subscriptionId));
      if (how === 'cancel') {
        const c = await client.trpcMutation('billing.cancel');
        expect(c.status).toBe(200);
        expect(c.body.result.data).toMatchObject({ endedNow: false, endsAt: periodEnd });
        expect(await state(accountId)).toMatchObject({ plan: 'starter', cancel_at_period_end: true, subscription_id: first });
        await billingTick(ts.server.deps, new Date(new Date(periodEnd).getTime() + 3600_000));
      } else {
        expect((await client.trpcMutation('billing.refund')).status).toBe(200);
      }
      expect(rzp.subscriptions.get(order.subscriptionId)!.status, `after a ${how}, the resumed subscription would still charge`).toBe('cancelled');
      expect(await state(accountId)).toMatchObject({ plan: 'free', subscription_id: null });
    }
  });

  it('a higher plan chosen after cancelling starts when the paid period ends: nothing is charged now and no paid day is lost', async () => {
    const { client, accountId, first, periodEnd } = await cancelledStarter();
    const before = await state(accountId);

    const co = await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(co.status, JSON.stringify(co.body)).toBe(200);
    const order = co.body.result.data;
    expect(order).toMatchObject({ kind: 'subscribe', planType: 'pro', interval: 'monthly', amount: 7900 });
    expect(order.message).toMatch(/^Nothing is charged now: your plan changes to Pro on .+, when its first period is charged to the card you confirm\.$/);
    const remote = rzp.subscriptions.get(order.subscriptionId)!;
    expect(remote.start_at, 'Pro would be charged at once and the rest of the paid Starter period lost').toBe(unix(periodEnd));

    const verified = await client.trpcMutation('billing.verifyPayment', await rzp.pay(order.subscriptionId));
    expect(verified.status).toBe(200);
    expect(verified.body.result.data).toMatchObject({ applied: true, resumed: true, plan: 'starter' });
    expect(verified.body.result.data.message).toMatch(/^Your subscription is no longer cancelled: your plan changes to Pro on .+, when its first period is charged\.$/);
    expect(await state(accountId), 'Starter runs to the end of the period paid for').toEqual({ ...before, cancel_at_period_end: false, subscription_id: order.subscriptionId });
    expect(await payments(accountId), 'nothing is charged before the Starter period ends').toHaveLength(1);
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ plan: 'starter', cancelAtPeriodEnd: false, currentPeriodEnd: periodEnd, nextPlan: 'pro', resumePending: true });

    // The same plan and interval again: already chosen, nothing more is opened.
    const again = await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/^Your plan changes to Pro at your next renewal on /);

    // The period ends: the cancelled subscription ends at Razorpay; the account stays on Starter until Pro's first charge.
    await rzp.endSubscription(first);
    await billingTick(ts.server.deps, new Date(new Date(periodEnd).getTime() + 3600_000));
    expect(await state(accountId)).toMatchObject({ plan: 'starter', subscription_status: 'active', subscription_id: order.subscriptionId });

    rzp.setNow(remote.start_at!);
    await rzp.renew(order.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    const upgraded = await state(accountId);
    // Moving up keeps what the account had, as a plan change at a renewal does.
    expect(upgraded).toMatchObject({ plan: 'pro', credits_balance: before.credits_balance + 100_000, subscription_status: 'active', cancel_at_period_end: false, subscription_id: order.subscriptionId });
    expect(upgraded.current_period_end!.getTime()).toBeGreaterThan(new Date(periodEnd).getTime() + 27 * DAY * 1000);
    expect((await payments(accountId)).map((p) => p.status)).toEqual(['captured', 'captured']);
  });

  it('a higher plan chosen while a resumed plan waits replaces it, from the same period end (it is stopped before it can charge)', async () => {
    const { client, accountId, periodEnd } = await cancelledStarter();
    const resumed = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(resumed.subscriptionId));

    const pro = (await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' })).body.result.data;
    expect(rzp.subscriptions.get(pro.subscriptionId)!.start_at).toBe(unix(periodEnd));
    const v = await client.trpcMutation('billing.verifyPayment', await rzp.pay(pro.subscriptionId));
    expect(v.body.result.data).toMatchObject({ applied: true, resumed: true, plan: 'starter' });
    expect(await state(accountId)).toMatchObject({ plan: 'starter', cancel_at_period_end: false, subscription_id: pro.subscriptionId });
    expect(rzp.subscriptions.get(resumed.subscriptionId)!.status, 'the Starter one would charge too').toBe('cancelled');
    expect(await payments(accountId)).toHaveLength(1);

    // Changing back to Starter before the period ends replaces Pro the same way.
    const back = await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(back.body.result.data.subscriptionId));
    expect(rzp.subscriptions.get(pro.subscriptionId)!.status).toBe('cancelled');
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ plan: 'starter', nextPlan: null, resumePending: true });
  });

  it('a higher plan chosen after cancelling can be taken back by the owner before it starts: stopped at Razorpay, the plan cancelled as before', async () => {
    const { client, accountId, first, periodEnd } = await cancelledStarter();
    const before = await state(accountId);
    const pro = (await client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(pro.subscriptionId));
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ nextPlan: 'pro', resumePending: true });
    const audits = () => ts.testDb.db.selectFrom('audit_log').select(['actor_user_id', 'target_id', 'data']).where('account_id', '=', accountId).where('action', '=', 'billing.plan_change_withdrawn').execute();

    // Owner only, on the server: an admin or a member is refused and nothing is stopped.
    await ts.testDb.db.updateTable('account').set({ team_member_limit: 5 }).where('id', '=', accountId).execute();
    const owner = { client, accountId, email: '', userId: '' };
    for (const role of ['admin', 'member'] as const) {
      const other = await joinAs(ts, owner, role, `undo-${role}`);
      const res = await other.client.trpcMutation('billing.keepCurrentPlan');
      expect(res.status, `a ${role} took the owner's plan change back`).toBe(403);
    }
    expect(rzp.subscriptions.get(pro.subscriptionId)!.status).toBe('authenticated');

    // Two clicks at once: one takes the change back, the other finds nothing waiting; one audit entry.
    const [a, b] = await Promise.all([client.trpcMutation('billing.keepCurrentPlan'), client.trpcMutation('billing.keepCurrentPlan')]);
    expect([a.status, b.status].sort(), JSON.stringify([a.body, b.body])).toEqual([200, 409]);
    const kept = (a.status === 200 ? a : b).body.result.data;
    expect(kept).toMatchObject({ plan: 'starter' });
    expect(kept.message).toMatch(/^Nothing was charged: your plan does not change to Pro\. Your Starter plan stays cancelled and ends on .+, then the account moves to Free; you can resume it until then\.$/);
    expect((a.status === 409 ? a : b).body.error.message).toBe('No plan change is waiting for your renewal.');
    expect(rzp.subscriptions.get(pro.subscriptionId)!.status, 'Pro would still be charged at the period’s end').toBe('cancelled');
    expect(rzp.requests.some((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${pro.subscriptionId}/cancel` && !r.body.cancel_at_cycle_end)).toBe(true);
    expect(await state(accountId), 'the page is back where it was before Pro was chosen').toEqual(before);
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ plan: 'starter', cancelAtPeriodEnd: true, currentPeriodEnd: periodEnd, nextPlan: null, resumePending: false });
    expect(await audits()).toMatchObject([{ target_id: pro.subscriptionId, data: { plan: 'starter', withdrawn_plan: 'pro', follows: first } }]);
    const again = await client.trpcMutation('billing.keepCurrentPlan');
    expect(again.status).toBe(409);
    expect(await audits()).toHaveLength(1);

    // Razorpay's own word on the stopped subscription, and its authorisation delivered late, change nothing.
    const entity = { id: pro.subscriptionId, entity: 'subscription', plan_id: rzp.subscriptions.get(pro.subscriptionId)!.plan_id, current_start: null, current_end: null };
    expect(await rzp.deliver(rzp.build('subscription.cancelled', { subscription: { entity: { ...entity, status: 'cancelled' } } }))).toBe(200);
    expect(await rzp.deliver(rzp.build('subscription.authenticated', { subscription: { entity: { ...entity, status: 'authenticated' } } }))).toBe(200);
    expect(await state(accountId), 'a late webhook brought the undone change back').toEqual(before);

    // As before the choice: the plan can be resumed, and nothing but the first period was charged.
    const resume = await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' });
    expect(resume.status, JSON.stringify(resume.body)).toBe(200);
    expect(resume.body.result.data.message).toMatch(/^Nothing is charged now: your Starter plan goes on after /);
    expect(await payments(accountId)).toHaveLength(1);
  });

  it('a renewal of the cancelled subscription arriving after the owner resumed is given back and leaves the resumed subscription alone', async () => {
    const { client, accountId, first, periodEnd } = await cancelledStarter();
    const order = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(order.subscriptionId));
    const resumed = await state(accountId);
    expect(resumed).toMatchObject({ cancel_at_period_end: false, subscription_id: order.subscriptionId });

    // Razorpay charged the cancelled subscription's renewal all the same (the charge raced the
    // cancellation); its webhook comes now, after the resume.
    const late = await rzp.renew(first);
    expect(await state(accountId), 'the resume was undone: the owner would have to resume again').toEqual(resumed);
    expect(rzp.subscriptions.get(order.subscriptionId)!.status, 'the resumed subscription is left alone').toBe('authenticated');
    expect(rzp.subscriptions.get(first)!.status, 'the cancelled one can charge no more').toBe('cancelled');
    expect((await payments(accountId)).find((p) => p.id === late)).toMatchObject({ status: 'refunded', second_payment: true });
    expect(rzp.refunds.filter((r) => r.payment_id === late)).toHaveLength(1);

    // The resumed subscription's first charge pays that period: once.
    rzp.setNow(unix(periodEnd));
    await rzp.renew(order.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    expect(await state(accountId)).toMatchObject({ plan: 'starter', subscription_status: 'active', cancel_at_period_end: false, subscription_id: order.subscriptionId });
    const kept = (await payments(accountId)).filter((p) => p.status === 'captured');
    expect(kept.map((p) => p.subscription_id)).toEqual([first, order.subscriptionId]);
  });

  it('the refund of that late renewal, heard of from Razorpay before our own refund call has answered, leaves the resumed subscription alone too', async () => {
    const { client, accountId, first } = await cancelledStarter();
    const order = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    await client.trpcMutation('billing.verifyPayment', await rzp.pay(order.subscriptionId));
    const resumed = await state(accountId);

    // Razorpay's refund.processed for the given-back renewal overtakes its API answer (webhooks are not ordered).
    const gate = rzp.holdNextRefund();
    const renewal = rzp.renew(first);
    await gate.arrived;
    const refund = rzp.refunds.at(-1)!;
    const processed = rzp.build('refund.processed', { refund: { entity: { id: refund.id, entity: 'refund', payment_id: refund.payment_id, amount: refund.amount, status: 'processed' } }, payment: { entity: { id: refund.payment_id, entity: 'payment', amount: refund.amount, currency: 'USD', status: 'refunded' } } });
    expect(await rzp.deliver(processed)).toBe(200);
    gate.release();
    const late = await renewal;
    await rzp.settled();

    expect(late).toBe(refund.payment_id);
    expect(await state(accountId), 'a second payment given back is no refund of the period: the resume was undone').toEqual(resumed);
    expect(rzp.subscriptions.get(order.subscriptionId)!.status, 'the resumed subscription is left alone').toBe('authenticated');
    expect((await payments(accountId)).find((p) => p.id === late)).toMatchObject({ status: 'refunded', second_payment: true });
    expect(rzp.refunds.filter((r) => r.payment_id === late)).toHaveLength(1);
  });
});
