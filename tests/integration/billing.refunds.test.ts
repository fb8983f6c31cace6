// Refunds made in Razorpay's dashboard (issue #10): `refund.processed` follows the same rule as the
// owner's refund button — refunding the current period's payment lowers the plan to Free at once,
// takes back its credits, stops the subscription, audit-logged once — and the two doors never both
// apply (replays, out-of-order deliveries and our own refund are idempotent with each other).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { reconcileBilling } from '../../server/features/billing/billing-reconcile';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

let n = 0;
const DAY = 86_400;

describe('refund.processed from the Razorpay dashboard', () => {
  const webhookSecret = 'whsec_refunds_1';
  const { ts, rzp } = razorpayServer(webhookSecret);

  async function subscribed(plan: 'starter' | 'pro' = 'starter') {
    const client = await signUpVerified(ts, { email: `refund-${++n}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: plan, interval: 'monthly' })).body.result.data;
    return { client, accountId, subscriptionId: co.subscriptionId as string };
  }
  const account = (id: string) =>
    ts.testDb.db.selectFrom('account').select(['plan', 'credits_balance', 'subscription_status', 'subscription_id', 'monthly_validations_quota', 'team_member_limit']).where('id', '=', id).executeTakeFirstOrThrow();
  const audits = (accountId: string, action: string) => ts.testDb.db.selectFrom('audit_log').select(['data', 'actor']).where('account_id', '=', accountId).where('action', '=', action).execute();
  const outcome = async (eventId: string) => (await ts.testDb.db.selectFrom('billing_event').select('outcome').where('id', '=', eventId).executeTakeFirstOrThrow()).outcome;

  it('a dashboard refund of the current period lowers the plan to Free at once, takes the credits back, stops the subscription; replays change nothing', async () => {
    const { client, accountId, subscriptionId } = await subscribed('starter');
    const proof = await rzp.pay(subscriptionId);
    expect(await account(accountId)).toMatchObject({ plan: 'starter', credits_balance: 10_500, subscription_status: 'active' });

    const w = await rzp.dashboardRefund(proof.razorpay_payment_id);
    expect(rzp.sent.at(-1)).toMatchObject({ id: w.id, event: 'refund.processed', status: 200 });
    expect(await outcome(w.id)).toBe('refunded');
    expect(await account(accountId)).toMatchObject({ plan: 'free', credits_balance: 500, subscription_status: 'none', subscription_id: null, monthly_validations_quota: 500, team_member_limit: 1 });
    const pay = await ts.testDb.db.selectFrom('payment').select(['status', 'refund_id']).where('id', '=', proof.razorpay_payment_id).executeTakeFirstOrThrow();
    expect(pay.status).toBe('refunded');
    expect(pay.refund_id).toBe(rzp.refunds.at(-1)!.id);
    // The subscription is stopped at Razorpay too, so it cannot charge again.
    expect(rzp.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/subscriptions/${subscriptionId}/cancel` });
    expect(rzp.requests.at(-1)!.body.cancel_at_cycle_end).toBeFalsy();
    expect(rzp.subscriptions.get(subscriptionId)!.status).toBe('cancelled');
    const refunded = await audits(accountId, 'billing.refunded');
    expect(refunded).toHaveLength(1);
    expect(refunded[0]).toMatchObject({ actor: 'system', data: { from_plan: 'starter', plan: 'free', credits_revoked: 10_000, credits_after: 500, via: 'razorpay_dashboard' } });

    // Replayed (same event id) and re-sent (a new event id for the same refund): no second effect.
    await ts.testDb.db.updateTable('account').set({ credits_balance: 321 }).where('id', '=', accountId).execute();
    expect(await rzp.deliver(w)).toBe(200);
    const resent = rzp.build('refund.processed', JSON.parse(w.raw).payload as Record<string, unknown>);
    expect(await rzp.deliver(resent)).toBe(200);
    expect(await outcome(resent.id)).toBe('already_refunded');
    expect((await account(accountId)).credits_balance).toBe(321);
    expect(await audits(accountId, 'billing.refunded')).toHaveLength(1);
    // Our refund button finds nothing left to refund.
    const again = await client.trpcMutation('billing.refund');
    expect(again.status).toBe(409);
    expect(rzp.refunds.filter((r) => r.payment_id === proof.razorpay_payment_id)).toHaveLength(1);
  });

  it('a refunded subscription whose stop at Razorpay failed and that Razorpay charges again is stopped then', async () => {
    const { accountId, subscriptionId } = await subscribed('starter');
    const proof = await rzp.pay(subscriptionId);
    rzp.failNext(500); // the cancel that follows the refund does not reach Razorpay
    await rzp.dashboardRefund(proof.razorpay_payment_id);
    expect(await account(accountId)).toMatchObject({ plan: 'free', subscription_id: null });
    expect(rzp.subscriptions.get(subscriptionId)!.status).toBe('active');

    // A month later Razorpay renews the subscription the customer had refunded.
    rzp.setNow(rzp.subscriptions.get(subscriptionId)!.current_end! + 60);
    await rzp.renew(subscriptionId);
    expect(rzp.sent.at(-1)).toMatchObject({ event: 'subscription.charged', status: 200 });
    const cancels = rzp.requests.filter((r) => r.path === `/v1/subscriptions/${subscriptionId}/cancel`);
    expect(cancels.at(-1)?.body.cancel_at_cycle_end, 'the subscription was left to charge the customer every month').toBeFalsy();
    expect(rzp.subscriptions.get(subscriptionId)!.status).toBe('cancelled');
  });

  it('our own refund first, then Razorpay’s refund.processed for it: applied once', async () => {
    const { client, accountId, subscriptionId } = await subscribed('pro');
    await rzp.pay(subscriptionId);
    expect((await client.trpcMutation('billing.refund')).status).toBe(200);
    const events = () => ts.testDb.db.selectFrom('billing_event').select(['event', 'outcome']).where('account_id', '=', accountId).where('event', '=', 'refund.processed').execute();
    await expect.poll(events).toEqual([{ event: 'refund.processed', outcome: 'already_refunded' }]);
    expect(await account(accountId)).toMatchObject({ plan: 'free', credits_balance: 500 });
    const refunded = await audits(accountId, 'billing.refunded');
    expect(refunded).toHaveLength(1);
    expect(refunded[0]!.data).toMatchObject({ via: 'refund_button', credits_revoked: 100_000 });
  });

  it('a refund of an earlier period’s payment is recorded and audit-logged; the plan stays', async () => {
    const { accountId, subscriptionId } = await subscribed('starter');
    rzp.setNow(Math.floor(Date.now() / 1000));
    const first = await rzp.pay(subscriptionId);
    await rzp.renew(subscriptionId);
    const before = await account(accountId);
    const w = await rzp.dashboardRefund(first.razorpay_payment_id);
    expect(await outcome(w.id)).toBe('refund_recorded');
    expect(await account(accountId)).toEqual(before);
    expect(await audits(accountId, 'billing.refunded')).toHaveLength(0);
    const recorded = await audits(accountId, 'billing.refund_recorded');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.data).toMatchObject({ current_period: false, partial: false });
  });

  it('a partial dashboard refund is recorded; the plan stays', async () => {
    const { accountId, subscriptionId } = await subscribed('starter');
    const p = await rzp.pay(subscriptionId);
    const w = await rzp.dashboardRefund(p.razorpay_payment_id, { amount: 100 });
    expect(await outcome(w.id)).toBe('refund_recorded');
    expect(await account(accountId)).toMatchObject({ plan: 'starter', credits_balance: 10_500 });
    expect((await audits(accountId, 'billing.refund_recorded'))[0]!.data).toMatchObject({ partial: true, amount: 100 });
  });

  it('a payment refunded in parts from the dashboard: the part that completes it lowers the plan like a whole refund; receipts say what came back', async () => {
    const { client, accountId, subscriptionId } = await subscribed('starter');
    const p = await rzp.pay(subscriptionId);
    const first = await rzp.dashboardRefund(p.razorpay_payment_id, { amount: 900 });
    expect(await outcome(first.id)).toBe('refund_recorded');
    expect(await account(accountId)).toMatchObject({ plan: 'starter', credits_balance: 10_500 });
    const receipt = await (await client.request(`/api/billing/receipts/${p.razorpay_payment_id}`)).text();
    expect(receipt.match(/<td>Status<\/td><td>([^<]*)</)?.[1], 'the receipt said the whole payment was refunded').toBe('Paid; $9 refunded');
    // The same part refund again (reconciliation, a re-sent webhook) counts once.
    const again = rzp.build('refund.processed', JSON.parse(first.raw).payload as Record<string, unknown>);
    expect(await rzp.deliver(again)).toBe(200);
    expect(await outcome(again.id)).toBe('already_refunded');

    // The rest is refunded: the customer has all the money back, so the plan goes like after a whole refund.
    rzp.refunds.length = 0; // the fake allows one refund per payment
    const rest = await rzp.dashboardRefund(p.razorpay_payment_id, { amount: 1000 });
    expect(await outcome(rest.id), 'the second part was taken as already refunded: all the money back, plan and credits kept').toBe('refunded');
    expect(await account(accountId)).toMatchObject({ plan: 'free', credits_balance: 500, subscription_id: null });
    expect(await (await client.request(`/api/billing/receipts/${p.razorpay_payment_id}`)).text()).toContain('Refunded on');
  });

  it('out of order: the refund arrives before its charge — the charge applies, then the refund, once; replays of both change nothing', async () => {
    const { client, accountId, subscriptionId } = await subscribed('starter');
    const { paymentId, charged } = rzp.renewHeld(subscriptionId); // the first charge, held back
    const refund = await rzp.dashboardRefund(paymentId);
    expect(await outcome(refund.id)).toBe('unknown_payment');
    expect(await account(accountId)).toMatchObject({ plan: 'free', credits_balance: 500 });

    expect(await rzp.deliver(charged)).toBe(200);
    expect(await outcome(charged.id)).toBe('charged_then_refunded');
    expect(await outcome(refund.id)).toBe('refunded');
    expect(await account(accountId)).toMatchObject({ plan: 'free', credits_balance: 500, subscription_status: 'none', subscription_id: null });
    expect(rzp.subscriptions.get(subscriptionId)!.status).toBe('cancelled');
    const pays = await ts.testDb.db.selectFrom('payment').select(['id', 'status']).where('account_id', '=', accountId).execute();
    expect(pays).toEqual([{ id: paymentId, status: 'refunded' }]);

    for (const w of [charged, refund, charged]) expect(await rzp.deliver(w)).toBe(200);
    const resentCharge = rzp.build('subscription.charged', JSON.parse(charged.raw).payload as Record<string, unknown>);
    expect(await rzp.deliver(resentCharge)).toBe(200);
    expect(await outcome(resentCharge.id)).toBe('duplicate');
    expect(await account(accountId)).toMatchObject({ plan: 'free', credits_balance: 500 });
    expect(await audits(accountId, 'billing.refunded')).toHaveLength(1);
    expect(await audits(accountId, 'billing.charged')).toHaveLength(1);
    expect((await client.trpcMutation('billing.refund')).status).toBe(409);
  });

  it('a refund Razorpay could not complete (refund.failed) is not left claimed as refunded: it is made again', async () => {
    const { client, accountId, subscriptionId } = await subscribed('starter');
    const proof = await rzp.pay(subscriptionId);
    expect((await client.trpcMutation('billing.refund')).status).toBe(200);
    await expect.poll(() => rzp.sent.filter((w) => w.event === 'refund.processed' && w.raw.includes(proof.razorpay_payment_id)).length).toBe(1);
    const first = rzp.refunds.find((r) => r.payment_id === proof.razorpay_payment_id)!;
    expect(await account(accountId)).toMatchObject({ plan: 'free' });

    // The customer's bank refuses it: the money is still with us.
    const failed = await rzp.failRefund(first.id);
    expect(await outcome(failed.id)).toBe('refund_failed');
    const made = rzp.refunds.filter((r) => r.payment_id === proof.razorpay_payment_id);
    expect(made.map((r) => r.status ?? 'processed'), 'the owner was told the money is on its way; nothing would ever send it').toEqual(['failed', 'processed']);
    const pay = await ts.testDb.db.selectFrom('payment').select(['status', 'refund_id', 'refund_ids', 'refunded_amount', 'amount']).where('id', '=', proof.razorpay_payment_id).executeTakeFirstOrThrow();
    expect(pay).toMatchObject({ status: 'refunded', refund_id: made[1]!.id, refund_ids: [made[1]!.id], refunded_amount: pay.amount });
    expect(await account(accountId)).toMatchObject({ plan: 'free', credits_balance: 500 });
    expect(await audits(accountId, 'billing.refund_failed')).toHaveLength(1);
    // The same refund.failed again changes nothing (no third refund).
    expect(await rzp.deliver({ ...failed, id: `${failed.id}_again` })).toBe(200);
    expect(rzp.refunds.filter((r) => r.payment_id === proof.razorpay_payment_id)).toHaveLength(2);
    // And the refund button does not offer the payment again.
    expect((await client.trpcQuery('billing.overview')).body.result.data.refund.eligible).toBe(false);
  });

  it('a failed refund whose retry fails too stays owed: the reconciliation makes it', async () => {
    const { client, subscriptionId } = await subscribed('starter');
    const proof = await rzp.pay(subscriptionId);
    expect((await client.trpcMutation('billing.refund')).status).toBe(200);
    // Its refund.processed is handled before Razorpay reports the refund failed (as Razorpay orders them).
    await expect.poll(() => rzp.sent.filter((w) => w.event === 'refund.processed' && w.raw.includes(proof.razorpay_payment_id)).length).toBe(1);
    const first = rzp.refunds.find((r) => r.payment_id === proof.razorpay_payment_id)!;
    rzp.failNext(500); // the immediate retry's refund call fails
    await rzp.failRefund(first.id);
    const status = async () => (await ts.testDb.db.selectFrom('payment').select('status').where('id', '=', proof.razorpay_payment_id).executeTakeFirstOrThrow()).status;
    expect(await status()).toBe('captured');
    const r = await reconcileBilling(ts.server.deps, new Date(), { subscriptionIds: [] });
    expect(r.refunded).toContain(proof.razorpay_payment_id);
    expect(await status()).toBe('refunded');
    expect(rzp.refunds.filter((x) => x.payment_id === proof.razorpay_payment_id).map((x) => x.status ?? 'processed')).toEqual(['failed', 'processed']);
    // Once made, later runs leave it alone.
    expect((await reconcileBilling(ts.server.deps, new Date(), { subscriptionIds: [] })).refunded).not.toContain(proof.razorpay_payment_id);
  });

  it('a refund.processed that reaches us after the same refund\'s refund.failed gives nothing back and takes nothing away', async () => {
    // Razorpay's dashboard refund fails; its webhooks arrive out of order.
    const dash = await subscribed('starter');
    const paid = await rzp.pay(dash.subscriptionId);
    const processed = await rzp.dashboardRefund(paid.razorpay_payment_id, { hold: true });
    const refund = rzp.refunds.find((r) => r.payment_id === paid.razorpay_payment_id)!;
    expect(await outcome((await rzp.failRefund(refund.id)).id)).toBe('refund_failed_seen');
    expect(await rzp.deliver(processed)).toBe(200);
    expect(await outcome(processed.id)).toBe('refund_failed_before');
    expect(await account(dash.accountId), 'a refund that gave nothing back took the plan away').toMatchObject({ plan: 'starter', subscription_status: 'active' });
    expect((await ts.testDb.db.selectFrom('payment').select('status').where('id', '=', paid.razorpay_payment_id).executeTakeFirstOrThrow()).status).toBe('captured');

    // The owner's refund button: its refund fails, the retry fails, then the first refund.processed is re-sent.
    const { client, subscriptionId } = await subscribed('starter');
    const proof = await rzp.pay(subscriptionId);
    expect((await client.trpcMutation('billing.refund')).status).toBe(200);
    await expect.poll(() => rzp.sent.filter((w) => w.event === 'refund.processed' && w.raw.includes(proof.razorpay_payment_id)).length).toBe(1);
    const first = rzp.sent.find((w) => w.event === 'refund.processed' && w.raw.includes(proof.razorpay_payment_id))!;
    rzp.failNext(500);
    await rzp.failRefund(rzp.refunds.find((r) => r.payment_id === proof.razorpay_payment_id)!.id);
    expect(await rzp.deliver({ ...first, id: `${first.id}_late` })).toBe(200);
    expect(await outcome(`${first.id}_late`)).toBe('refund_failed_before');
    const owed = await reconcileBilling(ts.server.deps, new Date(), { subscriptionIds: [] });
    expect(owed.refunded, 'the refund still owed was taken as made').toContain(proof.razorpay_payment_id);
  });

  it('the reconciliation does not take a refund that failed at Razorpay for one that was made', async () => {
    const { accountId, subscriptionId } = await subscribed('starter');
    const proof = await rzp.pay(subscriptionId);
    await rzp.dashboardRefund(proof.razorpay_payment_id, { hold: true }); // its refund.processed never came…
    rzp.refunds.find((r) => r.payment_id === proof.razorpay_payment_id)!.status = 'failed'; // …because it failed
    await reconcileBilling(ts.server.deps, new Date());
    expect(await account(accountId), 'a refund that gave nothing back took the plan away').toMatchObject({ plan: 'starter', subscription_status: 'active' });
    expect((await ts.testDb.db.selectFrom('payment').select('status').where('id', '=', proof.razorpay_payment_id).executeTakeFirstOrThrow()).status).toBe('captured');
  });

  it('a forged refund.processed answers 401 and changes nothing', async () => {
    const { accountId, subscriptionId } = await subscribed('starter');
    const p = await rzp.pay(subscriptionId);
    const raw = JSON.stringify({ event: 'refund.processed', created_at: Math.floor(Date.now() / 1000) + DAY, payload: { refund: { entity: { id: 'rfnd_forged', payment_id: p.razorpay_payment_id, amount: 99_900 } } } });
    const res = await fetch(`${ts.url}/api/billing/razorpay/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-razorpay-event-id': 'evt_forged_refund', 'x-razorpay-signature': 'a'.repeat(64) }, body: raw });
    expect(res.status).toBe(401);
    expect(await account(accountId)).toMatchObject({ plan: 'starter', credits_balance: 10_500 });
    expect((await ts.testDb.db.selectFrom('payment').select('status').where('id', '=', p.razorpay_payment_id).executeTakeFirstOrThrow()).status).toBe('captured');
  });

  it('the refund button while a renewal charge of the same subscription comes in: both answered, no deadlock', async () => {
    const { client, accountId, subscriptionId } = await subscribed('starter');
    rzp.setNow(Math.floor(Date.now() / 1000));
    const first = await rzp.pay(subscriptionId);
    // The refund holds its rows while Razorpay's refund API answers; the renewal's webhook arrives then.
    const gate = rzp.holdNextRefund();
    const refund = client.trpcMutation('billing.refund');
    await gate.arrived;
    const renewal = rzp.renewHeld(subscriptionId);
    const delivered = rzp.deliver(renewal.charged);
    const waiting = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(ts.testDb.db)).rows[0]!.n);
    await expect.poll(waiting, { interval: 20, timeout: 10_000 }).toBeGreaterThan(0);
    gate.release();

    const [r, status] = await Promise.all([refund, delivered]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(status).toBe(200);
    // The refunded payment is recorded refunded; the renewal paid after it is the account's period.
    expect((await ts.testDb.db.selectFrom('payment').select('status').where('id', '=', first.razorpay_payment_id).executeTakeFirstOrThrow()).status).toBe('refunded');
    expect((await ts.testDb.db.selectFrom('payment').select('status').where('id', '=', renewal.paymentId).executeTakeFirstOrThrow()).status).toBe('captured');
    expect(await account(accountId)).toMatchObject({ plan: 'starter', subscription_id: subscriptionId });
    expect(await audits(accountId, 'billing.refunded')).toHaveLength(1);
  });
});
