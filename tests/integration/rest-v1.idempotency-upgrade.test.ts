// Idempotency-Key rows are now stored as "<apiKeyId> <key>". A row stored by the previous
// release (plain "<key>" for a live key, "sandbox <key>" for a test key) within its 24 hours no longer
// replays: a client retrying across the deploy gets a second job (and a second charge).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOn } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { requestHash } from '../../server/features/idempotency/idempotency.service';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts?.stop();
});

describe('Idempotency-Key rows stored before the per-API-key change ', () => {
  it('a retry of a POST /v1/bulk answered just before the deploy replays the stored answer (no second job)', async () => {
    const owner = await ownerOn(ts, 'starter', 'idem-upgrade');
    const key = (await owner.client.trpcMutation('apiKeys.create', { name: 'server' })).body.result.data.api_key as string;
    const body = { emails: ['ann@example.com', 'bob@example.com'] };
    // What the previous release stored for this account's first request (key = the client's value).
    const stored = JSON.stringify({ job_id: '00000000-0000-4000-8000-000000000001', status: 'queued', total_emails: 2 });
    await ts.testDb.db
      .insertInto('idempotency_key')
      .values({ account_id: owner.accountId, key: 'import-2026-11-30', request_hash: requestHash('POST', '/bulk', body), status: 201, body: stored, content_type: 'application/json; charset=utf-8' })
      .execute();
    const jobsBefore = await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', owner.accountId).execute();

    const retry = await fetch(`${ts.url}/v1/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'import-2026-11-30' },
      body: JSON.stringify(body),
    });
    const text = await retry.text();
    const jobsAfter = await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', owner.accountId).execute();
    expect({ replayed: retry.headers.get('idempotent-replayed'), newJobs: jobsAfter.length - jobsBefore.length }, text).toEqual({ replayed: 'true', newJobs: 0 });
  });
});
