// Regression test: a risk flag never raises the score (SCORING.md table 2: disposable is −30).
import { describe, expect, it } from 'vitest';
import { assess, type Facts } from './score';

describe('score monotonicity', () => {
  it('a disposable domain never scores higher than the same address on a non-disposable domain', () => {
    // depth mx (free plan), role account, MX listed in two DNSBL zones, domain 100 days old
    const f: Facts = { depth: 'mx', syntaxOk: true, dns: 'ok', blockedAddress: false, smtp: null, catchAll: null, disposable: false, role: true, freeProvider: false, quotedLocal: false, smtputf8: false, domainAgeDays: 100, dnsblListings: 2 };
    const plain = assess(f);
    const disposable = assess({ ...f, disposable: true });
    expect(disposable.score).toBeLessThanOrEqual(plain.score);
  });
});
