// A body of zero bytes is no body, however it is framed: "Content-Length: 0", "Content-Length: 00",
// or "Transfer-Encoding: chunked" with only the last chunk (what an HTTP client streaming an empty
// body sends). The routes that take no body (POST /v1/jobs/{id}/cancel, better-auth's sign-out, a
// tRPC mutation without input) answered the chunked spelling with a 415 or "not valid JSON".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, type RawAnswer } from '../helpers/raw-http';
import { signUpVerified, startTestServer, type Browserless, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Browserless;
let apiKey: string;

beforeAll(async () => {
  ts = await startTestServer();
  owner = await signUpVerified(ts, { email: 'edge-empty@example.com' });
  const accountId = (await owner.trpcQuery('account.me')).body.result.data.accountId as string;
  await ts.testDb.db.updateTable('account').set({ plan: 'enterprise', credits_balance: 100 }).where('id', '=', accountId).execute();
  apiKey = (await owner.trpcMutation('apiKeys.create', { name: 'empty' })).body.result.data.api_key as string;
});
afterAll(async () => {
  await ts?.stop();
});

const cookieOf = (c: Browserless) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** One request on its own connection (`Host` and `Connection: close` added), answered in full. */
function exchange(head: string, body = ''): Promise<RawAnswer> {
  return rawExchange(ts.url, `${head}Host: ${new URL(ts.url).host}\r\nConnection: close\r\n\r\n${body}`);
}

const EMPTY_FRAMINGS: Array<[string, string, string]> = [
  ['chunked, only the last chunk', 'Transfer-Encoding: chunked\r\n', '0\r\n\r\n'],
  ['Content-Length: 00', 'Content-Length: 00\r\n', ''],
];

async function newJob(): Promise<string> {
  const res = await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: '{"emails":["someone@example.com"]}' });
  return ((await res.json()) as { job_id: string }).job_id;
}

describe('an empty body is no body', () => {
  it.each(EMPTY_FRAMINGS)('POST /v1/jobs/{id}/cancel, %s, no Content-Type: cancelled (200)', async (_name, framing, body) => {
    const id = await newJob();
    const res = await exchange(`POST /v1/jobs/${id}/cancel HTTP/1.1\r\nAuthorization: Bearer ${apiKey}\r\n${framing}`, body);
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ job: { job_id: id, status: 'cancelled' } });
  });

  it.each(EMPTY_FRAMINGS)('POST /api/auth/sign-out, %s: signed out (200)', async (_name, framing, body) => {
    const client = await signUpVerified(ts, { email: `edge-empty-out-${framing.length}@example.com` });
    const res = await exchange(`POST /api/auth/sign-out HTTP/1.1\r\nOrigin: ${ts.url}\r\nCookie: ${cookieOf(client)}\r\nContent-Type: application/json\r\n${framing}`, body);
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ success: true });
  });

  it.each(EMPTY_FRAMINGS)('a tRPC mutation without input, %s: answered (200)', async (_name, framing, body) => {
    const res = await exchange(`POST /api/trpc/webhooks.rotateSecret HTTP/1.1\r\nOrigin: ${ts.url}\r\nCookie: ${cookieOf(owner)}\r\nContent-Type: application/json\r\n${framing}`, body);
    expect(res.status, res.body).toBe(200);
  });

  it('a chunked body that is not empty is still read and checked: JSON works, another media type is a 415', async () => {
    const id = await newJob();
    const json = '{}';
    const ok = await exchange(`POST /v1/jobs/${id}/cancel HTTP/1.1\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n`, `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`);
    expect(ok.status, ok.body).toBe(200);
    const text = 'hello';
    const refused = await exchange(`POST /v1/jobs/${id}/cancel HTTP/1.1\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n`, `${text.length.toString(16)}\r\n${text}\r\n0\r\n\r\n`);
    expect(refused.status, refused.body).toBe(415);
    const noType = await exchange(`POST /v1/jobs/${id}/cancel HTTP/1.1\r\nAuthorization: Bearer ${apiKey}\r\nTransfer-Encoding: chunked\r\n`, `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`);
    expect(noType.status, noType.body).toBe(415);
  });
});
