// Regression test: an RDAP server's 429 (rate limit, Retry-After) is a "not now", not a fact about the domain.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rdap } from './rdap';

let server: http.Server;
let base = '';
let limited = true;
const now = Date.parse('2025-01-01T00:00:00Z');

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    if (limited) {
      limited = false; // one burst refused, then the window reopens
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify({ errorCode: 429, title: 'Too Many Requests' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/rdap+json' });
    res.end(JSON.stringify({ objectClassName: 'domain', events: [{ eventAction: 'registration', eventDate: '2024-12-29T00:00:00Z' }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('RDAP rate limit', () => {
  it('asks again once Retry-After has passed instead of remembering "no age" for an hour', async () => {
    let clock = now;
    const rdap = new Rdap({ baseUrl: base, timeoutMs: 1000, now: () => clock });
    expect(await rdap.ageDays('fresh-shop.test')).toBeNull(); // rate-limited: unknown for now
    clock += 5_000; // well past Retry-After: 1
    await new Promise((r) => setTimeout(r, 1100));
    expect(await rdap.ageDays('fresh-shop.test')).toBe(3); // a 3-day-old domain (−20 on the score)
  });
});
