// Regression test: domain age (RDAP) is a score hint and must never hold a verdict back, also at depth
// 'mx' (the free plan's real-time check).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import { startFakeDns, type FakeDns } from '../../probe/testing/fake-dns';

let dns: FakeDns;
let rdap: http.Server;
let rdapUrl = '';

beforeAll(async () => {
  dns = await startFakeDns({
    'mail.shop.test': { mx: [[10, 'mx.shop.test']] },
    'mx.shop.test': { a: ['127.0.0.1'] },
  });
  rdap = http.createServer(() => undefined); // accepts, never answers
  await new Promise<void>((r) => rdap.listen(0, '127.0.0.1', () => r()));
  rdapUrl = `http://127.0.0.1:${(rdap.address() as AddressInfo).port}`;
});
afterAll(async () => {
  rdap.closeAllConnections();
  await new Promise((r) => rdap.close(r));
  await dns.close();
});

describe('RDAP never holds a verdict', () => {
  it('answers a depth-mx check promptly while the RDAP server hangs', async () => {
    const v = createVerifier({ dnsServers: [dns.server], dnsTimeoutMs: 1000, allowPrivateNetworks: true, rdapBaseUrl: rdapUrl });
    try {
      const t = performance.now();
      const r = await v.verify('ann@mail.shop.test', { depth: 'mx' });
      const ms = performance.now() - t;
      expect(r.reason).toBe('smtp_not_checked');
      expect(r.domain_age_days).toBeNull();
      expect(Math.round(ms)).toBeLessThan(1000);
    } finally {
      await v.close();
    }
  });
});
