// A query parameter sent twice (?result=valid&result=invalid, a common way to ask for several values)
// reached zod as a list and answered with zod's own words, 'result: Invalid input: expected string,
// received array'; the 400 now says how to send it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFinishedJob } from '../helpers/jobs';
import { signUpVerified, startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let key: string;
let jobId: string;

beforeAll(async () => {
  ts = await startTestServer();
  const c = await signUpVerified(ts, { email: 'v1-query-params@example.com' });
  const accountId = (await c.trpcQuery('account.me')).body.result.data.accountId as string;
  await ts.testDb.db.updateTable('account').set({ plan: 'enterprise' }).where('id', '=', accountId).execute();
  key = (await c.trpcMutation('apiKeys.create', { name: 'q' })).body.result.data.api_key as string;
  jobId = await insertFinishedJob(ts.testDb.db, accountId);
});
afterAll(async () => {
  await ts?.stop();
});

const get = async (path: string) => {
  const res = await fetch(`${ts.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as { code: string; message: string } };
};

describe('/v1 query parameters given twice', () => {
  it.each([
    ['results', 'result=valid&result=invalid', 'result: result must be given once, as a comma-separated list (result=invalid,risky).'],
    ['results', 'reason=syntax&reason=no_mx', 'reason: reason must be given once, as a comma-separated list (reason=mailbox_not_found,catch_all).'],
    ['results', 'cursor=a&cursor=b', 'cursor: cursor must be given once: pass next_cursor from the previous page.'],
    ['jobs', 'cursor=a&cursor=b', 'cursor: cursor must be given once: pass next_cursor from the previous page.'],
  ])('%s ?%s: a 400 saying how to send it', async (route, query, message) => {
    const res = await get(route === 'jobs' ? `/v1/jobs?${query}` : `/v1/jobs/${jobId}/results?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_INPUT', message });
  });

  it('one comma-separated value still filters', async () => {
    expect((await get(`/v1/jobs/${jobId}/results?result=valid,invalid&reason=syntax,no_mx`)).status).toBe(200);
  });
});
