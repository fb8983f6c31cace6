import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJob } from '../../server/features/jobs/jobs.service';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { operatorCli } from '../helpers/operator-cli';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
});

const cli = operatorCli(() => tdb.url);

const account = (id: string) => tdb.db.selectFrom('account').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const audit = (id: string) => tdb.db.selectFrom('audit_log').select(['action', 'actor', 'data']).where('account_id', '=', id).where('actor', '=', 'operator').orderBy('id').execute();

describe('mailvet operator CLI', () => {
  it('set-plan by owner email: gates, quota, credits and team limit take effect at once, audited', async () => {
    const { accountId } = await seedAccount(tdb.db, { plan: 'free', credits: 500, email: 'Sales.Deal@Example.com' });
    const r = await cli('accounts', 'set-plan', 'sales.deal@example.com', 'Pro');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/plan free → pro; credits 500 → 100500/);
    expect(await account(accountId)).toMatchObject({ plan: 'pro', credits_balance: 100_500, monthly_validations_quota: 100_000, team_member_limit: 2 });
    // A downgrade by id keeps the balance.
    expect((await cli('accounts', 'set-plan', accountId, 'starter')).code).toBe(0);
    expect(await account(accountId)).toMatchObject({ plan: 'starter', credits_balance: 100_500, team_member_limit: 1 });
    expect((await audit(accountId)).map((a) => a.action)).toEqual(['account.plan_set', 'account.plan_set']);
  });

  it('grant-credits adds to the balance; bad input is refused with a message', async () => {
    const { accountId } = await seedAccount(tdb.db, { plan: 'starter', credits: 10 });
    expect((await cli('accounts', 'grant-credits', accountId, '250')).out).toMatch(/credits 10 → 260/);
    expect((await account(accountId)).credits_balance).toBe(260);
    const bad = await cli('accounts', 'grant-credits', accountId, '-5');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/positive whole number/);
    const missing = await cli('accounts', 'grant-credits', 'nobody@example.com', '5');
    expect(missing).toMatchObject({ code: 1 });
    expect(missing.err).toMatch(/No account found/);
    expect((await cli('accounts', 'set-plan', accountId, 'platinum')).err).toMatch(/must be one of free, starter, pro, business, enterprise/);
    expect((await audit(accountId)).map((a) => a.action)).toEqual(['account.credits_granted']);
  });

  it('grant-credits --key grants once: a retried or doubled command adds nothing more', async () => {
    const { accountId } = await seedAccount(tdb.db, { plan: 'starter', credits: 10 });
    // The operator's shell lost the connection and the command ran again, twice at once.
    const runs = await Promise.all([1, 2, 3].map(() => cli('accounts', 'grant-credits', accountId, '250', '--key', 'ticket-4411')));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(runs.filter((r) => /credits 10 → 260/.test(r.out))).toHaveLength(1);
    expect(runs.filter((r) => /already granted/.test(r.out))).toHaveLength(2);
    expect((await cli('accounts', 'grant-credits', accountId, '250', '--key', 'ticket-4411')).out).toMatch(/already granted 250 credits with key ticket-4411; balance 260/);
    expect((await account(accountId)).credits_balance).toBe(260);
    // The same key for another amount is a mistake, refused.
    const other = await cli('accounts', 'grant-credits', accountId, '300', '--key', 'ticket-4411');
    expect(other.code).not.toBe(0);
    expect(other.err).toMatch(/already used for a grant of 250 credits/);
    // Another key is another grant.
    expect((await cli('accounts', 'grant-credits', accountId, '5', '--key', 'ticket-4412')).out).toMatch(/credits 260 → 265/);
    expect((await audit(accountId)).map((a) => a.action)).toEqual(['account.credits_granted', 'account.credits_granted']);
  });

  it('jobs list, show and replay (a new free job over the same addresses)', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 100 });
    const { jobId } = await createJob(tdb.db, { accountId, userId, filename: 'q3.csv', emails: ['a@x.io', 'b@y.io', 'c@x.io'], source: 'upload', depth: 'smtp' });
    const list = await cli('jobs', 'list', '--account', accountId);
    expect(list.out).toContain(jobId);
    expect(list.out).toMatch(/pending\s+0\/3/);
    const show = await cli('jobs', 'show', jobId);
    expect(show.out).toMatch(/status\s+pending/);
    expect(show.out).toMatch(/chunks\s+0\/1 done/);
    const replay = await cli('jobs', 'replay', jobId);
    expect(replay.code).toBe(0);
    const newId = replay.out.match(/job ([0-9a-f-]{36})/)![1]!;
    const job = await tdb.db.selectFrom('validation_job').selectAll().where('id', '=', newId).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ account_id: accountId, source: 'replay', replay_of: jobId, total_emails: 3, charge_credits: false, filename: 'q3.csv (replay)' });
    expect((await audit(accountId)).map((a) => a.action)).toEqual(['job.created', 'job.replayed']);
    expect((await cli('jobs', 'show', '00000000-0000-4000-8000-000000000000')).err).toMatch(/No job/);
  });

  it('has help text for every command (and the real bin shows it)', async () => {
    const help = async (...args: string[]) => (await cli(...args, '--help')).out.replace(/\s+/g, ' ');
    expect(await help()).toMatch(/accounts .*jobs/);
    expect(await help('accounts', 'set-plan')).toMatch(/gates, monthly quota and team limit apply immediately/);
    expect(await help('accounts', 'grant-credits')).toMatch(/Add credits/);
    expect(await help('jobs', 'list')).toMatch(/newest first/);
    expect(await help('jobs', 'show')).toMatch(/status, progress/);
    expect(await help('jobs', 'replay')).toMatch(/Re-run a job's addresses/);
    const bin = path.resolve(import.meta.dirname, '../../scripts/mailvet.mjs');
    const run = spawnSync(process.execPath, [bin, 'jobs', '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(run.stdout).toMatch(/replay/);
  }, 30_000);
});
