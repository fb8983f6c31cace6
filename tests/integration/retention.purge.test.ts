import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { saveValidationFile } from '../../server/features/storage/storage';
import { purgeExpired } from '../../server/features/retention/retention.service';
import { resetMonthlyQuotas } from '../../server/features/credits/monthly-reset';
import { payloadNow } from '../../server/worker/clock';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
let storageDir: string;
beforeAll(async () => {
  tdb = await createTestDb();
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-retention-'));
});
afterAll(async () => {
  await tdb?.close();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

const DAY = 86_400_000;

function resultRowFor(accountId: string, jobId: string | null, email: string, checkedAt: Date) {
  return {
    account_id: accountId, job_id: jobId, created_by: null, email, result: 'valid' as const, verdict: 'deliverable', reason: 'accepted',
    is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: true, deliverability_score: 90, role_detected: false,
    disposable_provider: false, catch_all: false, suggestion: null, domain_age_days: null, evidence: null, checked_at: checkedAt,
  };
}

describe('retention (daily cron, fake clock)', () => {
  it('deletes results, jobs and stored files older than 90 days and keeps younger ones', async () => {
    const now = new Date('2027-06-01T03:30:00Z');
    const { accountId, userId } = await seedAccount(tdb.db);
    const oldAt = new Date(now.getTime() - 91 * DAY);
    const youngAt = new Date(now.getTime() - 89 * DAY);
    const oldFile = await saveValidationFile(storageDir, userId, 'old.csv', Buffer.from('email\na@x.io\n'), oldAt);
    const youngFile = await saveValidationFile(storageDir, userId, 'young.csv', Buffer.from('email\na@x.io\n'), youngAt);
    const strayFile = await saveValidationFile(storageDir, userId, 'stray.csv', Buffer.from('email\n'), oldAt);
    const job = (filename: string, at: Date, file: string | null) =>
      tdb.db.insertInto('validation_job').values({ account_id: accountId, created_by: userId, filename, status: 'completed', created_at: at, file_path: file, error: null, webhook_url: null }).returning('id').executeTakeFirstOrThrow();
    const oldJob = await job('old.csv', oldAt, oldFile);
    const youngJob = await job('young.csv', youngAt, youngFile);
    await tdb.db
      .insertInto('validation_result')
      .values([
        resultRowFor(accountId, oldJob.id, 'a@x.io', oldAt),
        resultRowFor(accountId, youngJob.id, 'a@x.io', oldAt), // a young job keeps all its rows
        resultRowFor(accountId, null, 'single-old@x.io', oldAt),
        resultRowFor(accountId, null, 'single-young@x.io', youngAt),
      ])
      .execute();

    // The task reads its clock from the payload.
    const counts = await purgeExpired({ db: tdb.db, storageDir }, payloadNow({ now: now.toISOString() }));
    expect(counts).toEqual({ jobs: 1, results: 1, files: 2 });
    expect((await tdb.db.selectFrom('validation_job').select('filename').where('account_id', '=', accountId).execute()).map((j) => j.filename)).toEqual(['young.csv']);
    const left = await tdb.db.selectFrom('validation_result').select(['email', 'job_id']).where('account_id', '=', accountId).orderBy('email').execute();
    expect(left).toEqual([
      { email: 'a@x.io', job_id: youngJob.id },
      { email: 'single-young@x.io', job_id: null },
    ]);
    const file = (key: string) => fs.existsSync(path.join(storageDir, 'validation-files', key));
    expect([file(oldFile), file(strayFile), file(youngFile)]).toEqual([false, false, true]);

    expect(await purgeExpired({ db: tdb.db, storageDir }, now)).toEqual({ jobs: 0, results: 0, files: 0 });
    // 90 days later the young ones go too.
    expect(await purgeExpired({ db: tdb.db, storageDir }, new Date(now.getTime() + 2 * DAY))).toEqual({ jobs: 1, results: 1, files: 1 });
  });
});

describe('monthly quota reset (fake clock)', () => {
  it('starts a new period: usage to 0, paid plans refilled (rollover adds), free gets nothing, once per month', async () => {
    const seeded: Record<string, string> = {};
    const setup: Array<[Plan, number]> = [['free', 120], ['starter', 300], ['pro', 5_000], ['enterprise', 1_000_000_000]];
    for (const [plan, balance] of setup) {
      const { accountId } = await seedAccount(tdb.db, { plan, credits: balance });
      await tdb.db.updateTable('account').set({ monthly_validations_used: 77, usage_period_start: '2027-05-01' }).where('id', '=', accountId).execute();
      seeded[plan] = accountId;
    }
    const june = new Date('2027-06-01T00:05:00Z');
    await resetMonthlyQuotas(tdb.db, june);
    const row = (plan: string) => tdb.db.selectFrom('account').select(['credits_balance', 'monthly_validations_used', 'usage_period_start']).where('id', '=', seeded[plan]!).executeTakeFirstOrThrow();
    expect(await row('free')).toEqual({ credits_balance: 120, monthly_validations_used: 0, usage_period_start: '2027-06-01' });
    expect(await row('starter')).toEqual({ credits_balance: 10_000, monthly_validations_used: 0, usage_period_start: '2027-06-01' });
    expect(await row('pro')).toEqual({ credits_balance: 105_000, monthly_validations_used: 0, usage_period_start: '2027-06-01' });
    expect((await row('enterprise')).credits_balance).toBe(1_000_000_000);

    // A repeat in the same month (backfill, retry) changes nothing.
    await tdb.db.updateTable('account').set({ monthly_validations_used: 5 }).where('id', '=', seeded.pro!).execute();
    const again = await resetMonthlyQuotas(tdb.db, new Date('2027-06-15T00:00:00Z'));
    expect(again.filter((r) => Object.values(seeded).includes(r.id))).toEqual([]);
    expect(await row('pro')).toEqual({ credits_balance: 105_000, monthly_validations_used: 5, usage_period_start: '2027-06-01' });

    const audit = await tdb.db.selectFrom('audit_log').select(['action', 'actor']).where('account_id', '=', seeded.pro!).where('action', '=', 'quota.reset').execute();
    expect(audit).toEqual([{ action: 'quota.reset', actor: 'system' }]);
  });
});
