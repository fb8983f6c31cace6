// An RDAP server the operator did not choose (where rdap.org, or a registry, redirects us) is asked
// only on public addresses: a redirect must not make a probe node fetch from inside its own network
// (cloud metadata at 169.254.169.254, an admin page on loopback). The operator's own RDAP server
// (RDAP_BASE_URL) is trusted wherever it runs, and private deployments may allow private networks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rdap } from './rdap';

const registration = JSON.stringify({ objectClassName: 'domain', events: [{ eventAction: 'registration', eventDate: '2020-01-01T00:00:00Z' }] });
let base: http.Server;
let inside: http.Server;
const insideHits: string[] = [];
let baseUrl = '';

function listen(s: http.Server): Promise<number> {
  return new Promise((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
}

beforeAll(async () => {
  inside = http.createServer((req, res) => {
    insideHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/rdap+json' });
    res.end(registration);
  });
  const insidePort = await listen(inside);
  base = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '').replace('/domain/', ''));
    const to: Record<string, string> = {
      'same-server.test': '/domain/here.test',
      'loopback-literal.test': `http://127.0.0.1:${insidePort}/domain/x.test`,
      'loopback-name.test': `http://localhost:${insidePort}/domain/x.test`,
      'metadata.test': 'http://169.254.169.254/latest/meta-data/',
      'mapped.test': `http://[::ffff:127.0.0.1]:${insidePort}/domain/x.test`,
    };
    if (name === 'here.test') {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      return void res.end(registration);
    }
    if (to[name]) {
      res.writeHead(302, { location: to[name] });
      return void res.end();
    }
    res.writeHead(404);
    res.end();
  });
  baseUrl = `http://127.0.0.1:${await listen(base)}`;
});
afterAll(async () => {
  for (const s of [base, inside]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const now = Date.parse('2025-01-01T00:00:00Z');

describe('RDAP redirects', () => {
  it('are followed on the operator\'s own server, wherever it runs', async () => {
    expect(await new Rdap({ baseUrl, now: () => now }).ageDays('same-server.test')).toBe(1827);
  });

  it('never lead a probe node to a private, loopback or link-local address elsewhere: the age is unknown and nothing inside is asked', async () => {
    const rdap = new Rdap({ baseUrl, now: () => now, timeoutMs: 3000 });
    for (const domain of ['loopback-literal.test', 'loopback-name.test', 'metadata.test', 'mapped.test']) {
      expect(await rdap.ageDays(domain), domain).toBeNull();
    }
    expect(insideHits).toEqual([]);
  });

  it('are followed anywhere where private networks are allowed (tests, private deployments)', async () => {
    const rdap = new Rdap({ baseUrl, now: () => now, allowPrivateNetworks: true });
    expect(await rdap.ageDays('loopback-literal.test')).toBe(1827);
    expect(await rdap.ageDays('loopback-name.test')).toBe(1827);
    expect(insideHits).toHaveLength(2);
  });
});
