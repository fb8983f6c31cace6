import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, generateApiKey, hashApiKey, keyPrefixOf, looksLikeApiKey, randomBase62, sameDigest } from './api-key-format';

describe('API key format', () => {
  it('makes mv_live_ keys with 43 base62 characters, a 12-character prefix and a sha256 hash', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^mv_live_[0-9A-Za-z]{43}$/);
    expect(prefix).toBe(key.slice(0, 12));
    expect(prefix.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashApiKey(key));
    expect(looksLikeApiKey(key)).toBe(true);
  });

  it('makes mv_test_ keys for the sandbox, accepted by the same shape check', () => {
    const { key, prefix } = generateApiKey({ test: true });
    expect(key).toMatch(/^mv_test_[0-9A-Za-z]{43}$/);
    expect(prefix).toBe(key.slice(0, 12));
    expect(looksLikeApiKey(key)).toBe(true);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateApiKey().key));
    expect(keys.size).toBe(500);
  });

  it('draws base62 characters roughly uniformly', () => {
    const counts = new Map<string, number>();
    for (const c of randomBase62(62_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(n).toBeGreaterThan(700);
  });

  it('refuses malformed tokens before any lookup', () => {
    for (const bad of ['', 'mv_live_', 'mv_prod_' + 'a'.repeat(43), 'mv_test_' + 'a'.repeat(42), 'mv_live_' + 'a'.repeat(42), 'mv_live_' + 'a'.repeat(42) + '-', ' mv_live_' + 'a'.repeat(43)]) {
      expect(looksLikeApiKey(bad)).toBe(false);
    }
  });

  it('compares digests in constant time and only equal ones match', () => {
    const h = hashApiKey('x');
    expect(sameDigest(h, h)).toBe(true);
    expect(sameDigest(h, hashApiKey('y'))).toBe(false);
    expect(sameDigest(h, '')).toBe(false);
    expect(keyPrefixOf('mv_live_abcdefgh')).toBe('mv_live_abcd');
  });
});
