// A member who is removed from a team, or leaves it, or deletes their user, takes no part in the
// account any more: the revalidation schedules they created must not go on spending the account's
// credits under their name. They are paused (their lists kept), the Schedules list says why, and an
// owner or admin who switches one back on keeps it running as the account's (its runs name nobody
// who left).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { joinAs, ownerOn, type Person } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';
import { dueScheduleIds, runSchedule } from '../../server/features/schedules/schedules.service';

const ts = testServer();
const db = () => ts.testDb.db;

async function createSchedule(p: Person, name: string): Promise<string> {
  const res = await p.client.trpcMutation('schedules.create', { name, emails: ['a@example.com', 'b@example.com'] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.data.id;
}

async function listed(p: Person, id: string) {
  const list = (await p.client.trpcQuery('schedules.list')).body.result.data as Array<{ id: string; is_active: boolean; paused_reason: string | null; next_run_at: string | null }>;
  return list.find((s) => s.id === id)!;
}

async function memberRowOf(owner: Person, email: string): Promise<string> {
  const rows = (await owner.client.trpcQuery('team.members')).body.result.data as Array<{ id: string; email: string }>;
  return rows.find((m) => m.email === email)!.id;
}

describe('schedules of a member who leaves the team', () => {
  it('a removed admin’s schedules are paused (the owner’s run on), say why, and run as the account’s once switched back on', async () => {
    const owner = await ownerOn(ts, 'business');
    await db().updateTable('account').set({ credits_balance: 1000 }).where('id', '=', owner.accountId).execute();
    const admin = await joinAs(ts, owner, 'admin');
    const theirs = await createSchedule(admin, 'Admin newsletter');
    const owners = await createSchedule(owner, 'Owner customers');

    const removed = await owner.client.trpcMutation('team.removeMember', { memberId: await memberRowOf(owner, admin.email) });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.result.data.schedules_paused).toBe(1);

    // Paused, with its reason; the owner's own schedule is untouched.
    expect(await listed(owner, theirs)).toMatchObject({ is_active: false, paused_reason: 'creator_left', next_run_at: null });
    expect(await listed(owner, owners)).toMatchObject({ is_active: true, paused_reason: null });
    const now = new Date(Date.now() + 60_000);
    const due = await dueScheduleIds(db(), now);
    expect(due).toContain(owners);
    expect(due).not.toContain(theirs);
    expect(await runSchedule(db(), theirs, now)).toEqual({ jobId: null, status: 'skipped' });
    const audit = await db().selectFrom('audit_log').select(['action', 'data']).where('account_id', '=', owner.accountId).where('target_id', '=', theirs).where('action', '=', 'schedule.deactivated').execute();
    expect(audit).toEqual([{ action: 'schedule.deactivated', data: expect.objectContaining({ reason: 'member_removed' }) }]);

    // The owner keeps it: switched on, it runs, in the account's name rather than the removed admin's.
    expect((await owner.client.trpcMutation('schedules.setActive', { scheduleId: theirs, isActive: true })).status).toBe(200);
    expect(await listed(owner, theirs)).toMatchObject({ is_active: true, paused_reason: null });
    const run = await runSchedule(db(), theirs, now);
    expect(run.status).toBe('created');
    const job = await db().selectFrom('validation_job').select('created_by').where('id', '=', run.jobId!).executeTakeFirstOrThrow();
    expect(job.created_by).toBeNull();
  });

  it('a member who leaves, or deletes their user, has their schedules paused too', async () => {
    const owner = await ownerOn(ts, 'business');
    const leaver = await joinAs(ts, owner, 'admin', 'leaver');
    const deleter = await joinAs(ts, owner, 'admin', 'deleter');
    const left = await createSchedule(leaver, 'Leaver list');
    const deleted = await createSchedule(deleter, 'Deleter list');

    const res = await leaver.client.trpcMutation('team.leave', { accountId: owner.accountId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await listed(owner, left)).toMatchObject({ is_active: false, paused_reason: 'creator_left' });

    expect((await deleter.client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' })).status).toBe(200);
    expect(await listed(owner, deleted)).toMatchObject({ is_active: false, paused_reason: 'creator_left' });
    expect(await dueScheduleIds(db(), new Date(Date.now() + 60_000))).not.toContain(deleted);
  });

  it('a removal at the moment one of their schedules starts a run waits for it (no deadlock), then pauses the schedule', async () => {
    const owner = await ownerOn(ts, 'business');
    const admin = await joinAs(ts, owner, 'admin', 'racing');
    const theirs = await createSchedule(admin, 'Racing list');
    // A run starting: it locks the schedule's row, then the account's (runSchedule's order).
    let lockAccount!: () => void;
    const accountTurn = new Promise<void>((r) => (lockAccount = r));
    let scheduleLocked!: () => void;
    const started = new Promise<void>((r) => (scheduleLocked = r));
    const run = db().transaction().execute(async (trx) => {
      await trx.selectFrom('schedule').select('id').where('id', '=', theirs).forUpdate().execute();
      scheduleLocked();
      await accountTurn;
      await trx.selectFrom('account').select('id').where('id', '=', owner.accountId).forUpdate().execute();
    });
    await started;
    const removal = owner.client.trpcMutation('team.removeMember', { memberId: await memberRowOf(owner, admin.email) });
    // The removal is under way and waits on a row lock before the run takes the account's.
    for (let i = 0; ; i++) {
      const w = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%schedule%'`.execute(db());
      if (Number(w.rows[0]!.n) > 0) break;
      if (i > 200) throw new Error('the removal never waited on the schedule');
      await new Promise((r) => setTimeout(r, 25));
    }
    lockAccount();
    await run;
    const res = await removal;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.data.schedules_paused).toBe(1);
    expect(await listed(owner, theirs)).toMatchObject({ is_active: false, paused_reason: 'creator_left' });
  });
});
