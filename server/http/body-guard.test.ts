// The body guard on its own, in a bare Express app: the raw-bytes reader (CSV uploads, signed
// webhooks) and the hand-off of media types a route parses itself (multipart on a bulk route).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import { jsonBodyGuard, jsonDeeperThan, rawBodyGuard } from './body-guard';
import { httpError } from './send-error';

const reply = (res: express.Response, err: AppError) => {
  const { status, body } = httpError(err);
  res.status(status).json(body);
};

let server: http.Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.post('/raw', rawBodyGuard({ limit: 1000, reply }), (req, res) => {
    res.json({ bytes: (req.body as Buffer).byteLength });
  });
  app.post(
    '/json',
    jsonBodyGuard({
      limit: () => 1000,
      deliver: 'json',
      reply,
      streamed: (_req, type) => (type === 'multipart/form-data' ? { limit: 5000, envelope: 100, tooLarge: () => new AppError('PAYLOAD_TOO_LARGE', 'The file is over 5000 bytes.') } : null),
    }),
    (req, res) => {
      // A streamed type arrives unread, with its limit; JSON arrives parsed.
      if (res.locals.bodyLimit !== undefined) {
        let n = 0;
        req.on('data', (c: Buffer) => (n += c.length));
        req.on('end', () => res.json({ streamed: n, limit: res.locals.bodyLimit as number }));
        return;
      }
      res.json({ parsed: req.body as unknown });
    },
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

async function post(path: string, body: Buffer | string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('rawBodyGuard', () => {
  it('hands the exact bytes to the route within the limit', async () => {
    expect(await post('/raw', Buffer.from([0, 0xff, 0xfe, 0x41]))).toEqual({ status: 200, body: { bytes: 4 } });
    expect(await post('/raw', '')).toEqual({ status: 200, body: { bytes: 0 } });
  });

  it('refuses a body past its limit with 413, and a gzip bomb is measured after inflating', async () => {
    const over = await post('/raw', Buffer.alloc(1001, 0x61));
    expect(over.status).toBe(413);
    expect(over.body.message).toMatch(/larger than this endpoint accepts/);
    const bomb = zlib.gzipSync(Buffer.alloc(1_000_000, 0x61)); // ~1 KB on the wire
    expect(bomb.byteLength).toBeLessThan(2000);
    expect((await post('/raw', bomb, { 'content-encoding': 'gzip' })).status).toBe(413);
  });

  it('refuses an unknown Content-Encoding with 415 and a broken gzip stream with 400', async () => {
    const unknown = await post('/raw', 'abc', { 'content-encoding': 'x-bogus' });
    expect(unknown.status).toBe(415);
    expect(unknown.body.message).toMatch(/Content-Encoding/);
    expect((await post('/raw', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]), { 'content-encoding': 'gzip' })).status).toBe(400);
  });
});

describe('jsonBodyGuard: media types a route parses itself', () => {
  it('hands multipart on unread with the route limit, and refuses a declared length past it and its envelope', async () => {
    const ok = await post('/json', 'x'.repeat(3000), { 'content-type': 'multipart/form-data; boundary=x' });
    expect(ok).toEqual({ status: 200, body: { streamed: 3000, limit: 5000 } });
    // Content of exactly the limit still fits with its framing: the route's parser decides.
    expect(await post('/json', 'x'.repeat(5100), { 'content-type': 'multipart/form-data; boundary=x' })).toEqual({ status: 200, body: { streamed: 5100, limit: 5000 } });
    const over = await post('/json', 'x'.repeat(5101), { 'content-type': 'multipart/form-data; boundary=x' });
    expect(over).toEqual({ status: 413, body: expect.objectContaining({ message: 'The file is over 5000 bytes.' }) });
  });

  it('still holds JSON to its own rules and refuses every other type with 415', async () => {
    expect(await post('/json', '{"a":[1]}', { 'content-type': 'application/json' })).toEqual({ status: 200, body: { parsed: { a: [1] } } });
    expect((await post('/json', 'x'.repeat(3000), { 'content-type': 'application/json' })).status).toBe(413);
    expect((await post('/json', 'a,b', { 'content-type': 'text/csv' })).status).toBe(415);
  });
});

describe('jsonDeeperThan', () => {
  it('counts brackets outside strings only, escapes included', () => {
    expect(jsonDeeperThan('[[["x"]]]', 3)).toBe(false);
    expect(jsonDeeperThan('[[[["x"]]]]', 3)).toBe(true);
    expect(jsonDeeperThan(`["${'['.repeat(100)}"]`, 3)).toBe(false);
    expect(jsonDeeperThan(`["\\"${'['.repeat(100)}"]`, 3)).toBe(false);
    expect(jsonDeeperThan(`["\\\\",${'['.repeat(5)}]`, 3)).toBe(true);
  });
});
