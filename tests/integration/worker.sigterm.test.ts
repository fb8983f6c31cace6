// SIGTERM to a worker process (README, "Running each process": a deploy, `docker stop`, a scale-down)
// while a bulk job runs: the process exits 0 on its own, hands its chunks back without waiting out a
// crashed worker's lease, and the next worker finishes the job with one result and one credit per
// address. Nothing is lost, nothing charged twice.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJob } from '../../server/features/jobs/jobs.service';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { credits, plainDomains, resultStats, seedAccount, startProbeWorld, waitForJob, type ProbeWorld } from './jobs.world';

const ROOT = path.resolve(import.meta.dirname, '../..');

let pw: ProbeWorld;
let tdb: TestDb;
const children: ChildProcess[] = [];
beforeAll(async () => {
  pw = await startProbeWorld(plainDomains(40, 50, 'sigterm'), { replyDelayMs: 25 });
  tdb = await createTestDb();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await tdb?.close();
  await pw?.stop();
});

function spawnWorker(): { child: ChildProcess; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts'), 'worker'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', DATABASE_URL: tdb.url, PROBE_URLS: pw.url, PROBE_TOKEN: pw.token, WORKER_CONCURRENCY: '2', DATA_DIR: '.data/test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout?.resume();
  child.stderr?.resume();
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exit };
}

const ended = (j: { status: string }) => j.status !== 'pending' && j.status !== 'processing';

describe('a worker stopped with SIGTERM during a bulk job', () => {
  it('exits 0, and the next worker completes the job: one result and one credit per address', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 5000 });
    const emails = pw.world.emails.slice(0, 2000);
    const { jobId } = await createJob(tdb.db, { accountId, userId, filename: 'sigterm.csv', emails, source: 'upload', depth: 'smtp' });

    const first = spawnWorker();
    const mid = await waitForJob(tdb.db, jobId, { timeoutMs: 60_000, until: (j) => j.processed_emails >= 150 || ended(j) });
    expect(mid.status).toBe('processing');
    first.child.kill('SIGTERM');
    expect(await first.exit, 'the worker stopped by itself, with exit code 0').toEqual({ code: 0, signal: null });
    const stoppedAt = (await waitForJob(tdb.db, jobId, { until: () => true })).processed_emails;
    expect(stoppedAt).toBeLessThan(2000);
    // Handed back, not left locked by a process that is gone (no lease to wait out).
    const locked = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where key like ${`bulk-validate-chunk:${jobId}:%`} and locked_by is not null`.execute(tdb.db);
    expect(locked.rows[0]!.n).toBe(0);

    const second = spawnWorker();
    const done = await waitForJob(tdb.db, jobId, { timeoutMs: 90_000, until: ended });
    second.child.kill('SIGTERM');
    expect(await second.exit).toEqual({ code: 0, signal: null });
    expect(done.status).toBe('completed');
    expect(done.processed_emails).toBe(2000);
    expect(await resultStats(tdb.db, jobId)).toEqual({ rows: 2000, unique: 2000 });
    expect(await credits(tdb.db, accountId)).toBe(3000);
  }, 180_000);
});
