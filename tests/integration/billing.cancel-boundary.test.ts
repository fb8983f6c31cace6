// The owner cancels at the very end of the period, after Razorpay has already charged the renewal
// but before its webhook reached us: Razorpay ends the subscription at the end of the period just
// paid. The charge, when it arrives, must not undo the cancellation here (the page said "Renews on"
// while Razorpay would end it), also when billing-tick had let the account fall to Free meanwhile.
import { describe, expect, it } from 'vitest';
import { billingTick } from '../../server/features/billing/billing-tick';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

let n = 0;

describe('cancelled at the period boundary, the renewal already charged', () => {
  const { ts, rzp } = razorpayServer('whsec_cancel_boundary');

  async function paid() {
    const client = await signUpVerified(ts, { email: `boundary-${++n}-${Date.now().toString(36)}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000) - 32 * 86_400);
    await rzp.pay(co.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    return { client, accountId, subscriptionId: co.subscriptionId as string };
  }

  for (const fellToFree of [false, true]) {
    it(`the late renewal charge keeps the cancellation${fellToFree ? ' (the account had fallen to Free meanwhile)' : ''}`, async () => {
      const { client, accountId, subscriptionId } = await paid();
      const renewal = rzp.renewHeld(subscriptionId); // charged at Razorpay; its webhook is on its way
      expect((await client.trpcMutation('billing.cancel')).status).toBe(200);
      if (fellToFree) {
        await billingTick(ts.server.deps, new Date());
        expect((await client.trpcQuery('billing.overview')).body.result.data.plan).toBe('free');
      }
      expect(await rzp.deliver(renewal.charged)).toBe(200);
      const ov = (await client.trpcQuery('billing.overview')).body.result.data;
      expect({ plan: ov.plan, status: ov.status, cancelAtPeriodEnd: ov.cancelAtPeriodEnd }, 'the page said the plan renews though Razorpay ends it').toEqual({ plan: 'starter', status: 'active', cancelAtPeriodEnd: true });
      const row = await ts.testDb.db.selectFrom('account').select('subscription_id').where('id', '=', accountId).executeTakeFirstOrThrow();
      expect(row.subscription_id).toBe(subscriptionId);
    });
  }
});
