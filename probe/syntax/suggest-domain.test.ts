// Regression tests: "did you mean" suggestions for dead domains (DNS proved they take no mail).
import { describe, expect, it } from 'vitest';
import { editDistance, knownTypoTarget, suggestAddress } from './suggest-domain';

describe('suggestAddress', () => {
  it('never suggests a domain that is itself a known look-alike (".con" must become ".com", not ".co")', () => {
    for (const [typed, intended] of [
      ['hotmail.con', 'hotmail.com'],
      ['yahoo.con', 'yahoo.com'],
      ['outlook.con', 'outlook.com'],
      ['yahoo.cm', 'yahoo.com'],
      ['live.con', 'live.com'],
    ] as const) {
      const got = suggestAddress('john', typed, false);
      expect({ typed, got }).toEqual({ typed, got: `john@${intended}` });
      // and whatever is suggested must never be a domain the same module calls a typo
      expect(knownTypoTarget(got?.split('@')[1] ?? '')).toBeNull();
    }
  });

  it('suggests for a one-swap typo of icloud.com and for ccTLD variants of hotmail/yahoo', () => {
    expect(suggestAddress('ann', 'icluod.com', false)).toBe('ann@icloud.com');
    expect(suggestAddress('ann', 'hotmial.com.br', false)).toBe('ann@hotmail.com.br');
    expect(suggestAddress('ann', 'yaho.com.br', false)).toBe('ann@yahoo.com.br');
  });

  it('stops measuring once a candidate is out of reach (every dead domain is compared with every common provider)', () => {
    expect(editDistance('nowhere.test', 'hotmail.com')).toBeGreaterThan(3);
    expect(editDistance('nowhere.test', 'hotmail.com', 2)).toBe(3);
    expect(editDistance('icluod.com', 'icloud.com', 2)).toBe(1);
  });
});
