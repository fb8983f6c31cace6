// The Overview's numbers come from real rows: credits, plan and quota, usage to one decimal,
// recent single checks and jobs mixed newest first, the getting-started checklist, the 30-day chart.
import { describe, expect, it } from 'vitest';
import { signUpVerified, testServer, type Browserless } from '../helpers/test-server';

const ts = testServer();

let seq = 0;
async function newUser(): Promise<{ client: Browserless; accountId: string; userId: string }> {
  seq += 1;
  const client = await signUpVerified(ts, { email: `overview-${seq}@example.com` });
  const me = (await client.trpcQuery('account.me')).body.result.data;
  return { client, accountId: me.accountId, userId: me.user.id };
}

function resultValues(accountId: string, email: string, checkedAt: Date, jobId: string | null = null) {
  return {
    account_id: accountId, job_id: jobId, created_by: null, email, result: 'valid' as const, verdict: 'deliverable', reason: 'accepted',
    is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: true, deliverability_score: 95, mx_hosts: ['mx.example.com'],
    role_detected: false, disposable_provider: false, domain_age_days: 4000, checked_at: checkedAt,
  };
}

const overview = async (c: Browserless, input?: unknown) => (await c.trpcQuery('account.overview', input)).body.result.data;

describe('account.overview', () => {
  it('starts at Free, 500 credits, nothing used, an empty activity list and only the first checklist step done', async () => {
    const { client } = await newUser();
    const o = await overview(client);
    expect(o).toMatchObject({
      plan: 'free', plan_name: 'Free', credits_balance: 500, monthly_validations_quota: 500, quota_unlimited: false, monthly_validations_used: 0, usage_percent: 0,
      recent_activity: [],
      getting_started: { account_created: true, first_validation: false, api_key_created: false },
    });
    expect(o.validations_per_day).toHaveLength(30);
    expect(o.validations_per_day.every((d: { count: number }) => d.count === 0)).toBe(true);
  });

  it('shows the capitalised plan, its quota and the usage percent to one decimal', async () => {
    const { client, accountId } = await newUser();
    await ts.testDb.db.updateTable('account').set({ plan: 'business', monthly_validations_quota: 500_000, monthly_validations_used: 123_457, credits_balance: 376_543 }).where('id', '=', accountId).execute();
    expect(await overview(client)).toMatchObject({ plan: 'business', plan_name: 'Business', monthly_validations_quota: 500_000, monthly_validations_used: 123_457, usage_percent: 24.7, credits_balance: 376_543 });
    await ts.testDb.db.updateTable('account').set({ plan: 'enterprise', monthly_validations_quota: 1_000_000_000 }).where('id', '=', accountId).execute();
    expect(await overview(client)).toMatchObject({ plan_name: 'Enterprise', quota_unlimited: true, usage_percent: 0 });
  });

  it('mixes single checks and jobs newest first, ticks the checklist from real rows and counts per day', async () => {
    const { client, accountId } = await newUser();
    const now = Date.now();
    const day = 24 * 3600 * 1000;
    const job = await ts.testDb.db
      .insertInto('validation_job')
      .values({ account_id: accountId, filename: 'leads.csv', status: 'completed', total_emails: 2, processed_emails: 2, created_at: new Date(now - 2 * 60_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ts.testDb.db
      .insertInto('validation_result')
      .values([
        resultValues(accountId, 'old@example.com', new Date(now - 3 * day)),
        resultValues(accountId, 'first@example.com', new Date(now - 5 * 60_000)),
        resultValues(accountId, 'newest@example.com', new Date(now - 30_000)),
        resultValues(accountId, 'in-job-1@example.com', new Date(now - 60_000), job.id),
        resultValues(accountId, 'in-job-2@example.com', new Date(now - 60_000), job.id),
        resultValues(accountId, 'too-old@example.com', new Date(now - 40 * day)),
      ])
      .execute();
    const o = await overview(client, { timeZone: 'UTC' });
    expect(o.recent_activity.map((a: { kind: string; email?: string; filename?: string }) => `${a.kind}:${a.email ?? a.filename}`)).toEqual([
      'check:newest@example.com', 'job:leads.csv', 'check:first@example.com', 'check:old@example.com', 'check:too-old@example.com',
    ]);
    expect(o.recent_activity[1]).toMatchObject({ kind: 'job', status: 'completed', total_emails: 2, processed_emails: 2 });
    expect(o.getting_started).toEqual({ account_created: true, first_validation: true, api_key_created: false });
    const counts = o.validations_per_day.map((d: { count: number }) => d.count);
    expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(5); // the 40-day-old row is outside the chart
    expect(o.validations_per_day.at(-1).date).toBe(new Date().toISOString().slice(0, 10));

    await ts.testDb.db.insertInto('api_key').values({ account_id: accountId, name: 'CI', key_prefix: 'mv_live_ab', key_hash: `hash-${accountId}` }).execute();
    expect((await overview(client)).getting_started.api_key_created).toBe(true);
  });

  it('keeps at most 10 activity items and ignores an unknown time zone', async () => {
    const { client, accountId } = await newUser();
    const now = Date.now();
    await ts.testDb.db
      .insertInto('validation_result')
      .values(Array.from({ length: 14 }, (_, i) => resultValues(accountId, `n${i}@example.com`, new Date(now - i * 1000))))
      .execute();
    const o = await overview(client, { timeZone: "Mars/Olympus'; drop table account;--" });
    expect(o.recent_activity).toHaveLength(10);
    expect(o.recent_activity[0].email).toBe('n0@example.com');
  });

  it("never shows another account's rows", async () => {
    const a = await newUser();
    const b = await newUser();
    await ts.testDb.db.insertInto('validation_result').values(resultValues(a.accountId, 'secret@example.com', new Date())).execute();
    await ts.testDb.db.insertInto('validation_job').values({ account_id: a.accountId, filename: 'secret.csv' }).execute();
    await ts.testDb.db.insertInto('api_key').values({ account_id: a.accountId, name: 'A', key_prefix: 'mv_live_cd', key_hash: `hash2-${a.accountId}` }).execute();
    const o = await overview(b.client);
    expect(o.recent_activity).toEqual([]);
    expect(o.getting_started).toEqual({ account_created: true, first_validation: false, api_key_created: false });
    expect((await overview(a.client)).recent_activity).toHaveLength(2);
  });

  it('needs a signed-in user', async () => {
    const res = await fetch(`${ts.url}/api/trpc/account.overview`);
    expect(res.status).toBe(401);
  });
});
