// What each plan is sold with (spec section 9), as a plan change delivers it: the credits a lower
// plan starts with when support moves a subscription down at its renewal (spec section 4: "contact
// support to downgrade"), and what an Enterprise account's stand-in "unlimited" balance leaves behind
// when the operator moves it to another plan.
import { describe, expect, it } from 'vitest';
import { runOperatorCli } from '../../scripts/cli/operator';
import { joinAs, ownerOn } from '../helpers/accounts';
import { razorpayServer } from '../helpers/razorpay-server';

const DAY = 86_400;

const { ts, rzp } = razorpayServer('whsec_plans_sold', {}, { geoCountry: 'IN' });

const account = (id: string) =>
  ts.testDb.db.selectFrom('account').select(['plan', 'credits_balance', 'monthly_validations_quota', 'team_member_limit', 'subscription_status']).where('id', '=', id).executeTakeFirstOrThrow();

/** A paid subscription on `plan` (monthly, INR by the fake geolocation), charged through the fake Razorpay. */
async function subscribed(plan: 'starter' | 'pro' | 'business', tag: string) {
  const owner = await ownerOn(ts, 'free', tag);
  const co = (await owner.client.trpcMutation('billing.checkout', { planType: plan, interval: 'monthly' })).body.result.data;
  await rzp.pay(co.subscriptionId);
  return { ...owner, subscriptionId: co.subscriptionId as string };
}

describe('a subscription support moves to a lower plan at its renewal', () => {
  it('starts the lower plan with its own monthly credits, not the higher plan’s leftover on top', async () => {
    // The Starter plan (monthly, INR) as Razorpay holds it: made by another customer's checkout.
    await subscribed('starter', 'starter-elsewhere');
    const starterPlan = await ts.testDb.db.selectFrom('billing_plan').select('id').where('plan', '=', 'starter').where('interval', '=', 'monthly').where('currency', '=', 'INR').where('mode', '=', 'razorpay').executeTakeFirstOrThrow();

    const pro = await subscribed('pro', 'pro-to-starter');
    expect(await account(pro.accountId)).toMatchObject({ plan: 'pro', credits_balance: 100_500 });
    // Some of the month used; then support moves the subscription to Starter at the cycle's end
    // (Razorpay's dashboard, schedule_change_at=cycle_end), and the renewal charges Starter.
    await ts.testDb.db.updateTable('account').set({ credits_balance: 60_000 }).where('id', '=', pro.accountId).execute();
    rzp.subscriptions.get(pro.subscriptionId)!.scheduled_plan_id = starterPlan.id;
    rzp.setNow(Math.floor(Date.now() / 1000) + 31 * DAY);
    try {
      await rzp.renew(pro.subscriptionId);
    } finally {
      rzp.setNow(Math.floor(Date.now() / 1000));
    }
    // Starter, paid ₹999 for: 10,000 validations a month and no rollover; Pro's leftover is not carried
    // into a plan that does not roll over (it would be 70,000 "Starter" credits).
    expect(await account(pro.accountId)).toMatchObject({ plan: 'starter', credits_balance: 10_000, monthly_validations_quota: 10_000, team_member_limit: 1, subscription_status: 'active' });
  });

  it('an upgrade at renewal still keeps what the account had (Starter → Pro)', async () => {
    const starter = await subscribed('starter', 'starter-to-pro');
    await ts.testDb.db.updateTable('account').set({ credits_balance: 4_000 }).where('id', '=', starter.accountId).execute();
    const change = await starter.client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(change.body.result.data).toMatchObject({ kind: 'scheduled', planName: 'Pro' });
    rzp.setNow(Math.floor(Date.now() / 1000) + 31 * DAY);
    try {
      await rzp.renew(starter.subscriptionId);
    } finally {
      rzp.setNow(Math.floor(Date.now() / 1000));
    }
    expect(await account(starter.accountId)).toMatchObject({ plan: 'pro', credits_balance: 104_000 });
  });
});

describe('a plan change scheduled for the renewal', () => {
  it('can be taken back by the owner before the renewal: Razorpay drops it, the renewal charges the current plan', async () => {
    const starter = await subscribed('starter', 'take-back');
    const change = await starter.client.trpcMutation('billing.checkout', { planType: 'business', interval: 'monthly' });
    expect(change.body.result.data).toMatchObject({ kind: 'scheduled', planName: 'Business' });
    expect((await starter.client.trpcQuery('billing.overview')).body.result.data.nextPlan).toBe('business');

    const kept = await starter.client.trpcMutation('billing.keepCurrentPlan');
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.result.data).toMatchObject({ plan: 'starter', message: 'Your subscription stays on the Starter plan; nothing changes at the renewal.' });
    expect(rzp.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/subscriptions/${starter.subscriptionId}/cancel_scheduled_changes` });
    expect((await starter.client.trpcQuery('billing.overview')).body.result.data.nextPlan).toBeNull();
    const audit = await ts.testDb.db.selectFrom('audit_log').select('data').where('account_id', '=', starter.accountId).where('action', '=', 'billing.plan_change_withdrawn').execute();
    expect(audit).toHaveLength(1);

    // Nothing waiting now: a second call says so, and the renewal charges Starter (₹999), not Business.
    const again = await starter.client.trpcMutation('billing.keepCurrentPlan');
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('No plan change is waiting for your renewal.');
    rzp.setNow(Math.floor(Date.now() / 1000) + 31 * DAY);
    try {
      await rzp.renew(starter.subscriptionId);
    } finally {
      rzp.setNow(Math.floor(Date.now() / 1000));
    }
    expect(await account(starter.accountId)).toMatchObject({ plan: 'starter', credits_balance: 10_000, team_member_limit: 1 });
    const last = await ts.testDb.db.selectFrom('payment').select(['plan', 'amount']).where('account_id', '=', starter.accountId).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(last).toEqual({ plan: 'starter', amount: 99_900 });
  });

  it('chosen again is already scheduled: no second change at Razorpay, no second audit entry', async () => {
    const starter = await subscribed('starter', 'schedule-twice');
    const first = await starter.client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(first.body.result.data).toMatchObject({ kind: 'scheduled', planName: 'Pro' });
    const patches = () => rzp.requests.filter((r) => r.method === 'PATCH' && r.path === `/v1/subscriptions/${starter.subscriptionId}`).length;
    const before = patches();
    const again = await starter.client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body.error.message).toMatch(/^Your plan changes to Pro at your next renewal on .+\.$/);
    expect(patches()).toBe(before);
    const audit = await ts.testDb.db.selectFrom('audit_log').select('id').where('account_id', '=', starter.accountId).where('action', '=', 'billing.plan_change_scheduled').execute();
    expect(audit).toHaveLength(1);
    // Another plan (or interval) still replaces it.
    const business = await starter.client.trpcMutation('billing.checkout', { planType: 'business', interval: 'monthly' });
    expect(business.body.result.data).toMatchObject({ kind: 'scheduled', planName: 'Business' });
  });

  it('is taken back by the owner only', async () => {
    const starter = await subscribed('starter', 'take-back-owner');
    await starter.client.trpcMutation('billing.checkout', { planType: 'pro', interval: 'monthly' });
    await ts.testDb.db.updateTable('account').set({ team_member_limit: 5 }).where('id', '=', starter.accountId).execute();
    const admin = await joinAs(ts, starter, 'admin', 'take-back-admin');
    const res = await admin.client.trpcMutation('billing.keepCurrentPlan');
    expect(res.status).toBe(403);
    expect((await starter.client.trpcQuery('billing.overview')).body.result.data.nextPlan).toBe('pro');
  });
});

describe('an Enterprise account the operator moves to another plan', () => {
  const cli = async (...args: string[]) => {
    let out = '';
    let err = '';
    const code = await runOperatorCli(['node', 'mailvet', ...args], { out: (s) => (out += s), err: (s) => (err += s), env: { DATABASE_URL: ts.testDb.url, DATA_DIR: '.data/test' } });
    return { code, out, err };
  };

  it.each([
    ['business', 500_000],
    ['free', 500],
  ] as const)('keeps no "unlimited" stand-in balance on %s: the plan’s own credits', async (plan, credits) => {
    const owner = await ownerOn(ts, 'free', `ent-to-${plan}`);
    expect((await cli('accounts', 'set-plan', owner.accountId, 'enterprise')).code).toBe(0);
    const ent = await account(owner.accountId);
    expect(ent.credits_balance).toBeGreaterThan(900_000_000); // the stand-in for "unlimited"
    // Some use under Enterprise, then the contract ends.
    await ts.testDb.db.updateTable('account').set({ credits_balance: ent.credits_balance - 12_345 }).where('id', '=', owner.accountId).execute();
    const r = await cli('accounts', 'set-plan', owner.accountId, plan);
    expect(r.code).toBe(0);
    const after = await account(owner.accountId);
    expect(after).toMatchObject({ plan, credits_balance: credits });
    // The screens show the number, not "Unlimited" nor 999,987,655 credits left.
    const me = (await owner.client.trpcQuery('account.me')).body.result.data;
    expect(me.credits_balance).toBe(credits);
  });
});
