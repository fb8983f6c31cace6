// What a plan taken away leaves behind (spec sections 6 and 9): an account that falls to Free (a
// refund, a cancelled period's end) has no bulk validation and no SMTP mailbox check from that
// moment, whatever was queued while it paid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planByType } from '../../server/contracts/plans';
import { runChunk } from '../../server/features/jobs/bulk-pipeline';
import { billingTick } from '../../server/features/billing/billing-tick';
import { createJob } from '../../server/features/jobs/jobs.service';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { joinAs, ownerOn, setPlan } from '../helpers/accounts';
import { credits, plainDomains, resultStats, signUpOnPlan, startProbeWorld, type ProbeWorld } from './jobs.world';

let pw: ProbeWorld;
let ts: TestServer;
beforeAll(async () => {
  pw = await startProbeWorld(plainDomains(2, 5, 'downgraded'));
  ts = await startTestServer(); // no worker: the test runs the chunks itself
});
afterAll(async () => {
  await ts?.stop();
  await pw?.stop();
});

const free = planByType('free');
const toFree = { plan: 'free' as const, monthly_validations_quota: free.monthlyValidations, team_member_limit: free.teamMemberLimit, subscription_status: 'none' as const };

describe('a bulk job queued on a paid plan when the account falls to Free', () => {
  it('its next chunk asks no mail server and takes no credit: the job fails saying why, the results so far kept', async () => {
    const { accountId, userId } = await signUpOnPlan(ts, 'queued-then-free@example.com', 'starter', 1000);
    const db = ts.testDb.db;
    const job = await createJob(db, { accountId, userId, filename: 'list.csv', emails: pw.world.emails.slice(0, 10), source: 'upload', depth: 'smtp', chunkSize: 5 });
    const probe = { urls: [pw.url], token: pw.token };
    const fast = { initialMs: 10, maxMs: 10, budgetMs: 200 };
    expect(await runChunk({ db, probe, retry: fast }, job.jobId, 0)).toBe('done');
    const stored = (await resultStats(db, job.jobId)).rows;
    expect(stored).toBe(5);

    // Refunded (or the cancelled period ended): Free, with what is left of its credits.
    await db.updateTable('account').set(toFree).where('id', '=', accountId).execute();
    const before = await credits(db, accountId);
    expect(await runChunk({ db, probe, retry: fast }, job.jobId, 1)).toBe('plan-changed');
    expect(await credits(db, accountId)).toBe(before);
    expect((await resultStats(db, job.jobId)).rows).toBe(stored);
    const row = await db.selectFrom('validation_job').select(['status', 'error']).where('id', '=', job.jobId).executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/Free plan/);
    expect(row.error).toMatch(/results so far are kept/);
  });
});

describe('a team larger than the plan it fell to', () => {
  it("members past the new team size no longer work in the account (the owner and the earliest keep their seats); an upgrade gives the seats back", async () => {
    const owner = await ownerOn(ts, 'business', 'seats-owner');
    const admin = await joinAs(ts, owner, 'admin', 'seats-admin');
    const member = await joinAs(ts, owner, 'member', 'seats-member');
    const db = ts.testDb.db;
    const before = await db.selectFrom('account').select('credits_balance').where('id', '=', owner.accountId).executeTakeFirstOrThrow();

    // Business (10) → Pro (2 members total): the owner and the admin (who joined first) keep their seats.
    await setPlan(ts, owner.accountId, 'pro');
    const acting = async (p: typeof member) => (await p.client.trpcQuery('account.me')).body.result.data.accountId as string;
    expect(await acting(owner)).toBe(owner.accountId);
    expect(await acting(admin)).toBe(owner.accountId);
    expect(await acting(member)).not.toBe(owner.accountId);
    // They are told why: the team, and its size.
    const me = (await member.client.trpcQuery('account.me')).body.result.data;
    expect(me.seatless).toEqual([{ accountId: owner.accountId, name: expect.any(String), limit: 2 }]);
    expect((await admin.client.trpcQuery('account.me')).body.result.data.seatless).toEqual([]);
    // The third member's checks are not the team's: no credit of the team's is spent.
    await member.client.trpcMutation('validation.check', { email: 'not-an-address' });
    expect((await db.selectFrom('account').select('credits_balance').where('id', '=', owner.accountId).executeTakeFirstOrThrow()).credits_balance).toBe(before.credits_balance);
    expect((await member.client.trpcQuery('team.members')).body.result.data.map((m: { account_id: string }) => m.account_id)).not.toContain(owner.accountId);

    // Free (the owner alone): nobody but the owner.
    await db.updateTable('account').set(toFree).where('id', '=', owner.accountId).execute();
    expect(await acting(admin)).not.toBe(owner.accountId);
    expect(await acting(owner)).toBe(owner.accountId);
    // The owner still sees every member, to choose whom to remove, and who has no seat.
    const seats = (await owner.client.trpcQuery('team.members')).body.result.data as Array<{ email: string; seated: boolean }>;
    expect(Object.fromEntries(seats.map((m) => [m.email, m.seated]))).toEqual({ [owner.email]: true, [admin.email]: false, [member.email]: false });

    // Back on Business: both are in the team again.
    await setPlan(ts, owner.accountId, 'business');
    expect(await acting(admin)).toBe(owner.accountId);
    expect(await acting(member)).toBe(owner.accountId);
  });
});

describe('a cancelled plan whose paid period ended', () => {
  it("starts Free's usage period: This Month no longer shows the paid period's use against Free's quota (8,000 = 1,600 % of 500)", async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'cancelled-then-free@example.com', 'starter', 2_000);
    const db = ts.testDb.db;
    const periodEnd = new Date(Date.now() - 60_000);
    await db
      .updateTable('account')
      .set({ monthly_validations_used: 8_000, subscription_status: 'active', billing_interval: 'monthly', cancel_at_period_end: true, current_period_end: periodEnd })
      .where('id', '=', accountId)
      .execute();
    expect((await billingTick(ts.server.deps, new Date())).fellToFree).toContain(accountId);

    const o = (await client.trpcQuery('account.overview')).body.result.data;
    expect(o).toMatchObject({ plan: 'free', monthly_validations_quota: 500, monthly_validations_used: 0, usage_percent: 0, credits_balance: 2_000 });
    expect(o.usage_period_start).toBe(new Date().toISOString().slice(0, 10));
  });
});
