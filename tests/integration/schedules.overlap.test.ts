// A schedule that comes due while its previous run is still being validated (a big list, a probe
// outage that keeps its chunks retrying for days, a busy fleet) must not start a second run over the
// same list: the runs would pile up, each charging the whole list again, and all of them would run
// at once when the fleet is back. The due run waits for the previous one and then runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueScheduleIds, runSchedule } from '../../server/features/schedules/schedules.service';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
});

describe('a schedule whose previous run is still running', () => {
  it('starts no second run over the same list until the previous one has ended, then runs at the next tick', async () => {
    const pro = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    const { id } = await tdb.db
      .insertInto('schedule')
      .values({ account_id: pro.accountId, created_by: pro.userId, name: 'Customers', description: null, email_list: ['a@example.com', 'b@example.com'], frequency: 'daily' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const jobs = () => tdb.db.selectFrom('validation_job').select(['id', 'status']).where('schedule_id', '=', id).orderBy('created_at').execute();

    const first = await runSchedule(tdb.db, id, new Date('2027-03-01T09:00:00Z'));
    expect(first.status).toBe('created');
    // A day later the first run is still being validated (no worker has finished it).
    const nextDay = new Date('2027-03-02T09:00:00Z');
    expect(await dueScheduleIds(tdb.db, nextDay)).not.toContain(id);
    expect((await runSchedule(tdb.db, id, nextDay)).status).toBe('skipped');
    expect(await jobs()).toHaveLength(1);
    const s = await tdb.db.selectFrom('schedule').select(['total_runs', 'last_run_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(s).toEqual({ total_runs: 1, last_run_at: new Date('2027-03-01T09:00:00Z') });

    // The first run ends: the waiting run is due at once and runs.
    await tdb.db.updateTable('validation_job').set({ status: 'completed', completed_at: new Date() }).where('id', '=', first.jobId!).execute();
    const later = new Date('2027-03-02T13:00:00Z');
    expect(await dueScheduleIds(tdb.db, later)).toContain(id);
    expect((await runSchedule(tdb.db, id, later)).status).toBe('created');
    expect((await jobs()).map((j) => j.status)).toEqual(['completed', 'pending']);
  });
});
