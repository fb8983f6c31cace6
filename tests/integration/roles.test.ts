// Roles and plan gates are server rules stated once (server/contracts/permissions.ts, plans.ts):
// schedules and webhook settings are for owners and admins; webhook_url on /v1/bulk follows the
// plan table; the dashboard's checks and job mutations are rate-limited per account like /v1.
import { describe, expect, it } from 'vitest';
import { can, PERMISSIONS } from '../../server/contracts/permissions';
import { bucketBudget } from '../../server/rest/rate-limit';
import { joinAs, ownerOn, setPlan } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';
import { uploadCsv } from './jobs.world';

const ts = testServer({ env: { STORAGE_DIR: `.data/test/storage-roles-${Date.now()}` } });

const db = () => ts.testDb.db;
const schedule = { name: 'Weekly list', emails: ['a@example.com', 'b@example.com'] };

describe('the permission table', () => {
  it('gives members the account data but none of its settings; only the owner pays', () => {
    expect(can('member', 'jobs.run')).toBe(true);
    expect(can('member', 'validation.check')).toBe(true);
    for (const p of ['schedules.manage', 'apiKeys.manage', 'webhooks.manage', 'team.manage', 'audit.read', 'billing.pay'] as const) {
      expect(can('member', p), p).toBe(false);
      expect(can('owner', p), p).toBe(true);
    }
    expect(can('admin', 'billing.pay')).toBe(false);
    expect(can(null, 'jobs.read')).toBe(false);
    expect(Object.keys(PERMISSIONS).length).toBeGreaterThan(10);
  });
});

describe('schedules and webhook settings', () => {
  it('refuse a member (403, nothing changes) and let an admin and the owner create, switch and delete', async () => {
    const owner = await ownerOn(ts, 'pro', 'sched-owner');
    const admin = await joinAs(ts, owner, 'admin', 'sched-admin');
    const member = await joinAs(ts, owner, 'member', 'sched-member');

    const refused = await member.client.trpcMutation('schedules.create', schedule);
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.appCode).toBe('PERMISSION_DENIED');
    expect(refused.body.error.message).toBe('Only the account owner or an admin can change schedules.');
    expect(await db().selectFrom('schedule').select('id').where('account_id', '=', owner.accountId).execute()).toEqual([]);

    const made = await admin.client.trpcMutation('schedules.create', schedule);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const scheduleId = made.body.result.data.id as string;
    for (const [proc, input] of [
      ['schedules.setActive', { scheduleId, isActive: false }],
      ['schedules.delete', { scheduleId }],
    ] as const) {
      const res = await member.client.trpcMutation(proc, input);
      expect(res.status, proc).toBe(403);
      expect(res.body.error.data.appCode).toBe('PERMISSION_DENIED');
    }
    expect(await db().selectFrom('schedule').select(['id', 'is_active']).where('id', '=', scheduleId).executeTakeFirst()).toEqual({ id: scheduleId, is_active: true });
    // Members still see the schedules.
    expect((await member.client.trpcQuery('schedules.list')).status).toBe(200);

    expect((await owner.client.trpcMutation('schedules.setActive', { scheduleId, isActive: false })).status).toBe(200);
    expect((await admin.client.trpcMutation('schedules.delete', { scheduleId })).status).toBe(200);

    const secret = await member.client.trpcQuery('apiKeys.webhookSecret');
    expect(secret.status).toBe(403);
    expect(secret.body.error.message).toBe('Only the account owner or an admin can manage webhook settings.');
    expect((await admin.client.trpcQuery('apiKeys.webhookSecret')).status).toBe(200);
  });
});

describe('webhook_url on POST /v1/bulk', () => {
  async function keyOn(plan: 'starter' | 'pro') {
    const o = await ownerOn(ts, plan, `hook-${plan}`);
    const key = (await o.client.trpcMutation('apiKeys.create', { name: 'k' })).body.result.data.api_key as string;
    return { ...o, key };
  }
  const bulk = (key: string, body: unknown) =>
    fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('answers 403 PLAN_REQUIRED below Pro (nothing queued), and works from Pro up', async () => {
    const starter = await keyOn('starter');
    const refused = await bulk(starter.key, { emails: ['a@example.com'], webhook_url: 'https://93.184.215.14/hook' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'PLAN_REQUIRED', message: 'Webhooks are available on the Pro, Business and Enterprise plans.' });
    expect(await db().selectFrom('validation_job').select('id').where('account_id', '=', starter.accountId).execute()).toEqual([]);
    // Without a webhook the same plan may queue the job.
    expect((await bulk(starter.key, { emails: ['a@example.com'] })).status).toBe(200);

    const pro = await keyOn('pro');
    const ok = await bulk(pro.key, { emails: ['a@example.com'], webhook_url: 'https://93.184.215.14/hook' });
    expect(ok.status).toBe(200);
  });
});

describe('dashboard rate per account', () => {
  it('holds validation.check to the plan budget per account; another account keeps its own', async () => {
    const a = await ownerOn(ts, 'free', 'rate-a');
    const b = await ownerOn(ts, 'free', 'rate-b');
    const budget = bucketBudget('free', 'dashboard').points;
    const answers = await Promise.all(Array.from({ length: budget + 10 }, () => a.client.trpcMutation('validation.check', { email: 'someone@example.com' })));
    const limited = answers.filter((r) => r.status === 429);
    expect(limited).toHaveLength(10);
    expect(limited[0]!.body.error.data.appCode).toBe('RATE_LIMITED');
    expect(limited[0]!.body.error.data.details.retryAfterSeconds).toBeGreaterThan(0);
    expect((await b.client.trpcMutation('validation.check', { email: 'someone@example.com' })).status).not.toBe(429);
    // Like the upload door on the same budget and /v1, the refusal carries Retry-After.
    const again = await a.client.request('/api/trpc/validation.check', { method: 'POST', json: { email: 'someone@example.com' } });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('holds job uploads (the HTTP upload door spends the dashboard budget)', async () => {
    const o = await ownerOn(ts, 'starter', 'rate-up');
    await setPlan(ts, o.accountId, 'starter');
    const budget = bucketBudget('starter', 'dashboard').points;
    const answers = await Promise.all(Array.from({ length: budget + 5 }, (_, i) => uploadCsv(o.client, `l${i}.csv`, `email\r\nx${i}@example.com\r\n`)));
    const limited = answers.filter((r) => r.status === 429);
    expect(limited).toHaveLength(5);
    expect(limited[0]!.body.error.code).toBe('RATE_LIMITED');
    const jobs = await db().selectFrom('validation_job').select('id').where('account_id', '=', o.accountId).execute();
    expect(jobs).toHaveLength(budget);
    const late = await uploadCsv(o.client, 'late.csv', 'email\r\nlate@example.com\r\n');
    expect(late.status).toBe(429);
  });
});
