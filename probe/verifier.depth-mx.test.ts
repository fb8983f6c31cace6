// at depth 'mx' the domain age (RDAP) now gets only HINT_GRACE_MS (300 ms) after the DNS
// answer. RDAP through rdap.org (a redirect, then the registry) commonly takes 0.4–1.5 s, so the
// first check of a domain goes out without its age and the next one (RDAP answer cached meanwhile)
// with it: the same address, asked twice a second apart, gets two different scores. At depth 'mx'
// the age and the DNSBL listing are all the score has to go on; they used to be waited for in full.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { loopbackOptions } from './testing/loopback-options';

let dns: FakeDns;
let rdap: http.Server;
let base = '';

beforeAll(async () => {
  dns = await startFakeDns({
    'young-shop.test': { mx: [[10, 'mx.young-shop.test']] },
    'mx.young-shop.test': { a: ['127.0.0.1'] },
  });
  rdap = http.createServer((_req, res) => {
    // A registry behind rdap.org: answers in 600 ms. The domain was registered 10 days ago.
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify({ events: [{ eventAction: 'registration', eventDate: new Date(Date.now() - 10 * 86_400_000).toISOString() }] }));
    }, 600);
  });
  await new Promise<void>((r) => rdap.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(rdap.address() as AddressInfo).port}`;
});
afterAll(async () => {
  rdap.closeAllConnections();
  await new Promise((r) => rdap.close(r));
  await dns.close();
});

describe('depth mx: domain age', () => {
  it('gives the same address the same score on two checks a second apart (RDAP answers in 600 ms, timeout 1500 ms)', async () => {
    const v = createVerifier(loopbackOptions(dns.server, 25, { rdapBaseUrl: base, rdapTimeoutMs: 1500 }));
    const first = await v.verify('alice@young-shop.test', { depth: 'mx' });
    await new Promise((r) => setTimeout(r, 800));
    const second = await v.verify('alice@young-shop.test', { depth: 'mx' });
    await v.close();
    expect({ age: first.domain_age_days, score: first.score }).toEqual({ age: second.domain_age_days, score: second.score });
  });
});
