// Razorpay webhooks out of order or replayed: a payment.failed never puts a paying account back
// into dunning (past due, then suspended) once a later charge has been applied, nor twice for the
// same payment (its event id is not signed: a captured body can come again under a new one).
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
});
