// More /v1 answers held to the OpenAPI document (rest-v1.openapi-conformance.test.ts has the ordinary
// and refused JSON calls): the bulk routes' multipart CSV (accepted, a file with no address, one over
// 10 MB), a live key without credits (402), one whose account fell to Free (403 PLAN_REQUIRED), the
// verification service down (503), the CSV results page with its X-Next-Cursor, and the HTTP edge's
// own refusals (a Transfer-Encoding other than chunked, an Expect other than 100-continue).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOn, setPlan } from '../helpers/accounts';
import { responseProblems } from '../helpers/openapi-webhooks';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts?.stop();
});

async function answer(res: Response) {
  return { status: res.status, contentType: res.headers.get('content-type'), headers: res.headers, body: await res.text() };
}

function form(csv: string | Blob, name = 'list.csv'): FormData {
  const f = new FormData();
  f.append('file', typeof csv === 'string' ? new Blob([csv], { type: 'text/csv' }) : csv, name);
  return f;
}

/** One raw HTTP/1.1 exchange (what fetch will not send); returns the status, headers and body. */
function raw(request: string): Promise<{ status: number; contentType: string | null; headers: Headers; body: string }> {
  const { port } = new URL(ts.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
    let data = '';
    socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Headers(lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
      let body = rest.join('\r\n\r\n');
      if (headers.get('transfer-encoding') === 'chunked') body = body.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '');
      resolve({ status: Number(statusLine.split(' ')[1]), contentType: headers.get('content-type'), headers, body });
    });
  });
}

describe('the OpenAPI document of /v1 describes these answers too', () => {
  it('multipart CSV uploads, credits, plan, the verification service and the CSV results page', async () => {
    const owner = await ownerOn(ts, 'pro', 'oa-more');
    const key = async (input: Record<string, unknown>) => (await owner.client.trpcMutation('apiKeys.create', { name: 'k', ...input })).body.result.data.api_key as string;
    const test = await key({ test: true });
    const live = await key({});
    const auth = (k: string) => ({ authorization: `Bearer ${k}` });
    const problems: string[] = [];
    const seen: string[] = [];
    const check = async (method: string, template: string, res: Response) => {
      const a = await answer(res);
      seen.push(`${template} ${a.status}`);
      problems.push(...responseProblems(method, template, a));
      return a;
    };

    for (const template of ['/bulk', '/bulk-validate']) {
      const ok = await check('POST', template, await fetch(`${ts.url}/v1${template}`, { method: 'POST', headers: auth(test), body: form('email\nvalid@sandbox.mailvet.dev\ninvalid@sandbox.mailvet.dev\n') }));
      expect(ok.status, ok.body).toBe(200);
      await check('POST', template, await fetch(`${ts.url}/v1${template}`, { method: 'POST', headers: auth(test), body: form('email\n') }));
      await check('POST', template, await fetch(`${ts.url}/v1${template}`, { method: 'POST', headers: auth(test), body: form(new Blob([`email\n${'a@example.com\n'.repeat(900_000)}`], { type: 'text/csv' })) }));
    }
    const job = JSON.parse((await answer(await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { ...auth(test), 'content-type': 'application/json' }, body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev', 'invalid@sandbox.mailvet.dev'] }) }))).body) as { job_id: string };
    // A server without workers: nothing is done yet, so a page of one CSV row waits for the rest.
    await check('GET', '/jobs/{id}/results', await fetch(`${ts.url}/v1/jobs/${job.job_id}/results?format=csv&limit=1`, { headers: auth(test) }));

    // The verification service is down (this server has no probe): 503.
    await check('POST', '/validate', await fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { ...auth(live), 'content-type': 'application/json' }, body: JSON.stringify({ email: 'jane@example.com' }) }));
    // No credits left: 402 on a live key.
    await ts.testDb.db.updateTable('account').set({ credits_balance: 0 }).where('id', '=', owner.accountId).execute();
    await check('POST', '/validate', await fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { ...auth(live), 'content-type': 'application/json' }, body: JSON.stringify({ email: 'jane@example.com' }) }));
    await check('POST', '/bulk', await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { ...auth(live), 'content-type': 'application/json' }, body: JSON.stringify({ emails: ['jane@example.com'] }) }));
    // The account fell to Free: API access is a paid feature, 403 PLAN_REQUIRED.
    await setPlan(ts, owner.accountId, 'free');
    await check('GET', '/account', await fetch(`${ts.url}/v1/account`, { headers: auth(live) }));
    await check('GET', '/jobs', await fetch(`${ts.url}/v1/jobs`, { headers: auth(live) }));

    // The HTTP edge: 501 (Transfer-Encoding other than chunked) and 417 (Expect other than 100-continue).
    const host = new URL(ts.url).host;
    const a501 = await raw(`POST /v1/validate HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${test}\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`);
    seen.push(`/validate ${a501.status}`);
    problems.push(...responseProblems('POST', '/validate', a501));
    const a417 = await raw(`POST /v1/validate HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${test}\r\nContent-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    seen.push(`/validate ${a417.status}`);
    problems.push(...responseProblems('POST', '/validate', a417));

    expect(problems.join('\n')).toBe('');
    expect(seen).toEqual([
      '/bulk 200', '/bulk 400', '/bulk 413',
      '/bulk-validate 200', '/bulk-validate 400', '/bulk-validate 413',
      '/jobs/{id}/results 200',
      '/validate 503', '/validate 402', '/bulk 402',
      '/account 403', '/jobs 403',
      '/validate 501', '/validate 417',
    ]);
  });
});
