// Regression tests: RDAP domain age for addresses on a sub-domain of a name registered under a
// multi-label public suffix (co.uk, com.au, com.br …).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rdap } from './rdap';

let server: http.Server;
let base = '';
const asked: string[] = [];
const now = Date.parse('2025-01-01T00:00:00Z');

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '').replace('/domain/', ''));
    asked.push(name);
    // The registry knows registered names only: acme.co.uk (5 days old), shop.com.au (10 days old).
    const registered: Record<string, string> = { 'acme.co.uk': '2024-12-27T00:00:00Z', 'shop.com.au': '2024-12-22T00:00:00Z' };
    const at = registered[name];
    if (!at) {
      res.writeHead(404, { 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify({ errorCode: 404, title: 'Not Found' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/rdap+json' });
    res.end(JSON.stringify({ objectClassName: 'domain', ldhName: name, events: [{ eventAction: 'registration', eventDate: at }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('RDAP age of a sub-domain', () => {
  it('falls back to the registered domain, not to the public suffix, under co.uk / com.au', async () => {
    const rdap = new Rdap({ baseUrl: base, timeoutMs: 1000, now: () => now });
    expect(await rdap.ageDays('mail.acme.co.uk')).toBe(5);
    expect(await rdap.ageDays('staff.shop.com.au')).toBe(10);
    expect(asked).not.toContain('co.uk');
  });
});
