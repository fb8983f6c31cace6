// Single real-time checks through the real server, a real probe daemon and the simulated mail
// internet: what each plan may ask, what a check costs, and that money never goes wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { planByType } from '../../server/contracts/plans';
import { FREE_CREDITS_USED_MESSAGE, INSUFFICIENT_CREDITS_MESSAGE } from '../../server/features/validation/validation.service';
import { buildScenarios } from '../mailworld/index';
import { probeStack } from '../helpers/probe-stack';
import { signUpVerified, startTestServer, type Browserless, type TestServer } from '../helpers/test-server';
import { freePort } from '../probe/mailworld-helpers';

const TOKEN = 'validation-check-test-token';
const stack = probeStack({ token: TOKEN, domains: buildScenarios({ tarpitMs: 200, greylistMs: 300 }) });

let seq = 0;
async function newUser(plan: Plan = 'free'): Promise<{ client: Browserless; accountId: string }> {
  seq += 1;
  const email = `check-${seq}-${Date.now().toString(36)}@example.com`;
  const client = await signUpVerified(stack.ts, { email });
  const me = await client.trpcQuery('account.me');
  const accountId = me.body.result.data.accountId as string;
  if (plan !== 'free') await setPlan(accountId, plan);
  return { client, accountId };
}

async function setPlan(accountId: string, plan: Plan): Promise<void> {
  const p = planByType(plan);
  await stack.ts.testDb.db
    .updateTable('account')
    .set({ plan, credits_balance: p.monthlyValidations, monthly_validations_quota: p.monthlyValidations, team_member_limit: p.teamMemberLimit })
    .where('id', '=', accountId)
    .execute();
}

async function account(accountId: string) {
  return stack.ts.testDb.db.selectFrom('account').select(['credits_balance', 'monthly_validations_used']).where('id', '=', accountId).executeTakeFirstOrThrow();
}

async function resultCount(accountId: string): Promise<number> {
  const row = await stack.ts.testDb.db.selectFrom('validation_result').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return Number(row.n);
}

const check = (client: Browserless, email: unknown) => client.trpcMutation('validation.check', { email });

describe('validation.check', () => {
  it('on the Free plan checks syntax and MX only, never opens an SMTP connection, and says the mailbox was not checked', async () => {
    const { client, accountId } = await newUser('free');
    stack.world.resetCounters();
    for (const email of ['alice@normal.mailworld.test', 'ghost@normal.mailworld.test', 'alice@catch-all.mailworld.test', 'alice@starttls.mailworld.test']) {
      const res = await check(client, email);
      expect(res.status).toBe(200);
      const r = res.body.result.data;
      expect(r).toMatchObject({ email, depth: 'mx', is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: false, reason: 'smtp_not_checked', result: 'risky' });
      expect(r.mx_hosts.length).toBeGreaterThan(0);
    }
    expect(stack.world.counters.connections).toBe(0);
    expect(stack.world.counters.rcpts).toBe(0);
    expect(stack.world.counters.dnsQueries).toBeGreaterThan(0);
    expect(await account(accountId)).toEqual({ credits_balance: 496, monthly_validations_used: 4 });
  });

  it('on a paid plan asks the mailbox and answers valid, invalid and risky with the evidence behind each', async () => {
    const { client, accountId } = await newUser('starter');
    stack.world.resetCounters();

    const valid = (await check(client, '  alice@normal.mailworld.test ')).body.result.data;
    expect(valid).toMatchObject({
      email: 'alice@normal.mailworld.test', result: 'valid', verdict: 'deliverable', reason: 'accepted', depth: 'smtp',
      is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: true, role_detected: false, disposable_provider: false, catch_all: false,
    });
    expect(valid.deliverability_score).toBeGreaterThanOrEqual(70);
    expect(valid.mx_hosts).toEqual(expect.arrayContaining([expect.stringContaining('normal.mailworld.test')]));
    expect(typeof valid.domain_age_days === 'number' || valid.domain_age_days === null).toBe(true);

    const invalid = (await check(client, 'ghost@normal.mailworld.test')).body.result.data;
    expect(invalid).toMatchObject({ result: 'invalid', reason: 'mailbox_not_found', is_smtp_valid: false, deliverability_score: 0 });
    expect(invalid.evidence.replies).toEqual(expect.arrayContaining([expect.objectContaining({ stage: 'rcpt', code: 550, enhanced: '5.1.1' })]));

    const risky = (await check(client, 'alice@catch-all.mailworld.test')).body.result.data;
    expect(risky).toMatchObject({ result: 'risky', reason: 'catch_all', catch_all: true });

    const role = (await check(client, 'info@normal.mailworld.test')).body.result.data;
    expect(role).toMatchObject({ result: 'valid', role_detected: true });

    const disposable = (await check(client, 'alice@mailinator.com')).body.result.data;
    expect(disposable).toMatchObject({ result: 'risky', disposable_provider: true });

    expect(stack.world.counters.connections).toBeGreaterThan(0);
    const before = planByType('starter').monthlyValidations;
    expect(await account(accountId)).toEqual({ credits_balance: before - 5, monthly_validations_used: 5 });

    // Stored as single checks (no job), with the engine's reason, counted in this month's usage.
    const rows = await stack.ts.testDb.db.selectFrom('validation_result').select(['email', 'result', 'reason', 'job_id']).where('account_id', '=', accountId).orderBy('id').execute();
    expect(rows).toEqual([
      { email: 'alice@normal.mailworld.test', result: 'valid', reason: 'accepted', job_id: null },
      { email: 'ghost@normal.mailworld.test', result: 'invalid', reason: 'mailbox_not_found', job_id: null },
      { email: 'alice@catch-all.mailworld.test', result: 'risky', reason: 'catch_all', job_id: null },
      { email: 'info@normal.mailworld.test', result: 'valid', reason: 'accepted', job_id: null },
      { email: 'alice@mailinator.com', result: 'risky', reason: 'disposable', job_id: null },
    ]);
    const overview = (await client.trpcQuery('account.overview')).body.result.data;
    expect(overview.monthly_validations_used).toBe(5);
    expect(overview.recent_activity.map((a: { email: string }) => a.email)).toEqual([
      'alice@mailinator.com', 'info@normal.mailworld.test', 'alice@catch-all.mailworld.test', 'ghost@normal.mailworld.test', 'alice@normal.mailworld.test',
    ]);
    expect(overview.getting_started.first_validation).toBe(true);
    expect(overview.validations_per_day.at(-1).count).toBe(5);
  });

  it('offers the typo suggestion', async () => {
    const { client } = await newUser('free');
    const r = (await check(client, 'someone@gmial.com')).body.result.data;
    expect(r.suggestion).toBe('someone@gmail.com');
  });

  it('never lets credits go negative: 20 checks racing for 5 credits give exactly 5 results', async () => {
    const { client, accountId } = await newUser('starter');
    await stack.ts.testDb.db.updateTable('account').set({ credits_balance: 5, monthly_validations_used: 0 }).where('id', '=', accountId).execute();
    const emails = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'alice@normal.mailworld.test' : `ghost${i}@normal.mailworld.test`));
    const answers = await Promise.all(emails.map((e) => check(client, e)));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.status).toBe(402);
      expect(r.body.error.data.appCode).toBe('INSUFFICIENT_CREDITS');
      expect(r.body.error.message).toMatch(/no validation credits left/i);
    }
    expect(await account(accountId)).toEqual({ credits_balance: 0, monthly_validations_used: 5 });
    expect(await resultCount(accountId)).toBe(5);
  });

  it('with no credits left refuses clearly and never asks the probe', async () => {
    const { client, accountId } = await newUser('starter');
    await stack.ts.testDb.db.updateTable('account').set({ credits_balance: 0 }).where('id', '=', accountId).execute();
    stack.world.resetCounters();
    const res = await check(client, 'alice@implicit-mx.mailworld.test');
    expect(res.status).toBe(402);
    expect(res.body.error.data.appCode).toBe('INSUFFICIENT_CREDITS');
    expect(stack.world.counters.dnsQueries).toBe(0);
    expect(stack.world.counters.connections).toBe(0);
    expect(await resultCount(accountId)).toBe(0);
    expect((await account(accountId)).credits_balance).toBe(0);
  });

  it('a Free account with its 500 used is not told to wait for monthly credits: Free gets none, so it is told to upgrade', async () => {
    const free = await newUser('free');
    await stack.ts.testDb.db.updateTable('account').set({ credits_balance: 0 }).where('id', '=', free.accountId).execute();
    for (const email of ['alice@implicit-mx.mailworld.test', 'no-at-sign']) {
      const res = await check(free.client, email);
      expect(res.status).toBe(402);
      expect(res.body.error.message).toBe(FREE_CREDITS_USED_MESSAGE);
      expect(res.body.error.message).not.toMatch(/wait for your monthly credits/);
    }
    // A paid plan's credits do come back each month: its message says so.
    const paid = await newUser('starter');
    await stack.ts.testDb.db.updateTable('account').set({ credits_balance: 0 }).where('id', '=', paid.accountId).execute();
    expect((await check(paid.client, 'alice@implicit-mx.mailworld.test')).body.error.message).toBe(INSUFFICIENT_CREDITS_MESSAGE);
  });

  it('refuses empty, line-broken and enormous input with a 4xx and takes no credit', async () => {
    const { client, accountId } = await newUser('starter');
    const before = await account(accountId);
    const bad: unknown[] = ['', '   ', 'alice@normal.mailworld.test\r\nRCPT TO:<x@y.test>', 'a\nb@normal.mailworld.test', 'tab\t@x.test', `${'a'.repeat(2048)}@normal.mailworld.test`, 42, null];
    for (const email of bad) {
      const res = await check(client, email);
      expect(res.status, JSON.stringify(email).slice(0, 40)).toBe(400);
    }
    // A body past the single-check limit (64 KB) is refused before it is read in full.
    const huge = await check(client, `${'a'.repeat(1024 * 1024)}@normal.mailworld.test`);
    expect(huge.status).toBe(413);
    const empty = await check(client, '');
    expect(empty.body.error.message).toBe('Please enter an email address');
    expect(await account(accountId)).toEqual(before);
    expect(await resultCount(accountId)).toBe(0);
  });

  it('needs a signed-in user', async () => {
    const res = await fetch(`${stack.ts.url}/api/trpc/validation.check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'alice@normal.mailworld.test' }) });
    expect(res.status).toBe(401);
  });

  it("keeps each account's results to itself", async () => {
    const a = await newUser('starter');
    const b = await newUser('starter');
    await check(a.client, 'bob@normal.mailworld.test');
    const overviewB = (await b.client.trpcQuery('account.overview')).body.result.data;
    expect(overviewB.recent_activity).toEqual([]);
    expect(overviewB.monthly_validations_used).toBe(0);
    expect(overviewB.getting_started.first_validation).toBe(false);
    expect(overviewB.validations_per_day.reduce((n: number, d: { count: number }) => n + d.count, 0)).toBe(0);
    const overviewA = (await a.client.trpcQuery('account.overview')).body.result.data;
    expect(overviewA.recent_activity.map((x: { email: string }) => x.email)).toEqual(['bob@normal.mailworld.test']);
  });
});

describe('validation.check when the probe is down', () => {
  let down: TestServer;
  beforeAll(async () => {
    down = await startTestServer({ probeUrls: [`http://127.0.0.1:${await freePort()}`], probeToken: TOKEN });
  });
  afterAll(async () => {
    await down?.stop();
  });

  it('answers 503 with a clear message and takes no credit', async () => {
    const client = await signUpVerified(down, { email: 'probe-down@example.com' });
    const res = await client.trpcMutation('validation.check', { email: 'alice@normal.mailworld.test' });
    expect(res.status).toBe(503);
    expect(res.body.error.data.appCode).toBe('UPSTREAM_UNAVAILABLE');
    expect(res.body.error.message).toMatch(/No credit was used/);
    const acct = await down.testDb.db.selectFrom('account').select(['credits_balance', 'monthly_validations_used']).executeTakeFirstOrThrow();
    expect(acct).toEqual({ credits_balance: 500, monthly_validations_used: 0 });
    const n = await down.testDb.db.selectFrom('validation_result').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(0);
  });
});
