// History's live updates (jobs.onChange) come from one LISTEN connection per server process
// (server/features/jobs/job-events.ts). When that connection is lost (a database restart or
// failover, a pooler or an operator ending it), the NOTIFYs sent meanwhile are gone: a stream kept
// open across the loss says nothing of them, and the page (which polls only while its stream is
// down) shows a finished job as processing until it is reloaded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { accountJobEvents, jobEventHub, type JobChangeEvent } from '../../server/features/jobs/job-events';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
});

const listeners = async () =>
  Number((await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = 'mailvet-job-events' and datname = current_database()`.execute(tdb.db)).rows[0]!.n);

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('live job events', () => {
  it('ends the streams of a process whose LISTEN connection was lost (the page reconnects and reloads), and a new stream hears changes again', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'pro', credits: 100 });
    const job = await tdb.db
      .insertInto('validation_job')
      .values({ account_id: accountId, created_by: userId, filename: 'live.csv', source: 'upload', status: 'processing', total_emails: 10, depth: 'smtp', charge_credits: true, error: null, webhook_url: null, file_path: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const touch = () => tdb.db.updateTable('validation_job').set({ processed_emails: sql`processed_emails + 1`, updated_at: new Date() }).where('id', '=', job.id).execute();

    const ac = new AbortController();
    const stream = accountJobEvents(tdb.pool, accountId, ac.signal);
    try {
      const first = stream.next();
      await until(async () => (await listeners()) === 1);
      await touch();
      expect(((await first).value as JobChangeEvent).jobId).toBe(job.id);

      // The connection goes; the job changes (completes, say) before any new LISTEN could be in place.
      const next = stream.next();
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'mailvet-job-events' and datname = current_database()`.execute(tdb.db);
      await touch();
      const outcome = await Promise.race([next.then((r) => (r.done ? 'ended' : 'event')), new Promise<string>((r) => setTimeout(() => r('open'), 5_000))]);
      // The change was never heard: the stream must not stay open as though nothing happened.
      expect(outcome).toBe('ended');
    } finally {
      ac.abort();
      await stream.return(undefined);
    }

    // A reconnecting page gets a working stream.
    const ac2 = new AbortController();
    const again = accountJobEvents(tdb.pool, accountId, ac2.signal);
    try {
      const heard = again.next();
      await until(async () => (await listeners()) === 1);
      await touch();
      expect(((await heard).value as JobChangeEvent).jobId).toBe(job.id);
    } finally {
      ac2.abort();
      await again.return(undefined);
      await jobEventHub(tdb.pool).close();
    }
  }, 30_000);
});
