// What the single-check explanation tells a user about a domain with no usable mail server: the two
// ways RFC 5321 5.1 gets there (no MX and no A/AAAA; MX records whose hosts have no address, where
// the domain's own A/AAAA must not be used) are told apart, each as DNS has it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import { startFakeDns, type FakeDns } from '../../probe/testing/fake-dns';
import { loopbackOptions } from '../../probe/testing/loopback-options';
import { explainResult } from '../../src/features/validation/utils/explain-result';

let dns: FakeDns;

beforeAll(async () => {
  dns = await startFakeDns({
    // MX records whose hosts have no address; the domain's own A record is no fallback (RFC 5321 5.1).
    'dangling.test': { mx: [[10, 'mx1.dangling.test'], [20, 'mx2.dangling.test']], a: ['127.0.0.1'] },
    'mx1.dangling.test': {},
    // Neither MX nor address records.
    'bare.test': {},
  });
});
afterAll(async () => {
  await dns.close();
});

describe('no usable mail server (reason no_mx)', () => {
  it('MX hosts without an address: invalid/no_mx, and the explanation says the MX hosts have no address (not "neither MX nor address records")', async () => {
    const v = createVerifier(loopbackOptions(dns.server, 25));
    try {
      const dangling = await v.verify('alice@dangling.test', { depth: 'mx' });
      expect(dangling).toMatchObject({ verdict: 'undeliverable', reason: 'no_mx' });
      const text = explainResult({ reason: dangling.reason, mx_hosts: dangling.mx_hosts, evidence: dangling.evidence, depth: 'mx' });
      expect(text).not.toMatch(/neither MX nor address records/);
      expect(text).toMatch(/MX records/);
      expect(text).toMatch(/no address/);

      const bare = await v.verify('alice@bare.test', { depth: 'mx' });
      expect(bare).toMatchObject({ verdict: 'undeliverable', reason: 'no_mx' });
      expect(explainResult({ reason: bare.reason, mx_hosts: bare.mx_hosts, evidence: bare.evidence, depth: 'mx' })).toMatch(/neither MX nor address records/);
    } finally {
      await v.close();
    }
  });
});
