// Regression test: nearestCommonProvider allowed two edits over the WHOLE domain for a long brand, so
// swapping a two-letter country code for another was a "slip": a dead hotmail.<cc> was "corrected" to
// hotmail.ru (the first two-edit provider in the list), a dead yahoo.cz to yahoo.ca. The name and the
// public suffix are now measured apart, and one country code for another is never a typo.
import { describe, expect, it } from 'vitest';
import { suggestAddress } from './suggest-domain';

describe('did you mean: country codes', () => {
  it('never turns a dead hotmail.<country> into a Russian provider domain', () => {
    // domainHasMail=false: NXDOMAIN / no MX, the only case in which a dead domain is corrected.
    const dead = ['hotmail.pl', 'hotmail.mx', 'hotmail.ua', 'hotmail.gr'];
    const toRu = dead.filter((d) => suggestAddress('jan', d, false) === 'jan@hotmail.ru');
    expect(toRu).toEqual([]);
  });

  it('does not suggest another country\'s provider for a dead yahoo.<country>', () => {
    expect(suggestAddress('jan', 'yahoo.cz', false)).not.toBe('jan@yahoo.ca');
  });

  it('suggests nothing for a provider under another country code (that is another domain, not a typo)', () => {
    for (const d of ['hotmail.pl', 'hotmail.mx', 'hotmail.ua', 'hotmail.gr', 'hotmail.be', 'hotmail.at', 'yahoo.cz', 'yahoo.com.tr']) {
      expect({ d, got: suggestAddress('jan', d, false) }).toEqual({ d, got: null });
    }
  });

  it('still corrects a slip in the suffix or the name', () => {
    expect(suggestAddress('jan', 'hotmial.con', false)).toBe('jan@hotmail.com');
    expect(suggestAddress('jan', 'hotmail.cm', false)).toBe('jan@hotmail.com');
    expect(suggestAddress('jan', 'gmail.co', false)).toBe('jan@gmail.com');
    expect(suggestAddress('jan', 'outlok.com', false)).toBe('jan@outlook.com');
  });
});
