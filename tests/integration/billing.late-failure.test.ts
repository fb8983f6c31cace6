// Razorpay webhooks out of order or replayed: a payment.failed never puts a paying account back
// into dunning (past due, then suspended) once a later charge has been applied, nor twice for the
// same payment (its event id is not signed: a captured body can come again under a new one).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';
import { billingTick } from '../../server/features/billing/billing-tick';

let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;
const DAY = 86_400;

describe('payment.failed delivered late or again', () => {
  const { ts, rzp } = razorpayServer('whsec_late_1');

  it('a payment.failed older than the charge that followed it does not put a paid account past due (nor suspend it)', async () => {
    const address = email('payer');
    const client = await signUpVerified(ts, { email: address, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    const t0 = Math.floor(Date.now() / 1000);
    rzp.setNow(t0);
    await rzp.pay(co.subscriptionId);

    // Renewal: attempt 1 fails (its payment.failed webhook is delayed by Razorpay's retries), attempt
    // 2 is charged and delivered first.
    const sub = rzp.subscriptions.get(co.subscriptionId)!;
    const failedEarlier = rzp.build(
      'payment.failed',
      { payment: { entity: { id: 'pay_late_failed_1', entity: 'payment', amount: 1900, currency: 'USD', status: 'failed', error_description: 'declined', subscription_id: sub.id } } },
      { createdAt: Math.floor(Date.now() / 1000) - 3600 },
    );
    await rzp.renew(co.subscriptionId); // subscription.charged, created now
    const paid = await ts.testDb.db.selectFrom('account').select(['subscription_status', 'plan']).where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(paid).toEqual({ subscription_status: 'active', plan: 'starter' });

    // The delayed failure of the earlier attempt now arrives.
    expect(await rzp.deliver(failedEarlier)).toBe(200);
    const after = await ts.testDb.db.selectFrom('account').select(['subscription_status', 'grace_ends_at']).where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(after.subscription_status, 'a stale payment.failed rolled a paid account back to past_due').toBe('active');

    // …and 8 days later the paying customer would be suspended.
    await billingTick(ts.server.deps, new Date(Date.now() + 8 * DAY * 1000));
    const later = await ts.testDb.db.selectFrom('account').select('subscription_status').where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(later.subscription_status).toBe('active');
  });

  it('the same failed payment sent again under a new event id after the renewal was paid changes nothing', async () => {
    const client = await signUpVerified(ts, { email: email('replayed'), name: 'Replayed' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000));
    await rzp.pay(co.subscriptionId);
    const status = async () => (await ts.testDb.db.selectFrom('account').select('subscription_status').where('id', '=', accountId).executeTakeFirstOrThrow()).subscription_status;

    // A renewal attempt fails (past due, as it should), then the retry is charged.
    const failed = rzp.build('payment.failed', { payment: { entity: { id: 'pay_replayed_1', entity: 'payment', amount: 1900, currency: 'USD', status: 'failed', error_description: 'declined', subscription_id: co.subscriptionId } } });
    expect(await rzp.deliver(failed)).toBe(200);
    expect(await status()).toBe('past_due');
    rzp.setNow(Math.floor(Date.now() / 1000) + 60);
    await rzp.renew(co.subscriptionId);
    expect(await status()).toBe('active');

    // The captured, validly signed failure body again, under an event id of the sender's choosing.
    expect(await rzp.deliver({ ...failed, id: `${failed.id}_again` })).toBe(200);
    expect(await status()).toBe('active');
  });
  it('a declined first card delivered after the checkout handler applied the second card does not put the new customer past due', async () => {
    const client = await signUpVerified(ts, { email: email('newcard'), name: 'New card' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000));
    // In the checkout the first card is declined (payment.failed, created first), the second is
    // charged; the browser's handler reaches us before any of Razorpay's webhooks.
    const declined = rzp.build(
      'payment.failed',
      { payment: { entity: { id: 'pay_first_card_declined', entity: 'payment', amount: 1900, currency: 'USD', status: 'failed', error_description: 'declined', subscription_id: co.subscriptionId } } },
      { createdAt: Math.floor(Date.now() / 1000) - 120 },
    );
    const held = rzp.payHeld(co.subscriptionId);
    const proof = { razorpay_payment_id: held.paymentId, razorpay_subscription_id: co.subscriptionId, razorpay_signature: createHmac('sha256', rzp.keySecret).update(`${held.paymentId}|${co.subscriptionId}`).digest('hex') };
    expect((await client.trpcMutation('billing.verifyPayment', proof)).body.result.data).toMatchObject({ plan: 'starter' });

    // Razorpay's webhooks now come, the declined attempt first.
    expect(await rzp.deliver(declined)).toBe(200);
    expect(await rzp.deliver(held.activated)).toBe(200);
    expect(await rzp.deliver(held.charged)).toBe(200);
    const after = await ts.testDb.db.selectFrom('account').select(['plan', 'subscription_status', 'grace_ends_at']).where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(after, 'a customer who had just paid was put past due by the card declined before it').toEqual({ plan: 'starter', subscription_status: 'active', grace_ends_at: null });
    const pastDue = await ts.testDb.db.selectFrom('audit_log').select('id').where('account_id', '=', accountId).where('action', '=', 'billing.past_due').execute();
    expect(pastDue).toHaveLength(0);
  });
});
