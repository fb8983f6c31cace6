// The worker's slots are shared by bulk chunks and the cron's tasks: a big upload queued earlier
// must not hold every account's scheduled revalidation (and the billing ticks) until it is done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parseCrontab } from 'graphile-worker';
import { closeDeps, createDeps } from '../../server/boot';
import type { AppDeps } from '../../server/deps';
import { readEnv } from '../../server/env';
import { createJob } from '../../server/features/jobs/jobs.service';
import { startWorker, type WorkerHandle } from '../../server/worker/runner';
import { crontab } from '../../server/worker/crontab';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { plainDomains, seedAccount, startProbeWorld, type ProbeWorld } from './jobs.world';

let pw: ProbeWorld;
let tdb: TestDb;
let deps: AppDeps;
let worker: WorkerHandle;
beforeAll(async () => {
  pw = await startProbeWorld(plainDomains(8, 5, 'prio'));
  tdb = await createTestDb();
  deps = await createDeps({ env: readEnv({ NODE_ENV: 'test', DATA_DIR: '.data/test' }), databaseUrl: tdb.url, probe: { urls: [pw.url], token: pw.token }, runMigrations: false, poolSize: 6 });
  // One slot; each chunk holds it ~3 s while the probe is down (its in-task retries).
  worker = await startWorker(deps, { cron: false, pollInterval: 200, concurrency: 1, chunk: { retry: { initialMs: 200, maxMs: 400, budgetMs: 3_000 } } });
});
afterAll(async () => {
  await worker?.stop();
  if (deps) await closeDeps(deps);
  await tdb?.close();
  await pw?.stop();
});

describe('worker priorities', () => {
  it("a due schedule runs at the cron's tick while an earlier upload's chunks fill the queue", async () => {
    const uploader = await seedAccount(tdb.db, { plan: 'starter', credits: 1000 });
    const scheduler = await seedAccount(tdb.db, { plan: 'pro', credits: 1000 });
    await pw.stopProbe();
    try {
      // Eight chunks (one domain each), about 24 s of the only slot before anything queued after them.
      await createJob(tdb.db, { accountId: uploader.accountId, userId: uploader.userId, filename: 'big.csv', emails: pw.world.emails.slice(0, 40), source: 'upload', depth: 'smtp', chunkSize: 5 });
      const schedule = await tdb.db
        .insertInto('schedule')
        .values({ account_id: scheduler.accountId, created_by: scheduler.userId, name: 'Weekly list', description: null, email_list: ['a@d0.prio.test'], frequency: 'weekly' })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The cron's tick, queued as graphile-worker's cron queues it (with the crontab's options).
      const tick = parseCrontab(crontab).find((i) => i.task === 'schedule-tick')!;
      await sql`select graphile_worker.add_job('schedule-tick', '{}'::json, priority := ${tick.options.priority ?? 0}::int)`.execute(tdb.db);
      await expect
        .poll(async () => (await tdb.db.selectFrom('schedule').select('total_runs').where('id', '=', schedule.id).executeTakeFirstOrThrow()).total_runs, { timeout: 10_000, interval: 200 })
        .toBe(1);
    } finally {
      await pw.startProbe();
    }
  }, 60_000);
});
