// The labelled test checkout plays Razorpay's payment step, and like Razorpay's checkout it pays a
// subscription once. Two clicks on Pay at once (two tabs, a double-click that beat the button's busy
// state, a replayed request) used to both go through: two subscription.charged events, two Paid rows.
import { describe, expect, it } from 'vitest';
import { signUpVerified, testServer } from '../helpers/test-server';

describe('the test checkout pays a subscription once', () => {
  const ts = testServer();

  async function checkout(tag: string) {
    const client = await signUpVerified(ts, { email: `${tag}@example.com`, name: 'Payer' });
    const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
    const co = await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' });
    expect(co.status).toBe(200);
    return { client, accountId, subscriptionId: co.body.result.data.subscriptionId as string };
  }
  const charges = (accountId: string) =>
    ts.testDb.db.selectFrom('billing_event').select('event').where('account_id', '=', accountId).where('event', '=', 'subscription.charged').execute();
  const balance = async (accountId: string) => (await ts.testDb.db.selectFrom('account').select('credits_balance').where('id', '=', accountId).executeTakeFirstOrThrow()).credits_balance;

  it('two payments sent at once: one pays, the other is refused (409) and nothing is charged twice', async () => {
    const { client, accountId, subscriptionId } = await checkout('twice-at-once');
    const answers = await Promise.all([1, 2, 3].map(() => client.trpcMutation('billing.completeTestPayment', { subscriptionId })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const refused = answers.find((a) => a.status === 409);
    expect(refused?.body.error.message).toBe('This subscription has already been paid.');
    expect(await charges(accountId)).toHaveLength(1);
    expect(await balance(accountId)).toBe(500 + 10_000);
  });

  it('paying again later is refused too, and the first payment still verifies', async () => {
    const { client, accountId, subscriptionId } = await checkout('twice-later');
    const first = await client.trpcMutation('billing.completeTestPayment', { subscriptionId });
    expect(first.status).toBe(200);
    const again = await client.trpcMutation('billing.completeTestPayment', { subscriptionId });
    expect(again.status).toBe(409);
    expect((await client.trpcMutation('billing.verifyPayment', first.body.result.data)).body.result.data).toMatchObject({ plan: 'starter', applied: true });
    expect(await charges(accountId)).toHaveLength(1);
  });
});
