import { describe, expect, it } from 'vitest';
import { editDistance, isPlausibleTypo, suggestAddress } from './suggest-domain';

describe('suggestAddress', () => {
  it('suggests the intended provider when the typed domain takes no mail', () => {
    expect(suggestAddress('john', 'gmali.com', false)).toBe('john@gmail.com');
    expect(suggestAddress('ann', 'hotmai.com', false)).toBe('ann@hotmail.com');
    expect(suggestAddress('Bo', 'icloud.cm', false)).toBe('Bo@icloud.com');
  });

  it('does not offer far-fetched "corrections" for dead domains', () => {
    expect(suggestAddress('x', 'acme.com', false)).toBeNull(); // the library would say me.com
    expect(suggestAddress('x', 'gmaill.con', false)).toBeNull(); // the library would say mail.co
  });

  it('measures edits with swaps counting once', () => {
    expect(editDistance('gmial.com', 'gmail.com')).toBe(1);
    expect(editDistance('acme.com', 'me.com')).toBe(2);
    expect(isPlausibleTypo('acme.com', 'me.com')).toBe(false);
  });

  it('suggests for a registered look-alike even though it has mail servers', () => {
    expect(suggestAddress('john', 'gmial.com', true)).toBe('john@gmail.com');
    expect(suggestAddress('john', 'yaho.com', null)).toBe('john@yahoo.com');
  });

  it('never corrects a domain that receives mail', () => {
    expect(suggestAddress('steve', 'mac.com', true)).toBeNull();
    expect(suggestAddress('x', 'acme-widgets.com', true)).toBeNull();
  });

  it('never corrects a known provider, even when DNS says it has no mail', () => {
    expect(suggestAddress('steve', 'mac.com', false)).toBeNull();
    expect(suggestAddress('a', 'gmail.com', false)).toBeNull();
  });

  it('stays quiet when DNS could not tell (SERVFAIL)', () => {
    expect(suggestAddress('john', 'gmali.com', null)).toBeNull();
  });
});
