import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { planByType } from '../../server/contracts/plans';
import { startFakeRazorpay, type FakeRazorpay } from '../helpers/fake-razorpay';
import { Browserless, signUpVerified, startTestServer, type TestServer } from '../helpers/test-server';

let n = 0;
const email = (tag: string) => `${tag}-${++n}@example.com`;

async function ownerOn(ts: TestServer, plan: Plan = 'free') {
  const client = await signUpVerified(ts, { email: email('payer'), name: 'Payer' });
  const accountId = (await client.trpcQuery('account.me')).body.result.data.accountId as string;
  if (plan !== 'free') {
    const def = planByType(plan);
    await ts.testDb.db.updateTable('account').set({ plan, team_member_limit: def.teamMemberLimit, monthly_validations_quota: def.monthlyValidations }).where('id', '=', accountId).execute();
  }
  return { client, accountId };
}

const account = (ts: TestServer, id: string) =>
  ts.testDb.db.selectFrom('account').select(['plan', 'credits_balance', 'monthly_validations_quota', 'team_member_limit']).where('id', '=', id).executeTakeFirstOrThrow();

const sign = (orderId: string, paymentId: string, secret: string) => createHmac('sha256', secret).update(`${orderId}|${paymentId}`).digest('hex');

describe('billing without Razorpay keys: the labelled test checkout', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(async () => {
    await ts?.stop();
  });

  it('creates a test order, pays it through the same verification, upgrades once (a replay is a no-op)', async () => {
    const { client, accountId } = await ownerOn(ts);
    expect((await client.trpcQuery('billing.config')).body.result.data).toEqual({ mode: 'test', canPay: true });
    const order = await client.trpcMutation('billing.createOrder', { planType: 'starter', currency: 'USD' });
    expect(order.status).toBe(200);
    expect(order.body.result.data).toMatchObject({ keyId: 'rzp_test_mailvet_local', amount: 1900, currency: 'USD', mode: 'test', planName: 'Starter' });
    const orderId = order.body.result.data.orderId as string;
    expect(orderId).toMatch(/^order_test_/);

    const proof = (await client.trpcMutation('billing.completeTestPayment', { orderId })).body.result.data;
    expect(proof).toMatchObject({ razorpay_order_id: orderId, razorpay_payment_id: expect.stringMatching(/^pay_test_/), razorpay_signature: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const verified = await client.trpcMutation('billing.verifyPayment', { ...proof, planType: 'starter' });
    expect(verified.status).toBe(200);
    expect(verified.body.result.data).toMatchObject({ plan: 'starter', planName: 'Starter', alreadyProcessed: false, applied: true });
    expect(await account(ts, accountId)).toEqual({ plan: 'starter', credits_balance: 500 + 10_000, monthly_validations_quota: 10_000, team_member_limit: 1 });
    expect((await client.trpcQuery('account.me')).body.result.data.plan).toBe('starter');

    const replay = await client.trpcMutation('billing.verifyPayment', { ...proof, planType: 'starter' });
    expect(replay.status).toBe(200);
    expect(replay.body.result.data.alreadyProcessed).toBe(true);
    expect((await account(ts, accountId)).credits_balance).toBe(10_500);
    const audit = await ts.testDb.db.selectFrom('audit_log').select(['action', 'data']).where('account_id', '=', accountId).where('action', '=', 'billing.plan_upgraded').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.data).toMatchObject({ from_plan: 'free', plan: 'starter', order_id: orderId, payment_id: proof.razorpay_payment_id, credits_granted: 10_000 });
    const row = await ts.testDb.db.selectFrom('payment_order').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'paid', payment_id: proof.razorpay_payment_id, amount: 1900, currency: 'USD', mode: 'test', plan: 'starter' });

    // Upgrading further keeps working; INR amounts are in paise.
    const pro = await client.trpcMutation('billing.createOrder', { planType: 'pro', currency: 'INR' });
    expect(pro.body.result.data).toMatchObject({ amount: 299_900, currency: 'INR' });
  });

  it('applies a payment once even when the same proof arrives concurrently', async () => {
    const { client, accountId } = await ownerOn(ts);
    const orderId = (await client.trpcMutation('billing.createOrder', { planType: 'business', currency: 'INR' })).body.result.data.orderId;
    const proof = (await client.trpcMutation('billing.completeTestPayment', { orderId })).body.result.data;
    const results = await Promise.all([0, 1, 2, 3, 4].map(() => client.trpcMutation('billing.verifyPayment', { ...proof, planType: 'business' })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.body.result.data.alreadyProcessed === false)).toHaveLength(1);
    expect(await account(ts, accountId)).toMatchObject({ plan: 'business', credits_balance: 500 + 500_000 });
    // A second, different payment for the already-paid order is refused.
    const other = (await client.trpcMutation('billing.completeTestPayment', { orderId })).body.result.data;
    expect((await client.trpcMutation('billing.verifyPayment', { ...other, planType: 'business' })).status).toBe(409);
    expect((await account(ts, accountId)).credits_balance).toBe(500_500);
  });

  it('refuses a bad signature (400, Payment Verification Failed path) and changes nothing', async () => {
    const { client, accountId } = await ownerOn(ts);
    const orderId = (await client.trpcMutation('billing.createOrder', { planType: 'pro', currency: 'USD' })).body.result.data.orderId;
    const proof = (await client.trpcMutation('billing.completeTestPayment', { orderId })).body.result.data;
    const before = await account(ts, accountId);
    for (const bad of [
      { ...proof, razorpay_signature: sign(orderId, proof.razorpay_payment_id, 'guessed-secret') },
      { ...proof, razorpay_signature: 'not-hex' },
      { ...proof, razorpay_payment_id: 'pay_other' },
    ]) {
      const res = await client.trpcMutation('billing.verifyPayment', { ...bad, planType: 'pro' });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('The payment signature is invalid.');
    }
    // The right proof for a different plan than the order's is refused too.
    const wrongPlan = await client.trpcMutation('billing.verifyPayment', { ...proof, planType: 'business' });
    expect(wrongPlan.status).toBe(400);
    expect(await account(ts, accountId)).toEqual(before);
    expect((await ts.testDb.db.selectFrom('payment_order').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status).toBe('created');
  });

  it('refuses the same plan, a downgrade, Enterprise and non-owners', async () => {
    const { client } = await ownerOn(ts, 'pro');
    const same = await client.trpcMutation('billing.createOrder', { planType: 'pro', currency: 'USD' });
    expect(same.status).toBe(409);
    expect(same.body.error.message).toBe('You are already on the Pro plan.');
    const down = await client.trpcMutation('billing.createOrder', { planType: 'starter', currency: 'USD' });
    expect(down.status).toBe(409);
    expect(down.body.error.message).toBe('Please contact support to downgrade your plan.');
    expect((await client.trpcMutation('billing.createOrder', { planType: 'free', currency: 'USD' })).status).toBe(409);
    const ent = await client.trpcMutation('billing.createOrder', { planType: 'enterprise', currency: 'USD' });
    expect(ent.status).toBe(400);
    expect(ent.body.error.message).toMatch(/sales@mailvet\.io/);
    expect((await client.trpcMutation('billing.createOrder', { planType: 'business', currency: 'EUR' })).status).toBe(400);

    // An admin of the account cannot pay.
    const owner = await ownerOn(ts, 'business');
    const adminEmail = email('admin');
    await owner.client.trpcMutation('team.invite', { email: adminEmail, role: 'admin' });
    const invitationId = (await ts.testDb.db.selectFrom('invitation').select('id').where('email', '=', adminEmail).executeTakeFirstOrThrow()).id;
    const admin = await signUpVerified(ts, { email: adminEmail });
    expect((await admin.trpcMutation('team.acceptInvitation', { invitationId })).status).toBe(200);
    const res = await admin.trpcMutation('billing.createOrder', { planType: 'enterprise', currency: 'USD' });
    expect(res.status).toBe(403);
    expect(res.body.error.data.appCode).toBe('PERMISSION_DENIED');
    expect((await admin.trpcQuery('billing.config')).body.result.data.canPay).toBe(false);
  });

  it('cannot verify or complete another account’s order', async () => {
    const a = await ownerOn(ts);
    const b = await ownerOn(ts);
    const orderId = (await a.client.trpcMutation('billing.createOrder', { planType: 'starter', currency: 'USD' })).body.result.data.orderId;
    expect((await b.client.trpcMutation('billing.completeTestPayment', { orderId })).status).toBe(404);
    const proof = (await a.client.trpcMutation('billing.completeTestPayment', { orderId })).body.result.data;
    const stolen = await b.client.trpcMutation('billing.verifyPayment', { ...proof, planType: 'starter' });
    expect(stolen.status).toBe(400);
    expect((await account(ts, b.accountId)).plan).toBe('free');
    expect((await new Browserless(ts.url).trpcMutation('billing.verifyPayment', { ...proof, planType: 'starter' })).status).toBe(401);
  });
});

describe('billing with Razorpay keys (a fake Razorpay on 127.0.0.1)', () => {
  let ts: TestServer;
  let rzp: FakeRazorpay;
  beforeAll(async () => {
    rzp = await startFakeRazorpay();
    ts = await startTestServer({ env: { RAZORPAY_KEY_ID: rzp.keyId, RAZORPAY_KEY_SECRET: rzp.keySecret, RAZORPAY_BASE_URL: rzp.url } });
  });
  afterAll(async () => {
    await ts?.stop();
    await rzp?.close();
  });

  it('creates orders through the SDK with Basic auth and amounts in minor units per currency', async () => {
    const { client, accountId } = await ownerOn(ts);
    expect((await client.trpcQuery('billing.config')).body.result.data.mode).toBe('razorpay');
    const usd = await client.trpcMutation('billing.createOrder', { planType: 'pro', currency: 'USD' });
    expect(usd.status).toBe(200);
    expect(usd.body.result.data).toMatchObject({ keyId: rzp.keyId, amount: 7900, currency: 'USD', mode: 'razorpay' });
    const inr = await client.trpcMutation('billing.createOrder', { planType: 'business', currency: 'INR' });
    expect(inr.body.result.data).toMatchObject({ amount: 799_900, currency: 'INR' });

    expect(rzp.requests).toHaveLength(2);
    const basic = `Basic ${Buffer.from(`${rzp.keyId}:${rzp.keySecret}`).toString('base64')}`;
    for (const r of rzp.requests) {
      expect(r).toMatchObject({ method: 'POST', path: '/v1/orders', authorization: basic });
      expect(r.body.notes).toMatchObject({ account_id: accountId });
    }
    expect(rzp.requests.map((r) => [r.body.amount, r.body.currency])).toEqual([
      [7900, 'USD'],
      [799_900, 'INR'],
    ]);
    const orderId = usd.body.result.data.orderId;
    expect(orderId).toMatch(/^order_/);
    expect(await ts.testDb.db.selectFrom('payment_order').select(['account_id', 'amount', 'mode']).where('id', '=', orderId).executeTakeFirst()).toEqual({ account_id: accountId, amount: 7900, mode: 'razorpay' });
  });

  it('verifies a checkout signature made with the key secret and upgrades once', async () => {
    const { client, accountId } = await ownerOn(ts);
    const orderId = (await client.trpcMutation('billing.createOrder', { planType: 'business', currency: 'USD' })).body.result.data.orderId;
    const paymentId = 'pay_RealLooking123';
    const proof = { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: sign(orderId, paymentId, rzp.keySecret), planType: 'business' };
    const ok = await client.trpcMutation('billing.verifyPayment', proof);
    expect(ok.status).toBe(200);
    expect(await account(ts, accountId)).toEqual({ plan: 'business', credits_balance: 500 + 500_000, monthly_validations_quota: 500_000, team_member_limit: 10 });
    expect((await client.trpcMutation('billing.verifyPayment', proof)).body.result.data.alreadyProcessed).toBe(true);
    expect((await account(ts, accountId)).credits_balance).toBe(500_500);
  });

  it('turns the test checkout off, and reports provider failures with the billing message', async () => {
    const { client } = await ownerOn(ts);
    const orderId = (await client.trpcMutation('billing.createOrder', { planType: 'starter', currency: 'USD' })).body.result.data.orderId;
    expect((await client.trpcMutation('billing.completeTestPayment', { orderId })).status).toBe(403);
    rzp.failNext(500);
    const failed = await client.trpcMutation('billing.createOrder', { planType: 'starter', currency: 'USD' });
    expect(failed.status).toBe(503);
    expect(failed.body.error.message).toBe('Failed to process payment. Please try again.');
  });
});
