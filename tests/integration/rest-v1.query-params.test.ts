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

// limit was read as JavaScript's Number() reads text (z.coerce): limit=0x10 asked for 16 rows, 1e1
// for 10, " 10", "+10" and "10.0" for 10, and an empty limit= for 0. Only plain decimal digits are a number here.
describe('/v1 limit: plain decimal digits only', () => {
  const DIGITS = 'limit: limit must be a whole number written with the digits 0-9 only (e.g. limit=50).';
  it.each([
    ['0x10', DIGITS],
    ['1e1', DIGITS],
    ['%2010', DIGITS], // " 10"
    ['10%20', DIGITS], // "10 "
    ['%2B10', DIGITS], // "+10"
    ['-1', DIGITS],
    ['10.0', DIGITS],
    ['1_0', DIGITS],
    ['0b11', DIGITS],
    ['Infinity', DIGITS],
    ['%D9%A3', DIGITS], // an Arabic-Indic three
    ['1&limit=2', 'limit: limit must be given once, as a whole number (e.g. limit=50).'],
    ['0', 'limit: limit must be at least 1.'],
    ['101', 'limit: limit can be at most 100.'],
    ['99999999999999999999', 'limit: limit can be at most 100.'],
  ])('GET /v1/jobs?limit=%s: a 400 naming limit', async (value, message) => {
    const res = await get(`/v1/jobs?limit=${value}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_INPUT', message });
  });

  it.each(['0x2', '2e0', '%2B2'])('GET /v1/jobs/{id}/results?limit=%s: a 400 naming limit', async (value) => {
    const res = await get(`/v1/jobs/${jobId}/results?limit=${value}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_INPUT', message: DIGITS });
  });

  it('digits are decimal, leading zeros included: limit=01 is one, limit=010 ten', async () => {
    const accountId = (await ts.testDb.db.selectFrom('validation_job').select('account_id').where('id', '=', jobId).executeTakeFirstOrThrow()).account_id;
    await insertFinishedJob(ts.testDb.db, accountId);
    const page = async (limit: string) => (await (await fetch(`${ts.url}/v1/jobs?limit=${limit}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { jobs: unknown[]; next_cursor: string | null };
    const one = await page('01');
    expect(one.jobs).toHaveLength(1);
    expect(one.next_cursor).not.toBeNull();
    expect((await page('010')).jobs).toHaveLength(2);
  });
});
