// A CSV upload as multipart/form-data that ends in the middle of its file part (a client cut off, or
// one sending a form without its closing boundary): a 400, and the web server goes on serving. The
// file part's stream reported the cut as an 'error' nobody listened to: an uncaught exception that
// ended the web process (any key with the bulk scope could take the API down with one request).
import { beforeAll, describe, expect, it } from 'vitest';
import { ownerOn, type Person } from '../helpers/accounts';
import { rawExchange } from '../helpers/raw-http';
import { testServer } from '../helpers/test-server';

const ts = testServer();
let key = '';
let owner: Person;
beforeAll(async () => {
  owner = await ownerOn(ts, 'pro', 'multipart-cut');
  key = (await owner.client.trpcMutation('apiKeys.create', { name: 'bulk' })).body.result.data.api_key as string;
});

const upload = (body: string) =>
  rawExchange(
    ts.url,
    `POST /v1/bulk HTTP/1.1\r\nHost: ${new URL(ts.url).host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );

describe('a multipart CSV cut short', () => {
  it.each([
    ['inside the file part', '--XX\r\nContent-Disposition: form-data; name="file"; filename="list.csv"\r\nContent-Type: text/csv\r\n\r\nemail\r\na@example.com\r\n'],
    ['inside a field', '--XX\r\nContent-Disposition: form-data; name="webhook_url"\r\n\r\nhttps://exa'],
    ['inside the part headers', '--XX\r\nContent-Disposition: form-data; name="file"; filena'],
  ])('%s: 400, and the server still answers', async (_name, body) => {
    const res = await upload(body);
    expect(res.status, res.body).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'BAD_INPUT' });
    await new Promise((r) => setTimeout(r, 100));
    expect((await fetch(`${ts.url}/healthz`)).status).toBe(200);
  });
});

describe('a file name that draws itself in another order', () => {
  // U+202E RIGHT-TO-LEFT OVERRIDE: 'invoices\u202Evsc.exe' is shown in History as 'invoicesexe.csv'.
  const names = ['invoices\u202Evsc.exe', 'list\u2067.csv', 'list\u200F.csv'];

  it.each(names)('%j is refused on the /v1 multipart upload, and no job is made', async (name) => {
    const body = `--XX\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent(name)}\r\nContent-Type: text/csv\r\n\r\nemail\r\na@example.com\r\n--XX--\r\n`;
    const res = await upload(body);
    expect(res.status, res.body).toBe(400);
    expect(JSON.parse(res.body).detail).toMatch(/file name cannot contain control characters/);
    expect(await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', owner.accountId).execute()).toEqual([]);
  });

  it.each(names)('%j is refused on the dashboard upload', async (name) => {
    const cookie = [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${ts.url}/api/jobs/upload?filename=${encodeURIComponent(name)}`, { method: 'POST', headers: { cookie, origin: ts.url, 'content-type': 'text/csv' }, body: 'email\na@example.com\n' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/file name cannot contain control characters/);
  });
});
