// Requests Node's HTTP parser refuses before any route sees them (a Content-Length that is no
// number, a header block past the limit, a broken chunk size, a request line that is no HTTP):
// a 4xx with a JSON body in the dashboard envelope, not a bare status line and an empty body.
import { describe, expect, it } from 'vitest';
import { rawExchange, type RawAnswer } from '../helpers/raw-http';
import { testServer } from '../helpers/test-server';

const ts = testServer();

const exchange = (bytes: string): Promise<RawAnswer> => rawExchange(ts.url, bytes);

describe('malformed HTTP', () => {
  it.each([
    ['a Content-Length that is no number', 'POST /api/trpc/apiKeys.create HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}', 400],
    ['a negative Content-Length', 'POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n{}', 400],
    ['Content-Length with Transfer-Encoding', 'POST /v1/bulk HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n', 400],
    ['a chunk size that is no hex', 'POST /api/jobs/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nemail\r\n0\r\n\r\n', 400],
    ['a request line that is no HTTP', 'HELLO THERE\r\n\r\n', 400],
    ['a NUL in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Thing: a\u0000b\r\n\r\n', 400],
    ['headers past the limit', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['a URL past the limit', `GET /api/trpc/account.me?input=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
  ])('%s: a 4xx with a JSON body', async (_name, bytes, status) => {
    const res = await exchange(bytes);
    expect(res.status, res.head).toBe(status);
    expect(res.head).toMatch(/content-type: application\/json/i);
    const body = JSON.parse(res.body) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('BAD_INPUT');
    expect(body.error.message).toMatch(status === 431 ? /headers are larger than this server accepts/ : /not valid HTTP/);
  });

  it('an Expect other than 100-continue: 417 with a JSON body, and nothing runs', async () => {
    const res = await exchange('POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: something-else\r\nContent-Length: 2\r\n\r\n{}');
    expect(res.status, res.head).toBe(417);
    expect(res.head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'BAD_INPUT', message: 'The Expect header asks for something this server does not do (only 100-continue).' } });
  });
});
