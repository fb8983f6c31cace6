// The public REST API (/v1) end to end: real web server + worker, a probe daemon on the simulated
// mail internet, API keys created through the dashboard API.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { probeStack } from '../helpers/probe-stack';
import { signUpVerified } from '../helpers/test-server';
import { buildScenarios } from '../mailworld/index';

const picked = new Set(['normal', 'catch-all', 'nxdomain']);
const stack = probeStack({ token: 'rest-v1-probe-token', domains: buildScenarios().filter((d) => picked.has(d.domain.split('.')[0] ?? '')), role: 'all' });

let n = 0;
/** A verified owner on `plan` with one API key. */
async function customer(plan: Plan = 'enterprise', credits?: number) {
  n += 1;
  const email = `rest-${n}-${Date.now().toString(36)}@example.com`;
  const c = await signUpVerified(stack.ts, { email });
  const me = (await c.trpcQuery('account.me')).body.result.data;
  await stack.ts.testDb.db
    .updateTable('account')
    .set({ plan, ...(credits !== undefined ? { credits_balance: credits } : {}) })
    .where('id', '=', me.accountId)
    .execute();
  const key = (await c.trpcMutation('apiKeys.create', { name: 'test' })).body.result.data;
  if (!key?.api_key) throw new Error('no key');
  return { c, accountId: me.accountId as string, key: key.api_key as string, keyId: key.id as string };
}

async function api(key: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.ts.url}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json, headers: res.headers };
}

describe('POST /v1/validate', () => {
  it('validates an address with an API key and answers the public result shape', { timeout: 60_000 }, async () => {
    const { key, accountId, keyId } = await customer('starter');
    const res = await api(key, 'POST', '/v1/validate', { email: 'alice@normal.mailworld.test' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      email: 'alice@normal.mailworld.test',
      result: 'valid',
      reason: 'accepted',
      deliverability_score: expect.any(Number),
      syntax_valid: true,
      mx_valid: true,
      smtp_valid: true,
      disposable_provider: false,
      role_detected: false,
      charged: true,
    });
    expect(res.headers.get('x-ratelimit-limit')).toBe('3');

    const bad = await api(key, 'POST', '/v1/validate', { email: 'ghost@normal.mailworld.test' });
    expect(bad.body).toMatchObject({ result: 'invalid', reason: 'mailbox_not_found', smtp_valid: false });
    const syntax = await api(key, 'POST', '/v1/validate', { email: 'bad@@example' });
    expect(syntax.status).toBe(200);
    expect(syntax.body).toMatchObject({ result: 'invalid', reason: 'syntax', syntax_valid: false });

    const account = await stack.ts.testDb.db.selectFrom('account').select('credits_balance').where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(account.credits_balance).toBe(497);
    await expect.poll(async () => (await stack.ts.testDb.db.selectFrom('api_key').select('last_used_at').where('id', '=', keyId).executeTakeFirstOrThrow()).last_used_at).not.toBeNull();
  });

  it('answers 401 with a clear message for a missing, malformed, unknown or revoked key', async () => {
    const { c, key, keyId } = await customer();
    const none = await api(null, 'POST', '/v1/validate', { email: 'alice@normal.mailworld.test' });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'MISSING_API_KEY', message: expect.stringMatching(/Authorization: Bearer/) });

    for (const bad of ['nonsense', `mv_live_${'A'.repeat(43)}`, key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a')]) {
      const res = await api(bad, 'POST', '/v1/validate', { email: 'alice@normal.mailworld.test' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_API_KEY');
    }
    const basic = await api(null, 'POST', '/v1/validate', { email: 'x@y.z' }, { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });
    expect(basic.status).toBe(401);

    // A session cookie is not an API credential.
    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    expect((await api(null, 'POST', '/v1/validate', { email: 'alice@normal.mailworld.test' }, { cookie })).status).toBe(401);

    expect((await c.trpcMutation('apiKeys.revoke', { id: keyId })).status).toBe(200);
    const revoked = await api(key, 'POST', '/v1/validate', { email: 'alice@normal.mailworld.test' });
    expect(revoked.status).toBe(401);
    expect(revoked.body).toMatchObject({ code: 'KEY_REVOKED', message: expect.stringMatching(/revoked/) });
  });

  it('records key use at most once a minute', async () => {
    const { key, keyId } = await customer();
    const lastUsed = async () => (await stack.ts.testDb.db.selectFrom('api_key').select('last_used_at').where('id', '=', keyId).executeTakeFirstOrThrow()).last_used_at;
    await api(key, 'GET', `/v1/jobs/${randomUUID()}`);
    await expect.poll(lastUsed).not.toBeNull();
    const first = (await lastUsed())!.getTime();
    await api(key, 'GET', `/v1/jobs/${randomUUID()}`);
    await new Promise((r) => setTimeout(r, 300));
    expect((await lastUsed())!.getTime()).toBe(first);
    await stack.ts.testDb.db.updateTable('api_key').set({ last_used_at: new Date(Date.now() - 120_000) }).where('id', '=', keyId).execute();
    await api(key, 'GET', `/v1/jobs/${randomUUID()}`);
    await expect.poll(async () => (await lastUsed())!.getTime()).toBeGreaterThan(Date.now() - 10_000);
  });

  it('answers 400 for bad bodies and never 500', async () => {
    const { key, accountId } = await customer();
    const cases: Array<[unknown, RegExp]> = [
      [{}, /email/],
      [{ email: 42 }, /email/],
      [{ email: '' }, /Please enter an email address/],
      [{ email: '   ' }, /Please enter an email address/],
      [{ email: 'a\r\nb@example.com' }, /line breaks/],
      [{ email: `${'a'.repeat(2000)}@example.com` }, /at most/],
      ['{"email": ', /not valid JSON/],
      ['[1,2,3]', /./],
      ['null', /./],
    ];
    for (const [body, message] of cases) {
      const res = await api(key, 'POST', '/v1/validate', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('BAD_INPUT');
      expect(res.body.message).toMatch(message);
    }
    const noType = await fetch(`${stack.ts.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: 'email=x' });
    expect(noType.status).toBe(415);
    const account = await stack.ts.testDb.db.selectFrom('account').select('credits_balance').where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(account.credits_balance).toBe(500);
  });

  it('answers 402 without checking when the credits are gone', async () => {
    const { key } = await customer('starter', 0);
    const res = await api(key, 'POST', '/v1/validate', { email: 'alice@normal.mailworld.test' });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('INSUFFICIENT_CREDITS');
  });

  it('answers 403 when the account is back on the free plan', async () => {
    const { key, accountId } = await customer('starter');
    await stack.ts.testDb.db.updateTable('account').set({ plan: 'free' }).where('id', '=', accountId).execute();
    const res = await api(key, 'POST', '/v1/validate', { email: 'alice@normal.mailworld.test' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PLAN_REQUIRED');
  });

  it("answers 429 with Retry-After beyond the plan's requests per second", async () => {
    const { key } = await customer('starter'); // 3 req/s
    const results = await Promise.all(Array.from({ length: 8 }, () => api(key, 'GET', `/v1/jobs/${randomUUID()}`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 404 || s === 429)).toBe(true);
    // 3 per one-second window: 8 requests in a burst get at least 2 refusals even if the burst straddles two windows.
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(limited[0]!.headers.get('retry-after')).toBe('1');
    expect(limited[0]!.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/3 requests per second/) });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await api(key, 'GET', `/v1/jobs/${randomUUID()}`)).status).toBe(404);
  });

  it('keeps rate limits per account', async () => {
    const a = await customer('starter');
    const b = await customer('starter');
    await Promise.all(Array.from({ length: 6 }, () => api(a.key, 'GET', `/v1/jobs/${randomUUID()}`)));
    expect((await api(b.key, 'GET', `/v1/jobs/${randomUUID()}`)).status).toBe(404);
  });
});

describe('POST /v1/bulk and the jobs endpoints', () => {
  it('creates a pending job from a list (deduplicated), also as /v1/bulk-validate', async () => {
    const { key, accountId } = await customer('pro');
    const res = await api(key, 'POST', '/v1/bulk', { emails: ['alice@normal.mailworld.test', 'ghost@normal.mailworld.test', 'alice@NORMAL.mailworld.test', ' bob@normal.mailworld.test '] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ job_id: expect.any(String), total_emails: 3, status: 'pending' });
    const job = await stack.ts.testDb.db.selectFrom('validation_job').selectAll().where('id', '=', res.body.job_id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ account_id: accountId, source: 'api', total_emails: 3, webhook_url: null });

    const alias = await api(key, 'POST', '/v1/bulk-validate', { emails: ['alice@catch-all.mailworld.test'] }, { 'content-type': 'application/json; charset=utf-8' });
    expect(alias.status).toBe(200);
    expect(alias.body).toMatchObject({ total_emails: 1, status: 'pending' });

    const status = await api(key, 'GET', `/v1/jobs/${res.body.job_id}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ job_id: res.body.job_id, total_emails: 3, created_at: expect.any(String) });
    expect(['pending', 'processing', 'completed']).toContain(status.body.status);
  });

  it('runs the job to completion and pages its results in the public shape', { timeout: 45_000 }, async () => {
    const { key } = await customer('pro');
    const emails = ['alice@normal.mailworld.test', 'ghost@normal.mailworld.test', 'whoever@catch-all.mailworld.test', 'alice@nxdomain.mailworld.test'];
    const { body } = await api(key, 'POST', '/v1/bulk', { emails });
    await expect
      .poll(async () => (await api(key, 'GET', `/v1/jobs/${body.job_id}`)).body.status, { timeout: 40_000, interval: 400 })
      .toBe('completed');
    const done = await api(key, 'GET', `/v1/jobs/${body.job_id}`);
    expect(done.body).toMatchObject({ processed_emails: 4, total_emails: 4, completed_at: expect.any(String) });

    const all = await api(key, 'GET', `/v1/jobs/${body.job_id}/results`);
    expect(all.status).toBe(200);
    expect(all.body.next_cursor).toBeNull();
    const byEmail = Object.fromEntries(all.body.results.map((r: { email: string; result: string; reason: string }) => [r.email, `${r.result}/${r.reason}`]));
    expect(byEmail).toEqual({
      'alice@normal.mailworld.test': 'valid/accepted',
      'ghost@normal.mailworld.test': 'invalid/mailbox_not_found',
      'whoever@catch-all.mailworld.test': 'risky/catch_all',
      'alice@nxdomain.mailworld.test': 'invalid/no_domain',
    });
    expect(Object.keys(all.body.results[0]).sort()).toEqual(['charged', 'deliverability_score', 'disposable_provider', 'email', 'mx_valid', 'reason', 'result', 'role_detected', 'smtp_valid', 'syntax_valid']);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { results: Array<{ email: string }>; next_cursor: string | null } } = await api(key, 'GET', `/v1/jobs/${body.job_id}/results?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.results.map((r) => r.email));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...emails].sort());
  });

  it('serves what is done while a job is still running (#12: partial results) and refuses bad paging (400)', async () => {
    const { key, accountId } = await customer();
    const job = await stack.ts.testDb.db.insertInto('validation_job').values({ account_id: accountId, filename: 'x', source: 'api', status: 'processing', total_emails: 2 }).returning('id').executeTakeFirstOrThrow();
    const running = await api(key, 'GET', `/v1/jobs/${job.id}/results`);
    expect(running.status).toBe(200);
    expect(running.body).toMatchObject({ status: 'processing', results: [], next_cursor: null });
    await stack.ts.testDb.db.updateTable('validation_job').set({ status: 'completed' }).where('id', '=', job.id).execute();
    for (const q of ['limit=0', 'limit=abc', 'limit=10001', 'cursor=abc']) {
      const res = await api(key, 'GET', `/v1/jobs/${job.id}/results?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe('BAD_INPUT');
    }
    expect((await api(key, 'GET', `/v1/jobs/${job.id}/results`)).body).toMatchObject({ results: [], next_cursor: null, status: 'completed' });
  });

  it("answers 404 for another account's job and for ids that are not jobs", async () => {
    const a = await customer();
    const b = await customer();
    const { body } = await api(a.key, 'POST', '/v1/bulk', { emails: ['alice@normal.mailworld.test'] });
    for (const path of [`/v1/jobs/${body.job_id}`, `/v1/jobs/${body.job_id}/results`, `/v1/jobs/${randomUUID()}`, '/v1/jobs/not-a-uuid', "/v1/jobs/'%20or%201=1--"]) {
      const res = await api(b.key, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect((await api(a.key, 'GET', `/v1/jobs/${body.job_id}`)).status).toBe(200);
    expect((await api(a.key, 'GET', '/v1/nothing-here')).status).toBe(404);
  });

  it('answers 400 for bad lists and 402 when the credits cannot cover the list', async () => {
    const { key, accountId } = await customer('pro', 2);
    const before = await stack.ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute();
    const cases: unknown[] = [{}, { emails: [] }, { emails: 'a@b.c' }, { emails: [1, 2] }, { emails: ['', '  '] }, { emails: Array.from({ length: 10_001 }, (_, i) => `u${i}@example.com`) }];
    for (const body of cases) {
      const res = await api(key, 'POST', '/v1/bulk', body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.code).toBe('BAD_INPUT');
    }
    const tooMany = await api(key, 'POST', '/v1/bulk', { emails: ['a@normal.mailworld.test', 'b@normal.mailworld.test', 'c@normal.mailworld.test'] });
    expect(tooMany.status).toBe(402);
    expect(tooMany.body.code).toBe('INSUFFICIENT_CREDITS');
    expect(await stack.ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute()).toEqual(before);
  });

  it('accepts 10,000 addresses in one request', { timeout: 30_000 }, async () => {
    const { key, accountId } = await customer('business', 20_000);
    const emails = Array.from({ length: 10_000 }, (_, i) => `user${i}@nxdomain.mailworld.test`);
    const res = await api(key, 'POST', '/v1/bulk', { emails });
    expect(res.status).toBe(200);
    expect(res.body.total_emails).toBe(10_000);
    // Stop the worker spending time on it.
    await stack.ts.testDb.db.updateTable('validation_job').set({ status: 'failed' }).where('account_id', '=', accountId).execute();
  });

  it('refuses webhook URLs that are not https or point at private, loopback, link-local or metadata addresses', async () => {
    const { key, accountId } = await customer();
    for (const url of [
      'http://example.com/hook',
      'ftp://example.com/hook',
      'not a url',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.0.0.8/hook',
      'https://192.168.1.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[fd00:ec2::254]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://100.64.0.1/hook',
      'https://0.0.0.0/hook',
    ]) {
      const res = await api(key, 'POST', '/v1/bulk', { emails: ['alice@normal.mailworld.test'], webhook_url: url });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe('BAD_INPUT');
      expect(res.body.message).toMatch(/webhook_url/);
    }
    expect(await stack.ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute()).toEqual([]);
    const ok = await api(key, 'POST', '/v1/bulk', { emails: ['alice@normal.mailworld.test'], webhook_url: 'https://93.184.215.14/hooks/mailvet' });
    expect(ok.status).toBe(200);
    const job = await stack.ts.testDb.db.selectFrom('validation_job').select('webhook_url').where('id', '=', ok.body.job_id).executeTakeFirstOrThrow();
    expect(job.webhook_url).toBe('https://93.184.215.14/hooks/mailvet');
  });
});

describe('GET /v1/openapi.json', () => {
  it('describes every endpoint, without authentication', async () => {
    const res = await api(null, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(res.body.paths).sort()).toEqual(['/account', '/bulk', '/bulk-validate', '/estimate', '/jobs', '/jobs/{id}', '/jobs/{id}/cancel', '/jobs/{id}/results', '/validate']);
    expect(res.body.paths['/validate'].post).toBeDefined();
    expect(res.body.paths['/jobs/{id}/results'].get).toBeDefined();
    expect(res.body.servers[0].url).toBe(`${stack.ts.url}/v1`);
    expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(res.body.components.schemas['error.TOO_MANY_REQUESTS'].example.code).toBe('RATE_LIMITED');
    expect(res.body.paths['/validate'].post.security).toEqual([{ bearerAuth: [] }]);
    // The requests we send are described too (OpenAPI 3.1 webhooks), one per event.
    expect(Object.keys(res.body.webhooks).sort()).toEqual(['job.cancelled', 'job.completed', 'job.failed', 'schedule.run_completed']);
    const hook = res.body.webhooks['schedule.run_completed'].post;
    expect(hook.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ScheduleRunWebhookPayload' });
    expect(hook.parameters.map((p: { name: string }) => p.name)).toEqual(['X-Mailvet-Signature-V2', 'X-Mailvet-Timestamp', 'X-Mailvet-Signature', 'X-Mailvet-Event', 'X-Mailvet-Delivery', 'X-Mailvet-Attempt']);
    expect(res.body.components.schemas.ScheduleRunWebhookPayload.properties.changed.items.required).toEqual(['email', 'previous', 'current', 'reason']);
  });
});
