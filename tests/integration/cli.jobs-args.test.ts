// `mailvet jobs …` with a mistyped value (README, "CLI"): the command stops with a message naming the
// flag or argument and what it takes, exit non-zero. `--status complete` (for completed) listed
// "(no jobs)" with exit 0, as if there were none; `jobs replay 123` printed Postgres's
// 'invalid input syntax for type uuid'.
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

describe('mailvet jobs, mistyped values', () => {
  it('jobs list --status with an unknown status names the flag and the statuses, instead of listing nothing', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 100 });
    await createJob(tdb.db, { accountId, userId, filename: 'a.csv', emails: ['a@example.com'], source: 'upload', depth: 'syntax' });
    const r = await cli('jobs', 'list', '--status', 'complete');
    expect(r.code).not.toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toContain("option '--status <status>' argument 'complete' is invalid. must be one of pending, processing, completed, failed, cancelled");
    const ok = await cli('jobs', 'list', '--status', 'Pending');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('a.csv');
  });

  it.each([['show'], ['replay']])('jobs %s with something that is no job id says so, not a database error', async (command) => {
    const r = await cli('jobs', command, '123');
    expect(r.code).not.toBe(0);
    expect(r.err).not.toContain('uuid');
    expect(r.err).toContain("command-argument value '123' is invalid for argument 'id'");
    expect(r.err).toContain('must be a job id');
  });
});
