// A renewal Razorpay gave up on (subscription.halted: its retries are over). Razorpay charges nothing
// more by itself then — a card updated at Razorpay makes the subscription active again but leaves the
// unpaid invoice uncharged — so the owner is told to pay from the Billing page, not that Razorpay
// retries or that updating the card is enough: the account would be suspended at the grace's end.
import { describe, expect, it } from 'vitest';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified } from '../helpers/test-server';

let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;
const DAY = 86_400;
const HALTED_SUBJECT = 'Your Mailvet payment could not be collected';

describe('a renewal halted at Razorpay', () => {
  const { ts, rzp } = razorpayServer('whsec_halted');
  const mails = (to: string) => ts.testDb.db.selectFrom('dev_outbox').select(['subject', 'text']).where('to', '=', to).where('subject', 'like', 'Your Mailvet %').orderBy('created_at').execute();

  async function renewalDue() {
    const address = email('halted');
    const client = await signUpVerified(ts, { email: address, name: 'Payer' });
    const co = (await client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    rzp.setNow(Math.floor(Date.now() / 1000) - 31 * DAY);
    await rzp.pay(co.subscriptionId);
    rzp.setNow(Math.floor(Date.now() / 1000));
    return { client, address, sub: co.subscriptionId as string };
  }

  it('pending, then halted: the page and a mail say Razorpay stopped retrying and to pay from the Billing page', async () => {
    const { client, address, sub } = await renewalDue();
    await rzp.failRenewal(sub);
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ status: 'past_due', halted: false });
    expect((await mails(address)).map((m) => m.subject)).toEqual(['Your Mailvet payment failed']);

    await rzp.halt(sub);
    const ov = (await client.trpcQuery('billing.overview')).body.result.data;
    expect(ov, 'the page still says Razorpay retries the charge').toMatchObject({ status: 'past_due', halted: true });
    const halted = (await mails(address)).filter((m) => m.subject === HALTED_SUBJECT);
    expect(halted).toHaveLength(1);
    expect(halted[0]!.text).toMatch(/^Razorpay has stopped retrying the payment for your Mailvet subscription\. Your plan keeps working until [A-Z][a-z]+ \d{1,2}, \d{4} \(UTC\); pay from the Billing page before then to avoid a suspension\. A card updated at Razorpay is charged only from your next renewal\./);
    expect(halted[0]!.text).toContain('/dashboard/billing');

    // The same halt again (Razorpay's retry of the webhook under another id): no second mail.
    const again = rzp.build('subscription.halted', { subscription: { entity: { id: sub, entity: 'subscription', status: 'halted', plan_id: rzp.subscriptions.get(sub)!.plan_id, current_start: null, current_end: null } } });
    expect(await rzp.deliver(again)).toBe(200);
    expect((await mails(address)).filter((m) => m.subject === HALTED_SUBJECT)).toHaveLength(1);

    // Paid (the outstanding invoice): active, no longer halted.
    await rzp.renew(sub);
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ status: 'active', halted: false });
  });

  it('halted with its pending lost: one mail, the halted one', async () => {
    const { client, address, sub } = await renewalDue();
    await rzp.halt(sub);
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ status: 'past_due', halted: true });
    expect((await mails(address)).map((m) => m.subject)).toEqual([HALTED_SUBJECT]);
  });

  it('halted, then the card updated at Razorpay (active again, the missed invoice left unpaid): the page still says to pay now', async () => {
    const { client, sub } = await renewalDue();
    await rzp.failRenewal(sub);
    await rzp.halt(sub);
    const remote = rzp.subscriptions.get(sub)!;
    remote.status = 'active';
    expect(await rzp.deliver(rzp.build('subscription.activated', { subscription: { entity: { id: sub, entity: 'subscription', status: 'active', plan_id: remote.plan_id, current_start: remote.current_start, current_end: remote.current_end } } }))).toBe(200);
    expect((await client.trpcQuery('billing.overview')).body.result.data, 'the page went back to "Razorpay retries the charge"').toMatchObject({ status: 'past_due', halted: true });
    await rzp.renew(sub);
    expect((await client.trpcQuery('billing.overview')).body.result.data).toMatchObject({ status: 'active', halted: false });
  });
});
