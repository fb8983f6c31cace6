// Support puts an account on a plan by hand (`mailvet accounts set-plan`, a sales-led deal). An
// account still paying a Razorpay subscription would get its paid plan back at the next renewal (and
// its card charged for it on top of the deal), or fall to Free at the end of a cancelled period: the
// command refuses and says what to do first; once the subscription is stopped and detached, it works.
import { describe, expect, it } from 'vitest';
import { setPlan } from '../../server/features/account/account.operator';
import { setBillingState } from '../../server/features/billing/billing.operator';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

describe('set-plan on an account that pays a subscription', () => {
  const { ts, rzp } = razorpayServer('whsec_operator_plan');
  const db = () => ts.testDb.db;
  const account = (id: string) => db().selectFrom('account').select(['plan', 'subscription_status', 'subscription_id']).where('id', '=', id).executeTakeFirstOrThrow();

  it('is refused while the subscription runs (its renewal would undo the plan and charge the card); after the subscription is stopped and detached it applies', async () => {
    const client = await signUpVerified(ts, { email: `operator-plan-${Date.now().toString(36)}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    rzp.setNow(Math.floor(Date.now() / 1000));
    const co = (await client.trpcMutation('billing.checkout', { planType: 'business', interval: 'monthly' })).body.result.data;
    await rzp.pay(co.subscriptionId);
    expect(await account(accountId)).toMatchObject({ plan: 'business', subscription_status: 'active' });

    const refused = await setPlan(db(), accountId, 'enterprise').then(
      () => null,
      (err: { code?: string; message?: string }) => err,
    );
    expect(refused, 'set-plan went through: the next renewal puts the account back on Business and charges the card').not.toBeNull();
    expect(refused!.code).toBe('CONFLICT');
    expect(refused!.message).toMatch(/Razorpay subscription/);
    expect(refused!.message).toContain(co.subscriptionId);
    expect(await account(accountId)).toMatchObject({ plan: 'business' });
    expect(await db().selectFrom('audit_log').select('id').where('account_id', '=', accountId).where('action', '=', 'account.plan_set').execute()).toHaveLength(0);

    // Support stops it at Razorpay (its dashboard) and detaches it; then the deal's plan holds.
    await rzp.endSubscription(co.subscriptionId);
    await setBillingState(db(), accountId, { status: 'none' });
    await setPlan(db(), accountId, 'enterprise');
    expect(await account(accountId)).toMatchObject({ plan: 'enterprise', subscription_status: 'none', subscription_id: null });
  });
});
