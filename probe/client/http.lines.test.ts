import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bodyLines, call, readText } from './http';

let server: http.Server | null = null;

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = null;
});

const collect = async (lines: AsyncIterable<string>): Promise<string[]> => {
  const out: string[] = [];
  for await (const l of lines) out.push(l);
  return out;
};

describe("the probe client's HTTP", () => {
  it('cuts a stream into lines however it is chunked, a character split over two chunks included', async () => {
    const text = '{"email":"zoë@example.com"}\n\n{"email":"b@example.com"}\r\n{"email":"c@example.com"}';
    const bytes = Buffer.from(text, 'utf8');
    const split = bytes.indexOf(Buffer.from('ë')) + 1; // inside the two bytes of ë
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(bytes.subarray(0, split));
      setTimeout(() => {
        res.write(bytes.subarray(split, split + 7));
        setTimeout(() => res.end(bytes.subarray(split + 7)), 5);
      }, 5);
    });
    const res = await call(`${url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"emails":["é"]}', signal: AbortSignal.timeout(5000) });
    expect(res.statusCode).toBe(200);
    expect(await collect(bodyLines(res))).toEqual(['{"email":"zoë@example.com"}', '{"email":"b@example.com"}', '{"email":"c@example.com"}']);
  });

  it('sends the body with its length in bytes', async () => {
    let received = '';
    const url = await serve((req, res) => {
      req.setEncoding('utf8');
      req.on('data', (c: string) => (received += c));
      req.on('end', () => res.end(`${req.headers['content-length']}`));
    });
    const res = await call(url, { method: 'POST', headers: {}, body: '{"emails":["zoë@example.com"]}', signal: AbortSignal.timeout(5000) });
    expect(await readText(res)).toBe(String(Buffer.byteLength('{"emails":["zoë@example.com"]}')));
    expect(received).toBe('{"emails":["zoë@example.com"]}');
  });

  it('fails the line stream when the daemon dies mid-answer, so what it owed is planned again', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"email":"a@example.com"}\n');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const res = await call(url, { method: 'POST', headers: {}, body: '{}', signal: AbortSignal.timeout(5000) });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const l of bodyLines(res)) seen.push(l);
      })(),
    ).rejects.toThrow();
    expect(seen).toEqual(['{"email":"a@example.com"}']);
  });

  it('an abort cuts a request waiting for its answer, and a stream being read, and nothing once it is over', async () => {
    let requests = 0;
    let silentArrived: () => void = () => undefined;
    const silentSeen = new Promise<void>((resolve) => (silentArrived = resolve));
    const url = await serve((req, res) => {
      requests++;
      if (req.url === '/silent') return silentArrived(); // never answers
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"n":1}\n');
      if (req.url === '/short') res.end();
    });
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown): void => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const waiting = new AbortController();
      const pending = call(`${url}/silent`, { method: 'GET', headers: {}, signal: waiting.signal });
      // Aborted once the server has it (a fixed delay let CI under load abort it before it arrived).
      void silentSeen.then(() => waiting.abort(new Error('gave up')));
      await expect(pending).rejects.toThrow('gave up');

      const reading = new AbortController();
      const res = await call(`${url}/endless`, { method: 'GET', headers: {}, signal: reading.signal });
      const seen: string[] = [];
      await expect(
        (async () => {
          for await (const l of bodyLines(res)) {
            seen.push(l);
            reading.abort();
          }
        })(),
      ).rejects.toThrow();
      expect(seen).toEqual(['{"n":1}']);

      // Aborted on its last line (a consumer that leaves with its answer), or once read to the end:
      // the kept-alive socket goes on serving the next request, and nothing is thrown.
      const onLast = new AbortController();
      const answered = await call(`${url}/short`, { method: 'GET', headers: {}, signal: onLast.signal });
      await (async () => {
        for await (const l of bodyLines(answered)) if (l) onLast.abort();
      })().catch(() => undefined);
      const late = new AbortController();
      const done = await call(`${url}/short`, { method: 'GET', headers: {}, signal: late.signal });
      for await (const l of bodyLines(done)) void l;
      late.abort();
      const again = await call(`${url}/short`, { method: 'GET', headers: {}, signal: AbortSignal.timeout(5000) });
      expect(await readText(again)).toBe('{"n":1}\n');
      await new Promise((r) => setTimeout(r, 20));
      expect(uncaught).toEqual([]);
      expect(requests).toBe(5);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('refuses a text answer over 1 MB', async () => {
    const url = await serve((_req, res) => res.end('x'.repeat(1024 * 1024 + 10)));
    const res = await call(url, { method: 'GET', headers: {}, signal: AbortSignal.timeout(5000) });
    await expect(readText(res)).rejects.toThrow('too large');
  });

  it('fails a result stream whose line runs past 16 MB without a line end (a proxy or service streaming no NDJSON would fill the web process memory), so what it owed is planned again', async () => {
    let written = 0;
    let cut = false;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const piece = 'x'.repeat(1024 * 1024);
      res.on('close', () => (cut = !res.writableFinished));
      const more = (): void => {
        while (written < 48 && !res.destroyed) {
          written++;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.end('\n');
      };
      more();
    });
    const res = await call(url, { method: 'POST', headers: {}, body: '{}', signal: AbortSignal.timeout(20_000) });
    await expect(collect(bodyLines(res))).rejects.toThrow(/line longer than/);
    await new Promise((r) => setTimeout(r, 50));
    expect(cut).toBe(true);
    expect(written).toBeLessThan(48);
  });
});
