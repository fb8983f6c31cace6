import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rdap, registrationAgeDays } from './rdap';

let server: http.Server;
let base = '';
const hits: string[] = [];
let connections = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const name = decodeURIComponent((req.url ?? '').replace('/domain/', ''));
    if (name === 'old.test' || name === 'parent.test' || name.endsWith('-many.test')) {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify({ objectClassName: 'domain', events: [{ eventAction: 'last changed', eventDate: '2024-01-01T00:00:00Z' }, { eventAction: 'registration', eventDate: '2020-01-01T00:00:00Z' }] }));
    } else if (name === 'moved.test') {
      // rdap.org answers with a redirect to the registry's own RDAP server.
      res.writeHead(302, { location: '/domain/old.test' });
      res.end();
    } else if (name === 'loop.test') {
      res.writeHead(301, { location: '/domain/loop.test' });
      res.end();
    } else if (name === 'slow.test') {
      setTimeout(() => res.end('{}'), 2000);
    } else if (name === 'broken.test') {
      res.writeHead(500);
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const now = Date.parse('2025-01-01T00:00:00Z');

describe('RDAP domain age', () => {
  it('reads the registration event', () => {
    expect(registrationAgeDays({ events: [{ eventAction: 'registration', eventDate: '2024-12-22T00:00:00Z' }] }, now)).toBe(10);
    expect(registrationAgeDays({ events: [] }, now)).toBeNull();
    expect(registrationAgeDays(null, now)).toBeNull();
    expect(registrationAgeDays({ events: [{ eventAction: 'registration', eventDate: 'garbage' }] }, now)).toBeNull();
  });

  it('asks {base}/domain/{name} and caches the answer', async () => {
    const rdap = new Rdap({ baseUrl: base, now: () => now });
    expect(await rdap.ageDays('old.test')).toBe(1827);
    const before = hits.length;
    expect(await rdap.ageDays('OLD.test')).toBe(1827);
    expect(hits.length).toBe(before);
  });

  it('follows redirects, but not forever', async () => {
    const rdap = new Rdap({ baseUrl: base, now: () => now });
    expect(await rdap.ageDays('moved.test')).toBe(1827);
    const before = hits.filter((h) => h.includes('loop.test')).length;
    expect(await rdap.ageDays('loop.test')).toBeNull();
    expect(hits.filter((h) => h.includes('loop.test')).length - before).toBe(4);
  });

  it('asks a burst of domains over a few kept-open connections, every answer right', async () => {
    const rdap = new Rdap({ baseUrl: base, now: () => now });
    const before = connections;
    const ages = await Promise.all(Array.from({ length: 120 }, (_, i) => rdap.ageDays(`d${i}-many.test`)));
    expect(ages.every((a) => a === 1827)).toBe(true);
    // One connection per domain would be 120; the RDAP server sees at most 16 at once, reused.
    expect(connections - before).toBeLessThanOrEqual(16);
  });

  it('falls back to the registrable domain for a sub-domain', async () => {
    const rdap = new Rdap({ baseUrl: base, now: () => now });
    expect(await rdap.ageDays('mail.parent.test')).toBe(1827);
  });

  it('gives null, quickly, for errors, unknown domains and slow servers', async () => {
    const rdap = new Rdap({ baseUrl: base, timeoutMs: 150, now: () => now });
    const t = Date.now();
    expect(await Promise.all([rdap.ageDays('broken.test'), rdap.ageDays('unknown.test'), rdap.ageDays('slow.test')])).toEqual([null, null, null]);
    expect(Date.now() - t).toBeLessThan(1000);
    expect(await new Rdap({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 150 }).ageDays('old.test')).toBeNull();
  });
});
