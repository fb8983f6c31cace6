// A request body sent with a transfer coding other than chunked ("Transfer-Encoding: gzip, chunked").
// Node's parser undoes only the chunked framing: the gzip reached the routes still on, and was read
// as the body itself — a 400 for bytes that are no JSON, or, for JSON sent under that header, a job
// started from a body the client said was coded. RFC 9112 §6.1: a coding the server does not
// understand is a 501. Each surface answers it in its own envelope, before its route reads anything,
// and the connection closes.
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownerOn } from '../helpers/accounts';
import { rawExchange } from '../helpers/raw-http';
import { testServer } from '../helpers/test-server';

const ts = testServer();

/** A head (ending in the blank line) and a body sent as one chunk, byte for byte. */
const request = (head: string, body: Buffer | string): Buffer => {
  const b = Buffer.from(body);
  return Buffer.concat([Buffer.from(head), Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n0\r\n\r\n')]);
};

describe('a transfer coding the server does not implement', () => {
  let key = '';
  let cookie = '';
  let accountId = '';
  const host = () => new URL(ts.url).host;
  const jobs = async () => (await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', accountId).execute()).length;
  beforeAll(async () => {
    const owner = await ownerOn(ts, 'pro', 'te');
    accountId = owner.accountId;
    key = (await owner.client.trpcMutation('apiKeys.create', { name: 'te' })).body.result.data.api_key as string;
    cookie = [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  });

  const MESSAGE = /^The request body's Transfer-Encoding \(gzip\) is not supported: send it with Transfer-Encoding: chunked alone/;

  it.each(['gzip, chunked', 'GZIP,chunked', 'gzip;q=1 , chunked'])('/v1/bulk with "%s": 501 problem+json, no job started, connection closed', async (te) => {
    const json = JSON.stringify({ emails: ['someone@example.com'] });
    for (const body of [json, gzipSync(json)]) {
      const res = await rawExchange(ts.url, request(`POST /v1/bulk HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: ${te}\r\n\r\n`, body));
      expect(res.status, res.head).toBe(501);
      expect(res.head).toMatch(/content-type: application\/problem\+json/i);
      expect(res.head).toMatch(/connection: close/i);
      const problem = JSON.parse(res.body) as Record<string, unknown>;
      expect(problem).toMatchObject({ status: 501, title: 'Not Implemented', code: 'NOT_IMPLEMENTED' });
      expect(problem.message).toMatch(MESSAGE);
      expect(problem.detail).toBe(problem.message);
    }
    expect(await jobs()).toBe(0);
  });

  it('/v1/validate: 501 problem+json', async () => {
    const res = await rawExchange(ts.url, request(`POST /v1/validate HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: identity, chunked\r\n\r\n`, '{"email":"a@example.com"}'));
    expect(res.status, res.head).toBe(501);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'NOT_IMPLEMENTED', message: expect.stringContaining('(identity)') });
  });

  it('the dashboard API: 501 in the tRPC envelope; the CSV upload and sign-in in their own; nothing is done', async () => {
    const trpc = await rawExchange(ts.url, request(`POST /api/trpc/account.profile.update HTTP/1.1\r\nHost: ${host()}\r\nCookie: ${cookie}\r\nOrigin: ${ts.url}\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n`, gzipSync(JSON.stringify({ full_name: 'Zipped', company_name: '' }))));
    expect(trpc.status, trpc.head).toBe(501);
    expect(JSON.parse(trpc.body)).toMatchObject({ error: { message: expect.stringMatching(MESSAGE), data: { code: 'NOT_IMPLEMENTED', httpStatus: 501, appCode: 'NOT_IMPLEMENTED' } } });

    const upload = await rawExchange(ts.url, request(`POST /api/jobs/upload?filename=list.csv HTTP/1.1\r\nHost: ${host()}\r\nCookie: ${cookie}\r\nOrigin: ${ts.url}\r\nContent-Type: text/csv\r\nTransfer-Encoding: gzip, chunked\r\n\r\n`, gzipSync('email\nsomeone@example.com\n')));
    expect(upload.status, upload.head).toBe(501);
    expect(JSON.parse(upload.body)).toEqual({ error: { code: 'NOT_IMPLEMENTED', message: expect.stringMatching(MESSAGE) } });
    expect(await jobs()).toBe(0);

    const signIn = await rawExchange(ts.url, request(`POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${ts.url}\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n`, gzipSync('{"email":"x@example.com","password":"secret123"}')));
    expect(signIn.status, signIn.head).toBe(501);
    expect(JSON.parse(signIn.body)).toEqual({ code: 'NOT_IMPLEMENTED', message: expect.stringMatching(MESSAGE) });
  });

  it('chunked alone is read as before', async () => {
    const before = await jobs();
    const res = await rawExchange(ts.url, request(`POST /v1/bulk HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`, JSON.stringify({ emails: ['someone@example.com'] })));
    expect(res.status, res.body).toBe(200);
    expect(await jobs()).toBe(before + 1);
  });
});
