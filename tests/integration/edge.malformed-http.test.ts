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
    ['a negative Content-Length', 'POST /api/trpc/apiKeys.create HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n{}', 400],
    ['Content-Length with Transfer-Encoding', 'POST /api/jobs/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n', 400],
    ['a chunk size that is no hex', 'POST /api/jobs/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nemail\r\n0\r\n\r\n', 400],
    ['a NUL in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Thing: a\u0000b\r\n\r\n', 400],
    ['headers past the limit', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['a URL past the limit', `GET /api/trpc/account.me?input=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
  ])('%s: a 4xx with a JSON body', async (_name, bytes, status) => {
    const res = await exchange(bytes);
    expect(res.status, res.head).toBe(status);
    // Past the header limit, the refused bytes may no longer hold the request line: then nothing
    // tells the surface, and the answer is problem details that carry the dashboard's `error` too.
    expect(res.head).toMatch(status === 431 ? /content-type: application\/(?:problem\+)?json/i : /content-type: application\/json/i);
    const body = JSON.parse(res.body) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('BAD_INPUT');
    expect(body.error.message).toMatch(status === 431 ? /headers are larger than this server accepts/ : /not valid HTTP/);
  });

  it('an Expect other than 100-continue: 417 with a JSON body, and nothing runs', async () => {
    const res = await exchange('POST /api/trpc/apiKeys.create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: something-else\r\nContent-Length: 2\r\n\r\n{}');
    expect(res.status, res.head).toBe(417);
    expect(res.head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'BAD_INPUT', message: 'The Expect header asks for something this server does not do (only 100-continue).' } });
  });

  // /v1 has its own envelope (RFC 9457 problem details, as its OpenAPI document says): the edge's
  // refusals of a /v1 request were in the dashboard's, which a client written against the document
  // could not read (no code, detail or status where it looks).
  const problem = (status: number, title: string, message: string) => ({ title, status, detail: message, code: 'BAD_INPUT', message });
  const NOT_VALID = 'The request is not valid HTTP/1.1 (its request line, a header or the body framing is malformed).';
  const TOO_BIG = 'The request line and headers are larger than this server accepts.';
  it.each([
    ['a Content-Length that is no number', 'POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}', problem(400, 'Bad Request', NOT_VALID)],
    ['Content-Length with Transfer-Encoding', 'POST /v1/bulk HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n', problem(400, 'Bad Request', NOT_VALID)],
    ['a cursor past the header limit', `GET /v1/jobs?cursor=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, problem(431, 'Request Header Fields Too Large', TOO_BIG)],
    ['headers past the limit', `GET /V1/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, problem(431, 'Request Header Fields Too Large', TOO_BIG)],
    ['an absolute-form target with a broken header', 'GET http://x/v1/account HTTP/1.1\r\nHost: x\r\nX-Thing: a\u0000b\r\n\r\n', problem(400, 'Bad Request', NOT_VALID)],
    [
      'an Expect other than 100-continue',
      'POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: something-else\r\nContent-Length: 2\r\n\r\n{}',
      problem(417, 'Expectation Failed', 'The Expect header asks for something this server does not do (only 100-continue).'),
    ],
  ])('on /v1, %s: problem+json, the /v1 envelope', async (_name, bytes, body) => {
    const res = await exchange(bytes);
    expect(res.status, res.head).toBe(body.status);
    expect(res.head).toMatch(/content-type: application\/problem\+json/i);
    expect(res.head).toMatch(/^x-request-id: \S+/im);
    const got = JSON.parse(res.body) as Record<string, unknown>;
    const want = { type: `${ts.url}/documentation#error-BAD_INPUT`, ...body };
    // Past the header limit the request line may be gone from the refused bytes (see above): the problem details then carry `error` too.
    if (body.status === 431 && 'error' in got) expect(got).toEqual({ ...want, error: { code: 'BAD_INPUT', message: TOO_BIG } });
    else expect(got).toEqual(want);
  });

  // A HEAD answer has no body (RFC 9110 §9.3.2): the refusal's JSON after the head was read as the
  // start of the next answer ("Data after Connection: close" in Node's client, a desync behind a proxy).
  it.each([
    ['a raw byte in the path', 'HEAD /v1/jobs/\u00e9 HTTP/1.1\r\nHost: x\r\n\r\n', 400, /problem\+json/],
    ['a raw byte in a dashboard path', 'HEAD /dashboard\u00ff HTTP/1.1\r\nHost: x\r\n\r\n', 400, /application\/json/],
    ['a NUL in a header value', 'HEAD /v1/account HTTP/1.1\r\nHost: x\r\nX-Thing: a\u0000b\r\n\r\n', 400, /problem\+json/],
    ['a Content-Length that is no number', 'HEAD /api/trpc/account.me HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, /application\/json/],
  ])('HEAD with %s: the refusal\'s status and head, no body', async (_name, bytes, status, type) => {
    const res = await rawExchange(ts.url, Buffer.from(bytes, 'latin1'));
    expect(res.status, res.head).toBe(status);
    expect(res.head).toMatch(new RegExp(`content-type: [^\r\n]*${type.source}`, 'i'));
    expect(res.body).toBe('');
  });

  it('a request line that is no HTTP (no surface to tell): problem details that carry the dashboard envelope too', async () => {
    const res = await exchange('HELLO THERE\r\n\r\n');
    expect(res.status, res.head).toBe(400);
    expect(res.head).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(res.body)).toEqual({ type: `${ts.url}/documentation#error-BAD_INPUT`, ...problem(400, 'Bad Request', NOT_VALID), error: { code: 'BAD_INPUT', message: NOT_VALID } });
  });
});
