import { describe, expect, it } from 'vitest';
import { freeGrantEmailKey } from './email-key';

describe('freeGrantEmailKey', () => {
  it('folds the spellings of one mailbox into one key', () => {
    for (const spelling of ['Jane.Doe+promo@GMail.com', 'j.a.n.e.doe@googlemail.com']) expect(freeGrantEmailKey(spelling)).toBe('janedoe@gmail.com');
    for (const spelling of [' Bob+x+y@Example.COM ', 'bob@example.com.']) expect(freeGrantEmailKey(spelling)).toBe('bob@example.com');
  });

  it('keeps different mailboxes apart (dots matter outside Gmail; a leading + is not a tag)', () => {
    expect(freeGrantEmailKey('jane.doe@example.com')).not.toBe(freeGrantEmailKey('janedoe@example.com'));
    expect(freeGrantEmailKey('+bob@example.com')).toBe('+bob@example.com');
    expect(freeGrantEmailKey('bob@example.org')).not.toBe(freeGrantEmailKey('bob@example.com'));
  });
});
