// A white-label custom domain as an owner types it: browsers send an internationalised domain's
// Host in its ASCII (punycode) form, so that is the form kept and matched; a trailing dot (the
// fully-qualified spelling DNS zone files use) names the same domain.
import { describe, expect, it } from 'vitest';
import { domainSchema } from './branding.service';

describe('domainSchema', () => {
  it('keeps an internationalised domain in the ASCII form browsers send as Host', () => {
    expect(domainSchema.parse('Login.Bücher.test')).toBe('login.xn--bcher-kva.test');
    expect(domainSchema.parse('почта.магазин.рф')).toBe('xn--80a1acny.xn--80aairftm.xn--p1ai');
    expect(domainSchema.parse('login.xn--bcher-kva.test')).toBe('login.xn--bcher-kva.test');
    expect(domainSchema.parse('app.shop.xn--p1ai')).toBe('app.shop.xn--p1ai');
  });

  it('reads a trailing dot as the same domain', () => {
    expect(domainSchema.parse('App.Brand.test.')).toBe('app.brand.test');
  });

  it('still refuses what is no domain name, with the form message', () => {
    for (const bad of ['not a domain', 'localhost', 'a..b.test', '-a.test', 'x.test..', 'bad_name.test', 'a.b.123']) {
      const r = domainSchema.safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message, bad).toBe('Enter a domain name like app.example.com.');
    }
  });
});
