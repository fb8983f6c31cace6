// The checkout handler's proof reaches the server from the tab that opened the checkout, whichever
// account the browser's session works in by then: an owner who accepted an invitation to another
// team in another tab while paying is told the truth about their payment, and it is applied to the
// account it was made for — never to the team they are working in now.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { invitationIdFromMail, ownerOn, uniqueEmail, whoAmI } from '../helpers/accounts';
import { razorpayServer } from '../helpers/razorpay-server';
import { signUpVerified, testServer } from '../helpers/test-server';

describe('verifying a payment after switching to another team', () => {
  const { ts, rzp } = razorpayServer('whsec_verify_account');

  for (const webhookFirst of [true, false]) {
    it(`applies it to the account that paid and says so${webhookFirst ? '' : ' (the handler’s answer comes before any webhook)'}`, async () => {
      const payerEmail = uniqueEmail('payer');
      const payer = await signUpVerified(ts, { email: payerEmail, name: 'Payer' });
      const own = await whoAmI(payer);
      await ts.testDb.db.updateTable('organization').set({ name: 'Payer Own Co' }).where('id', '=', own.accountId).execute();
      const co = (await payer.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;

      // Meanwhile, in another tab, the payer accepts an invitation to another team (as a member).
      const team = await ownerOn(ts, 'business', 'team');
      expect((await team.client.trpcMutation('team.invite', { email: payerEmail, role: 'member' })).status).toBe(200);
      const invitationId = await invitationIdFromMail(ts, payerEmail);
      expect((await payer.trpcMutation('team.acceptInvitation', { invitationId })).status).toBe(200);
      expect((await whoAmI(payer)).accountId).toBe(team.accountId);

      // The checkout in the first tab completes.
      let proof;
      if (webhookFirst) proof = await rzp.pay(co.subscriptionId);
      else {
        const held = rzp.payHeld(co.subscriptionId);
        proof = { razorpay_payment_id: held.paymentId, razorpay_subscription_id: co.subscriptionId, razorpay_signature: createHmac('sha256', rzp.keySecret).update(`${held.paymentId}|${co.subscriptionId}`).digest('hex') };
      }
      const verified = await payer.trpcMutation('billing.verifyPayment', proof);
      expect(verified.status, `the browser said Payment Verification Failed: ${JSON.stringify(verified.body)}`).toBe(200);
      expect(verified.body.result.data).toMatchObject({ applied: true, plan: 'starter', planName: 'Starter', accountId: own.accountId, accountName: 'Payer Own Co', otherAccount: true });

      const plans = await ts.testDb.db.selectFrom('account').select(['id', 'plan']).where('id', 'in', [own.accountId, team.accountId]).execute();
      expect(Object.fromEntries(plans.map((p) => [p.id, p.plan]))).toEqual({ [own.accountId]: 'starter', [team.accountId]: 'business' });
      // Still working in the team.
      expect((await whoAmI(payer)).accountId).toBe(team.accountId);
    });
  }

  it('still refuses a proof for an account the caller does not own', async () => {
    const a = await ownerOn(ts, 'free', 'a');
    const co = (await a.client.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    const proof = await rzp.pay(co.subscriptionId);
    // An admin of a's team holds the proof (a shared screen): not theirs to verify.
    const adminEmail = uniqueEmail('admin');
    await ts.testDb.db.updateTable('account').set({ team_member_limit: 5 }).where('id', '=', a.accountId).execute();
    expect((await a.client.trpcMutation('team.invite', { email: adminEmail, role: 'admin' })).status).toBe(200);
    const invitationId = await invitationIdFromMail(ts, adminEmail);
    const admin = await signUpVerified(ts, { email: adminEmail, name: 'Admin' });
    expect((await admin.trpcMutation('team.acceptInvitation', { invitationId })).status).toBe(200);
    const r = await admin.trpcMutation('billing.verifyPayment', proof);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('We could not find this subscription for your account.');
  });
});

describe('the labelled test checkout after switching to another team', () => {
  const ts = testServer();

  it('pays the subscription it was opened for, on the account that opened it', async () => {
    const payerEmail = uniqueEmail('test-payer');
    const payer = await signUpVerified(ts, { email: payerEmail, name: 'Payer' });
    const own = await whoAmI(payer);
    const co = (await payer.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' })).body.result.data;
    const team = await ownerOn(ts, 'business', 'test-team');
    expect((await team.client.trpcMutation('team.invite', { email: payerEmail, role: 'member' })).status).toBe(200);
    expect((await payer.trpcMutation('team.acceptInvitation', { invitationId: await invitationIdFromMail(ts, payerEmail) })).status).toBe(200);

    const paid = await payer.trpcMutation('billing.completeTestPayment', { subscriptionId: co.subscriptionId });
    expect(paid.status, `the test checkout said 'Failed to process payment': ${JSON.stringify(paid.body)}`).toBe(200);
    const verified = await payer.trpcMutation('billing.verifyPayment', paid.body.result.data);
    expect(verified.body.result.data).toMatchObject({ applied: true, plan: 'starter', accountId: own.accountId, otherAccount: true });
    // Someone who does not own it cannot pay it.
    expect((await team.client.trpcMutation('billing.completeTestPayment', { subscriptionId: co.subscriptionId })).status).toBe(404);
  });
});
