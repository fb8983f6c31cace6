// Regression test: the "server asked us to wait" pause (429 + Retry-After) was checked only when getText
// was called, not when a request actually left. A batch starts one lookup per domain at once; all but
// 16 waited in the keep-alive agent's queue (maxSockets 16) and were sent after the server's 429
// anyway (184 of 200), each of them refused again: the rate-limited server got the whole burst. They
// now wait in rdap.ts's own per-server queue, which checks the pause when their turn comes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rdap } from './rdap';

let server: http.Server;
let base = '';
let requests = 0;
let after429 = 0;
let first429At = 0;
/** Once set, the server answers with a domain object instead of 429. */
let recovered = false;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    requests++;
    if (recovered) {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify({ events: [{ eventAction: 'registration', eventDate: '2020-01-01T00:00:00Z' }] }));
      return;
    }
    if (first429At > 0) after429++;
    setTimeout(() => {
      if (first429At === 0) first429At = Date.now();
      res.writeHead(429, { 'retry-after': '60', 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify({ errorCode: 429, title: 'Too Many Requests' }));
    }, 20);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('RDAP 429 under a batch', () => {
  it('stops asking a server once it said 429 + Retry-After: 60 (no more than the requests already on the wire)', async () => {
    let now = Date.now();
    const rdap = new Rdap({ baseUrl: base, timeoutMs: 1500, now: () => now });
    const domains = Array.from({ length: 200 }, (_, i) => `shop${i}.test`);
    const ages = await Promise.all(domains.map((d) => rdap.ageDays(d)));
    expect(ages.every((a) => a === null)).toBe(true);
    // 16 sockets: at most 16 requests were already sent when the first 429 came back.
    // Requests reaching the server after it had answered 429 (a race of a few is tolerated).
    expect(after429).toBeLessThanOrEqual(16);
    expect(requests).toBeLessThanOrEqual(32);

    // The lookups refused while paused were "no age for now", not a miss kept for an hour: once the
    // Retry-After has passed, the server is asked again.
    recovered = true;
    now += 61_000;
    expect(await rdap.ageDays('shop199.test')).toBeGreaterThan(0);
  });
});
