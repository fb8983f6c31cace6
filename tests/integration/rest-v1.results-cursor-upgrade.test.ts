// result-page cursors now name their job ({k:'r', job, id}); a cursor the previous release
// handed out ({k:'r', id}) is refused with 400, so a client paging a job's results across the
// deploy fails mid-way instead of getting the next page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOn } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { encodeCursor } from '../../server/features/jobs/cursor';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts?.stop();
});

describe('result cursors issued before the job-bound format (review)', () => {
  it('GET /v1/jobs/{id}/results with a cursor from the previous release answers the next page', async () => {
    const owner = await ownerOn(ts, 'starter', 'cursor-upgrade');
    const key = (await owner.client.trpcMutation('apiKeys.create', { name: 'server' })).body.result.data.api_key as string;
    const created = await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ emails: ['ann@example.com'] }) });
    const { job_id } = (await created.json()) as { job_id: string };
    const oldCursor = encodeCursor({ k: 'r', id: 0 }); // shape of next_cursor before this change
    const res = await fetch(`${ts.url}/v1/jobs/${job_id}/results?cursor=${oldCursor}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status, await res.text()).toBe(200);
  });
});
