// Reporting: Pro's analytics and Business's filtered reporting with CSV export, each account's own data only.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { signUpOnPlan } from './jobs.world';
import { Browserless, testServer } from '../helpers/test-server';
import { joinAs, ownerOn } from '../helpers/accounts';

const ts = testServer();

const today = new Date();
const daysAgo = (n: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - n, 12));
const dayStr = (d: Date) => d.toISOString().slice(0, 10);

/** Results as the product writes them: single checks (dashboard with a user, API without), an API job and a schedule run. */
async function seed(db: Db, accountId: string, userId: string) {
  const result = (o: { email: string; result: 'valid' | 'invalid' | 'risky'; reason: string; at: Date; jobId?: string | null; by?: string | null }) => ({
    account_id: accountId,
    job_id: o.jobId ?? null,
    created_by: o.by === undefined ? userId : o.by,
    via_api: o.by === null && !o.jobId,
    email: o.email,
    result: o.result,
    verdict: o.result,
    reason: o.reason,
    is_syntax_valid: true,
    is_dns_valid: true,
    is_mx_valid: true,
    is_smtp_valid: o.result === 'valid',
    deliverability_score: 50,
    role_detected: false,
    disposable_provider: false,
    catch_all: null,
    suggestion: null,
    domain_age_days: null,
    evidence: null,
    checked_at: o.at,
  });
  const schedule = await db.insertInto('schedule').values({ account_id: accountId, created_by: userId, name: 'Newsletter', email_list: ['a@x.test', 'b@x.test'], frequency: 'weekly' } as never).returning('id').executeTakeFirstOrThrow();
  const run = await db
    .insertInto('validation_job')
    .values({ account_id: accountId, created_by: userId, filename: 'Newsletter run', source: 'schedule', status: 'completed', total_emails: 2, processed_emails: 2, valid_count: 1, invalid_count: 1, schedule_id: schedule.id, created_at: daysAgo(3) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const apiJob = await db
    .insertInto('validation_job')
    .values({ account_id: accountId, created_by: null, filename: 'api', source: 'api', status: 'completed', total_emails: 1, processed_emails: 1, created_at: daysAgo(1) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('validation_result')
    .values([
      result({ email: 'd1@x.test', result: 'valid', reason: 'accepted_email', at: daysAgo(1) }),
      result({ email: 'd2@x.test', result: 'invalid', reason: 'rejected_email', at: daysAgo(1) }),
      result({ email: 'd3@x.test', result: 'invalid', reason: 'rejected_email', at: daysAgo(2) }),
      result({ email: 'api1@x.test', result: 'risky', reason: 'catch_all', at: daysAgo(1), by: null }),
      result({ email: 'api2@x.test', result: 'invalid', reason: '=cmd|calc', at: daysAgo(1), jobId: apiJob.id, by: null }),
      result({ email: 'a@x.test', result: 'valid', reason: 'accepted_email', at: daysAgo(3), jobId: run.id }),
      result({ email: 'b@x.test', result: 'invalid', reason: 'invalid_domain', at: daysAgo(3), jobId: run.id }),
      result({ email: 'old@x.test', result: 'valid', reason: 'accepted_email', at: daysAgo(60) }),
    ])
    .execute();
}

describe('reporting', () => {
  it('Pro: validations over time by result, sources, top reasons, schedule quality and credits vs quota (last 30 days)', async () => {
    const { client, accountId, userId } = await signUpOnPlan(ts, 'report-pro@example.com', 'pro');
    await seed(ts.testDb.db, accountId, userId);
    await ts.testDb.db.updateTable('account').set({ monthly_validations_used: 1234 }).where('id', '=', accountId).execute();
    const r = await client.trpcQuery('reporting.analytics');
    expect(r.status).toBe(200);
    const data = r.body.result.data;
    expect(data.daily).toHaveLength(30);
    expect(data.totals).toEqual({ valid: 2, invalid: 4, risky: 1, total: 7 });
    expect(data.daily.find((d: { day: string }) => d.day === dayStr(daysAgo(1)))).toEqual({ day: dayStr(daysAgo(1)), valid: 1, invalid: 2, risky: 1 });
    expect(data.bySource).toEqual([
      { source: 'dashboard', count: 3 },
      { source: 'api', count: 2 },
      { source: 'schedule', count: 2 },
    ]);
    expect(data.topReasons[0]).toEqual({ reason: 'rejected_email', count: 2 });
    expect(data.schedules).toEqual([{ scheduleId: expect.any(String), name: 'Newsletter', runs: [expect.objectContaining({ valid: 1, invalid: 1, validPercent: 50 })] }]);
    expect(data.credits).toMatchObject({ used: 1234, quota: 100_000 });
    expect(data.canFilter).toBe(false);
    // Filters and CSV are Business features: refused with the plan code, on both doors.
    const filtered = await client.trpcQuery('reporting.analytics', { source: 'api' });
    expect(filtered.status).toBe(403);
    expect(filtered.body.error.data.appCode).toBe('PLAN_REQUIRED');
    expect((await client.request('/api/reports/analytics.csv')).status).toBe(403);
  });

  it('Business: filters by source and date range, exports CSV with formula cells escaped; bad filters are 400', async () => {
    const { client, accountId, userId } = await signUpOnPlan(ts, 'report-biz@example.com', 'business');
    await seed(ts.testDb.db, accountId, userId);
    const api = (await client.trpcQuery('reporting.analytics', { source: 'api' })).body.result.data;
    expect(api.totals).toEqual({ valid: 0, invalid: 1, risky: 1, total: 2 });
    expect(api.schedules).toEqual([]);
    const range = (await client.trpcQuery('reporting.analytics', { from: dayStr(daysAgo(90)), to: dayStr(daysAgo(2)) })).body.result.data;
    expect(range.daily).toHaveLength(89);
    expect(range.totals.total).toBe(4); // two days ago, three days ago (2), sixty days ago
    const csv = await client.request(`/api/reports/analytics.csv?source=api&from=${dayStr(daysAgo(10))}&to=${dayStr(daysAgo(0))}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="mailvet-report-${dayStr(daysAgo(10))}-to-${dayStr(daysAgo(0))}-api.csv"`);
    const bytes = Buffer.from(await csv.arrayBuffer());
    // A UTF-8 byte-order mark first, as the result download has: Excel reads a CSV without one in the
    // Windows code page, so a schedule named 'Liste für München' showed as 'Liste fÃ¼r MÃ¼nchen'.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.split('\r\n')[0]).toBe('section,key,valid,invalid,risky,total');
    expect(text).toContain(`day,${dayStr(daysAgo(1))},0,1,1,2`);
    expect(text).toContain("reason,'=cmd|calc,,,,1");
    expect(text).not.toMatch(/^reason,=/m);

    for (const bad of [{ from: '2026-13-01' }, { source: 'fax' }, { from: dayStr(daysAgo(1)), to: dayStr(daysAgo(5)) }, { from: '2020-01-01', to: '2024-01-01' }]) {
      expect((await client.trpcQuery('reporting.analytics', bad)).status).toBe(400);
    }
    expect((await client.request('/api/reports/analytics.csv?source=fax')).status).toBe(400);
  });

  it('keeps each account to its own data; Starter and anonymous callers are refused', async () => {
    const other = await signUpOnPlan(ts, 'report-other@example.com', 'business');
    const mine = (await other.client.trpcQuery('reporting.analytics')).body.result.data;
    expect(mine.totals.total).toBe(0);
    const starter = await signUpOnPlan(ts, 'report-starter@example.com', 'starter');
    const refused = await starter.client.trpcQuery('reporting.analytics');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Analytics are available on the Pro, Business and Enterprise plans.');
    expect((await new Browserless(ts.url).trpcQuery('reporting.analytics')).status).toBe(401);
    expect((await new Browserless(ts.url).request('/api/reports/analytics.csv')).status).toBe(401);
  });
});

describe('a single check’s source outlives its author', () => {
  it('a dashboard check by a member who later deleted their user stays a dashboard check; an API key’s check stays an API check', async () => {
    const owner = await ownerOn(ts, 'business', 'src-owner');
    const member = await joinAs(ts, owner, 'member', 'src-member');
    // Syntax-decided checks: stored without a probe, through the same doors as any other.
    expect((await member.client.trpcMutation('validation.check', { email: 'no-at-sign' })).status).toBe(200);
    const key = (await owner.client.trpcMutation('apiKeys.create', { name: 'reports' })).body.result.data.api_key as string;
    const viaApi = await fetch(new URL('/v1/validate', ts.url), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'also-no-at-sign' }) });
    expect(viaApi.status).toBe(200);

    const bySource = async () => Object.fromEntries(((await owner.client.trpcQuery('reporting.analytics')).body.result.data.bySource as Array<{ source: string; count: number }>).map((s) => [s.source, s.count]));
    expect(await bySource()).toEqual({ dashboard: 1, api: 1, schedule: 0 });

    // The member leaves Mailvet altogether: their check stays in the account, still from the dashboard.
    expect((await member.client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' })).status).toBe(200);
    expect(await bySource()).toEqual({ dashboard: 1, api: 1, schedule: 0 });
    const apiOnly = (await owner.client.trpcQuery('reporting.analytics', { source: 'api' })).body.result.data.totals.total;
    expect(apiOnly).toBe(1);
  });
});

describe('analytics count days in the browser’s time zone, as the Overview chart does', () => {
  it('a validation at 23:30 UTC is the next day in Kolkata on both pages, the CSV and the default range; unknown zones are 400', async () => {
    const { client, accountId, userId } = await signUpOnPlan(ts, 'report-tz@example.com', 'business');
    const late = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 5, 23, 30));
    const nextDay = dayStr(daysAgo(4));
    await ts.testDb.db
      .insertInto('validation_result')
      .values({ account_id: accountId, job_id: null, created_by: userId, via_api: false, email: 'late@x.test', result: 'valid', verdict: 'valid', reason: 'accepted_email', is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: true, deliverability_score: 90, role_detected: false, disposable_provider: false, catch_all: null, suggestion: null, domain_age_days: null, evidence: null, checked_at: late } as never)
      .execute();
    const tz = 'Asia/Kolkata';
    const overview = (await client.trpcQuery('account.overview', { timeZone: tz })).body.result.data;
    const chartDay = (overview.validations_per_day as Array<{ date: string; count: number }>).find((d) => d.count > 0)?.date;
    expect(chartDay).toBe(nextDay);
    const report = (await client.trpcQuery('reporting.analytics', { timeZone: tz })).body.result.data;
    expect(report.daily.filter((d: { valid: number }) => d.valid > 0).map((d: { day: string }) => d.day)).toEqual([nextDay]);
    // The default range ends on today in that zone (Kolkata is ahead of UTC, never behind it).
    const kolkataToday = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date());
    expect(report.range.to).toBe(kolkataToday);
    // A range that ends the UTC day before still leaves it out: that day is over in Kolkata by 23:30 UTC.
    const before = (await client.trpcQuery('reporting.analytics', { timeZone: tz, from: dayStr(daysAgo(6)), to: dayStr(daysAgo(5)) })).body.result.data;
    expect(before.totals.total).toBe(0);
    const csv = await (await client.request(`/api/reports/analytics.csv?timeZone=${encodeURIComponent(tz)}&from=${dayStr(daysAgo(6))}&to=${nextDay}`)).text();
    expect(csv).toContain(`day,${nextDay},1,0,0,1`);
    // Without a zone the report stays on UTC days.
    const utc = (await client.trpcQuery('reporting.analytics')).body.result.data;
    expect(utc.daily.filter((d: { valid: number }) => d.valid > 0).map((d: { day: string }) => d.day)).toEqual([dayStr(daysAgo(5))]);
    for (const bad of ['Mars/Olympus', "UTC'; drop table account;--", 'x'.repeat(80)]) {
      expect((await client.trpcQuery('reporting.analytics', { timeZone: bad })).status).toBe(400);
      expect((await client.request(`/api/reports/analytics.csv?timeZone=${encodeURIComponent(bad)}`)).status).toBe(400);
    }
  });
});
