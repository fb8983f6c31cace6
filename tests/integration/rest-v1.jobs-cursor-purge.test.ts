// Walking GET /v1/jobs page by page (newest first) while jobs go away: the daily retention purge
// deletes the oldest jobs, the very end a walk is reaching. The cursor named its last job only, so
// when that job was purged between two pages the next page was a 400 "cursor is not valid" and the
// client could not finish the walk. The cursor now carries the job's place in the order as well.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOn, type Person } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Person;
let key = '';

beforeAll(async () => {
  ts = await startTestServer();
  owner = await ownerOn(ts, 'pro', 'cursor-purge');
  key = (await owner.client.trpcMutation('apiKeys.create', { name: 'k', test: true })).body.result.data.api_key as string;
});
afterAll(async () => {
  await ts?.stop();
});

async function v1(path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${ts.url}/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('GET /v1/jobs pages', () => {
  it('go on past a job that was deleted between two pages, skipping and repeating nothing', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const made = await v1('/bulk', { method: 'POST', body: JSON.stringify({ emails: [`a${i}@example.com`] }) });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      ids.push(made.body.job_id as string);
    }
    const newestFirst = [...ids].reverse();
    const first = await v1('/jobs?limit=2');
    expect(first.status).toBe(200);
    expect((first.body.jobs as Array<{ job_id: string }>).map((j) => j.job_id)).toEqual(newestFirst.slice(0, 2));
    // The job the cursor stands on is purged before the next page is asked for.
    await ts.testDb.db.deleteFrom('validation_job').where('id', '=', newestFirst[1]!).execute();
    const next = await v1(`/jobs?limit=2&cursor=${first.body.next_cursor as string}`);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect((next.body.jobs as Array<{ job_id: string }>).map((j) => j.job_id)).toEqual(newestFirst.slice(2));
    expect(next.body.next_cursor).toBeNull();
  });
});

describe('a forged cursor place', () => {
  it('out of range or not a number is the 400 for a cursor that is not ours, never a 500', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const at of ['-999999999999999999', '999999999999999999', '1e5', 12]) {
      const cursor = Buffer.from(JSON.stringify({ k: 'j', id, at })).toString('base64url');
      const res = await v1(`/jobs?cursor=${cursor}`);
      expect(res.status, `${String(at)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.code).toBe('BAD_INPUT');
    }
  });
});
