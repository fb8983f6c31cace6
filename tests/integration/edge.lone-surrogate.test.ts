// A lone UTF-16 surrogate (\ud800, \udfff: legal in JSON text, no character at all) in a field the
// server keeps: the change is made and its audit entry written, never a 500. Text columns keep it as
// U+FFFD (pg encodes strings as UTF-8); the audit log's jsonb column refused the JSON escape
// ("Unicode low surrogate must follow a high surrogate"), so the whole change failed with a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified, startTestServer, type Browserless, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Browserless;
let accountId: string;

beforeAll(async () => {
  ts = await startTestServer();
  owner = await signUpVerified(ts, { email: 'edge-lone-surrogate@example.com' });
  accountId = (await owner.trpcQuery('account.me')).body.result.data.accountId as string;
  await ts.testDb.db.updateTable('account').set({ plan: 'enterprise' }).where('id', '=', accountId).execute();
});
afterAll(async () => {
  await ts?.stop();
});

const auditActions = async () => (await ts.testDb.db.selectFrom('audit_log').select(['action', 'data']).where('account_id', '=', accountId).orderBy('id', 'desc').execute()).map((r) => ({ action: r.action, data: r.data as Record<string, unknown> }));

describe('lone surrogates in kept text', () => {
  it.each(['Ann \ud800', '\udfffBob', 'x\ud800\ud800y'])('profile.update full_name %j: saved, audited, no 500', async (name) => {
    const res = await owner.trpcMutation('account.profile.update', { full_name: name, company_name: 'ACME \udfff' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const wellFormed = name.replace(/[\ud800-\udfff]/g, '\ufffd');
    expect(res.body.result.data.full_name).toBe(wellFormed);
    const [last] = await auditActions();
    expect(last).toMatchObject({ action: 'profile.updated', data: { full_name: wellFormed, company_name: 'ACME \ufffd' } });
  });

  it('branding.update product and sender names: saved, audited, no 500', async () => {
    for (const field of ['productName', 'senderName']) {
      const res = await owner.trpcMutation('branding.update', { [field]: 'Brand \ud800' });
      expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const [last] = await auditActions();
    expect(JSON.stringify(last)).toContain('Brand \ufffd');
  });

  it('billing.verifyPayment with such a payment id is the ordinary 400, not a 500', async () => {
    const res = await owner.trpcMutation('billing.verifyPayment', { razorpay_payment_id: 'pay_\ud800', razorpay_subscription_id: 'sub_nothing', razorpay_signature: 'ab' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('We could not find this subscription for your account.');
    const [last] = await auditActions();
    expect(last).toMatchObject({ action: 'billing.payment_verification_failed', data: { payment_id: 'pay_\ufffd' } });
  });
});
