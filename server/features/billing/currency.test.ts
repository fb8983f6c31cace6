// The caller's country from GEO_URL, as an anonymous visitor can drive it: GET /api/public-config
// asks the geolocation service about every new caller. One host rotating through its addresses (an
// IPv6 /64 alone holds 2^64) must not spend the service's quota, nor push real visitors out of the cache.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearGeoCache, countryOfIp, geoNetwork, GEO_LOOKUPS_PER_MINUTE } from './currency';

let server: http.Server;
let template = '';
const asked: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const ip = decodeURIComponent((req.url ?? '').split('/')[1] ?? '');
    asked.push(ip);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ country_code: ip.startsWith('2405:') || ip.startsWith('49.') ? 'IN' : 'DE' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  template = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{ip}/json`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  clearGeoCache();
  asked.length = 0;
});

const v6 = (prefix: string, n: number): string => `${prefix}:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}:1:2:3`;

describe('countryOfIp', () => {
  it('places a caller by its network: addresses of one IPv6 /48 or one IPv4 /24 cost one lookup', async () => {
    for (let i = 0; i < 200; i++) expect(await countryOfIp(template, v6('2405:201:f00d', i))).toBe('IN');
    for (let i = 1; i < 100; i++) expect(await countryOfIp(template, `49.36.12.${i}`)).toBe('IN');
    expect(asked).toHaveLength(2);
    expect(await countryOfIp(template, '2a00:1450:4001::1')).toBe('DE');
    expect(asked).toHaveLength(3);
  });

  it(`asks the service at most ${GEO_LOOKUPS_PER_MINUTE} times a minute; beyond that a caller is unplaced (USD) and asked about later`, async () => {
    const answers: (string | null)[] = [];
    for (let i = 0; i < GEO_LOOKUPS_PER_MINUTE + 40; i++) answers.push(await countryOfIp(template, `2405:${(i + 1).toString(16)}::1`));
    expect(asked).toHaveLength(GEO_LOOKUPS_PER_MINUTE);
    expect(answers.slice(0, GEO_LOOKUPS_PER_MINUTE).every((c) => c === 'IN')).toBe(true);
    expect(answers.slice(GEO_LOOKUPS_PER_MINUTE).every((c) => c === null)).toBe(true);
  });

  it('a flood of new networks does not push an already placed visitor out of the cache', async () => {
    expect(await countryOfIp(template, '49.36.12.7')).toBe('IN');
    for (let i = 0; i < GEO_LOOKUPS_PER_MINUTE + 40; i++) await countryOfIp(template, `2001:db8:${i.toString(16)}::1`);
    const before = asked.length;
    expect(await countryOfIp(template, '49.36.12.200')).toBe('IN');
    expect(asked).toHaveLength(before);
  });
});

describe('countryOfIp and redirects', () => {
  it('never follows a redirect from the geolocation service (it could point inside: 169.254.169.254, localhost): unplaced, USD', async () => {
    const inside: string[] = [];
    const metadata = http.createServer((req, res) => {
      inside.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ country_code: 'IN' }));
    });
    await new Promise<void>((r) => metadata.listen(0, '127.0.0.1', () => r()));
    const redirector = http.createServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${(metadata.address() as AddressInfo).port}/latest/meta-data/` }).end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', () => r()));
    try {
      expect(await countryOfIp(`http://127.0.0.1:${(redirector.address() as AddressInfo).port}/{ip}/json`, '49.36.12.7')).toBeNull();
      expect(inside).toEqual([]);
    } finally {
      await Promise.all([metadata, redirector].map((x) => new Promise<void>((r) => x.close(() => r()))));
    }
  });
});

describe('geoNetwork', () => {
  it('is the /24 of an IPv4 address and the /48 of an IPv6 one, however the address is written', () => {
    expect(geoNetwork('49.36.12.7')).toBe('49.36.12.0/24');
    expect(geoNetwork('::ffff:49.36.12.7')).toBe('49.36.12.0/24');
    expect(geoNetwork('2405:201:f00d:1:2:3:4:5')).toBe('2405:201:f00d::/48');
    expect(geoNetwork('2405:0201:F00D::')).toBe('2405:201:f00d::/48');
    expect(geoNetwork('2405::1')).toBe('2405:0:0::/48');
    expect(geoNetwork('64:ff9b::49.36.12.7')).toBe('64:ff9b:0::/48');
    expect(geoNetwork('not an ip')).toBeNull();
  });
});
