// What the plans deliver beyond the checkout: a suspended account gets 402 on /v1 (data readable),
// Enterprise API rates set per account by the operator CLI, and the CLI's billing commands.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { SUSPENDED_MESSAGE } from '../../server/features/billing/service-state';
import { runSchedule } from '../../server/features/schedules/schedules.service';
import { operatorCli } from '../helpers/operator-cli';
import { signUpVerified, testServer } from '../helpers/test-server';

const ts = testServer();

let n = 0;
async function customer(plan: Plan) {
  const email = `limits-${++n}-${Date.now().toString(36)}@example.com`;
  const c = await signUpVerified(ts, { email });
  const accountId = (await c.trpcQuery('account.me')).body.result.data.accountId as string;
  await ts.testDb.db.updateTable('account').set({ plan }).where('id', '=', accountId).execute();
  const key = (await c.trpcMutation('apiKeys.create', { name: 'test' })).body.result.data.api_key as string;
  return { c, accountId, key, email };
}

async function api(key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${ts.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

const cli = operatorCli(() => ts.testDb.url);

describe('suspended accounts on /v1 and the operator CLI', () => {
  it('the CLI shows and sets billing states; a suspended account gets 402 on new work and still reads its data', async () => {
    const { accountId, key, email } = await customer('starter');
    const shown = await cli('accounts', 'billing', email);
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/status\s+none/);

    const pd = await cli('accounts', 'set-billing', email, '--status', 'past_due');
    expect(pd).toMatchObject({ code: 0, err: '' });
    expect(pd.out).toMatch(/billing none → past_due; .*grace end 20/);
    const row = await ts.testDb.db.selectFrom('account').select(['subscription_status', 'grace_ends_at']).where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(row.subscription_status).toBe('past_due');
    expect((row.grace_ends_at!.getTime() - Date.now()) / 86_400_000).toBeCloseTo(7, 1);

    expect((await cli('accounts', 'set-billing', accountId, '--status', 'suspended')).code).toBe(0);
    const check = await api(key, 'POST', '/v1/validate', { email: 'someone@example.com' });
    expect(check.status).toBe(402);
    expect(check.body).toMatchObject({ code: 'PAYMENT_REQUIRED', message: expect.stringMatching(/suspended/) });
    const bulk = await api(key, 'POST', '/v1/bulk', { emails: ['a@example.com', 'b@example.com'] });
    expect(bulk.status).toBe(402);
    // The free estimate probes DNS for up to 100 addresses a call: new work too, paused like the rest.
    await new Promise((r) => setTimeout(r, 1100)); // Starter: 3 requests per second
    const estimate = await api(key, 'POST', '/v1/estimate', { emails: ['a@example.com', 'b@example.org'] });
    expect(estimate.status).toBe(402);
    expect(estimate.body).toMatchObject({ code: 'PAYMENT_REQUIRED', message: SUSPENDED_MESSAGE });
    expect(await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute()).toHaveLength(0);
    // Reading stays open.
    expect((await api(key, 'GET', `/v1/jobs/${randomUUID()}`)).status).toBe(404);

    expect((await cli('accounts', 'set-billing', accountId, '--status', 'active')).code).toBe(0);
    await new Promise((r) => setTimeout(r, 1100)); // Starter: 3 requests per second
    expect((await api(key, 'POST', '/v1/bulk', { emails: ['a@example.com'] })).status).toBe(200);

    const audit = await ts.testDb.db.selectFrom('audit_log').select('action').where('account_id', '=', accountId).where('action', '=', 'billing.state_set').execute();
    expect(audit).toHaveLength(3);

    // Bad input: a clear message, nothing changed.
    const bad = await cli('accounts', 'set-billing', accountId, '--status', 'frozen');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/must be one of active, past_due, suspended, none/);
    expect((await cli('accounts', 'set-billing', accountId)).err).toMatch(/Give --status/);
    expect((await cli('accounts', 'set-billing', accountId, '--period-end', 'soon')).err).toMatch(/ISO date/);
  });

  it('Enterprise API rate is set per account by the operator; other plans keep the table', async () => {
    const ent = await customer('enterprise');
    const burst = async (k: string, count: number) => (await Promise.all(Array.from({ length: count }, () => api(k, 'GET', `/v1/jobs/${randomUUID()}`)))).map((r) => r.status);
    // Default Enterprise rate (100/s): a burst of 8 passes.
    expect((await burst(ent.key, 8)).filter((s) => s === 429)).toHaveLength(0);
    const set = await cli('accounts', 'set-api-rate', ent.email, '2');
    expect(set).toMatchObject({ code: 0 });
    expect(set.out).toMatch(/API rate plan table → 2 req\/s/);
    await new Promise((r) => setTimeout(r, 1100));
    const statuses = await burst(ent.key, 8);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(4);
    const limited = await api(ent.key, 'GET', `/v1/jobs/${randomUUID()}`);
    if (limited.status === 429) expect(limited.body.message).toMatch(/2 requests per second/);

    const starter = await customer('starter');
    const refused = await cli('accounts', 'set-api-rate', starter.email, '50');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/Enterprise/);
    expect((await cli('accounts', 'set-api-rate', ent.email, '0')).err).toMatch(/whole number from 1 to 100000/);
    expect((await cli('accounts', 'set-api-rate', ent.email, 'default')).code).toBe(0);
  });

  it('a suspended account’s schedule run shows in History as failed with the reason, and creates no work', async () => {
    const { c, email } = await customer('pro');
    const created = await c.trpcMutation('schedules.create', { name: 'Weekly', emails: ['a@example.com', 'b@example.com'] });
    expect(created.status).toBe(200);
    const scheduleId = created.body.result.data.id as string;
    expect((await cli('accounts', 'set-billing', email, '--status', 'suspended')).code).toBe(0);
    const run = await runSchedule(ts.testDb.db, scheduleId, new Date('2027-01-01T00:00:00Z'));
    expect(run.status).toBe('failed');
    const job = await ts.testDb.db.selectFrom('validation_job').select(['status', 'error']).where('id', '=', run.jobId!).executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'failed', error: SUSPENDED_MESSAGE });
    expect(await ts.testDb.db.selectFrom('validation_job_chunk').select('job_id').where('job_id', '=', run.jobId!).execute()).toHaveLength(0);
    // The dashboard's single check answers 402 with the same message; account data stays readable.
    const check = await c.trpcMutation('validation.check', { email: 'x@example.com' });
    expect(check.status).toBe(402);
    expect(check.body.error.message).toBe(SUSPENDED_MESSAGE);
    expect((await c.trpcQuery('schedules.list')).status).toBe(200);
  });
});
