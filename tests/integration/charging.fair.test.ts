// Fair charging: a check that cannot reach a decision (verdict unknown because DNS failed, the mail
// server refused or could not be reached, or it refused to answer) costs nothing. The credit goes
// back in the transaction that stores the result, the result says charged: false, and balances are
// exact — on a single check (dashboard and /v1) and in a bulk job.
import { describe, expect, it } from 'vitest';
import { planByType } from '../../server/contracts/plans';
import { probeStack } from '../helpers/probe-stack';
import { signUpVerified, type Browserless } from '../helpers/test-server';
import { buildScenarios } from '../mailworld/index';

const stack = probeStack({
  token: 'fair-charging-token',
  domains: buildScenarios().filter((d) => /^(normal|servfail|nxdomain|refused|policy-block)\./.test(d.domain)),
  role: 'all',
});

let n = 0;
async function customer(): Promise<{ c: Browserless; accountId: string; key: string }> {
  n += 1;
  const c = await signUpVerified(stack.ts, { email: `fair-${n}@example.com` });
  const accountId = (await c.trpcQuery('account.me')).body.result.data.accountId as string;
  const p = planByType('pro');
  await stack.ts.testDb.db.updateTable('account').set({ plan: 'pro', credits_balance: 100, monthly_validations_used: 0, monthly_validations_quota: p.monthlyValidations }).where('id', '=', accountId).execute();
  const key = (await c.trpcMutation('apiKeys.create', { name: 'fair' })).body.result.data.api_key as string;
  return { c, accountId, key };
}

async function balance(accountId: string) {
  return stack.ts.testDb.db.selectFrom('account').select(['credits_balance', 'monthly_validations_used']).where('id', '=', accountId).executeTakeFirstOrThrow();
}

describe('fair charging', () => {
  it('charges a decided check and gives the credit back for an undecided one (dashboard)', async () => {
    const { c, accountId } = await customer();
    const cases: [string, string, boolean][] = [
      ['alice@normal.mailworld.test', 'accepted', true],
      ['alice@nxdomain.mailworld.test', 'no_domain', true],
      ['alice@servfail.mailworld.test', 'dns_error', false],
      ['alice@refused.mailworld.test', 'smtp_unreachable', false],
    ];
    let expected = 100;
    for (const [email, reason, charged] of cases) {
      const r = await c.trpcMutation('validation.check', { email });
      expect(r.status, email).toBe(200);
      expect(r.body.result.data.reason, email).toBe(reason);
      expect(r.body.result.data.charged, email).toBe(charged);
      if (charged) expected -= 1;
      expect(r.body.result.data.credits_balance, email).toBe(expected);
      expect((await balance(accountId)).credits_balance, email).toBe(expected);
    }
    expect(await balance(accountId)).toEqual({ credits_balance: 98, monthly_validations_used: 2 });
    const stored = await stack.ts.testDb.db.selectFrom('validation_result').select(['email', 'charged']).where('account_id', '=', accountId).orderBy('id').execute();
    expect(stored.map((r) => r.charged)).toEqual([true, true, false, false]);
  });

  it('says so on /v1/validate and keeps the balance exact', async () => {
    const { accountId, key } = await customer();
    const ask = async (email: string) => {
      const res = await fetch(`${stack.ts.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      return { status: res.status, body: (await res.json()) as { charged: boolean; reason: string } };
    };
    const free = await ask('alice@servfail.mailworld.test');
    expect(free).toMatchObject({ status: 200, body: { charged: false, reason: 'dns_error' } });
    const paid = await ask('alice@normal.mailworld.test');
    expect(paid).toMatchObject({ status: 200, body: { charged: true, reason: 'accepted' } });
    expect((await balance(accountId)).credits_balance).toBe(99);
  });

  it('charges a bulk job only for its decided results', { timeout: 60_000 }, async () => {
    const { accountId, key } = await customer();
    const emails = ['alice@normal.mailworld.test', 'bob@normal.mailworld.test', 'alice@nxdomain.mailworld.test', 'alice@servfail.mailworld.test', 'alice@refused.mailworld.test'];
    const res = await fetch(`${stack.ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ emails }) });
    expect(res.status).toBe(200);
    const { job_id } = (await res.json()) as { job_id: string };
    await expect
      .poll(async () => (await stack.ts.testDb.db.selectFrom('validation_job').select('status').where('id', '=', job_id).executeTakeFirstOrThrow()).status, { timeout: 50_000, interval: 250 })
      .toBe('completed');
    const rows = await stack.ts.testDb.db.selectFrom('validation_result').select(['email', 'reason', 'charged']).where('job_id', '=', job_id).execute();
    const uncharged = rows.filter((r) => !r.charged).map((r) => r.email).sort();
    expect(uncharged).toEqual(['alice@refused.mailworld.test', 'alice@servfail.mailworld.test']);
    expect(await balance(accountId)).toEqual({ credits_balance: 97, monthly_validations_used: 3 });
  });
});
