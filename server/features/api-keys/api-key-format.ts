// The API key itself: how it is made, what it looks like, and the one-way hash we keep.
// A key is `mv_live_` (a test key: `mv_test_`) + 43 base62 characters (256 bits from the CSPRNG).
// Only its SHA-256 (hex) and its first KEY_PREFIX_LENGTH characters are stored; the key is shown to
// its creator once. Whether a key is a test key is stored with it too: the prefix only says so.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

import { LIVE_KEY_PREFIX, TEST_KEY_PREFIX } from '../../contracts/api-keys';

export const API_KEY_PREFIX = LIVE_KEY_PREFIX;
/** 43 base62 characters carry 256 bits (62^43 > 2^256). */
export const API_KEY_RANDOM_LENGTH = 43;
/** Stored and displayed: `mv_live_` (or `mv_test_`) + 4 characters, enough to tell keys apart, useless to guess. */
export const KEY_PREFIX_LENGTH = 12;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^(?:${LIVE_KEY_PREFIX}|${TEST_KEY_PREFIX})[0-9A-Za-z]{${API_KEY_RANDOM_LENGTH}}$`);

/** Uniform base62 string from the CSPRNG (rejection sampling: bytes >= 248 are dropped, so no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b >= 248) continue;
      out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function keyPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}

export interface NewKeyMaterial {
  /** The full key: returned to the creator once, never stored. */
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(o: { test?: boolean } = {}): NewKeyMaterial {
  const key = (o.test ? TEST_KEY_PREFIX : LIVE_KEY_PREFIX) + randomBase62(API_KEY_RANDOM_LENGTH);
  return { key, prefix: keyPrefixOf(key), hash: hashApiKey(key) };
}

/** Shape check before any database work: a malformed bearer token is refused without a lookup. */
export function looksLikeApiKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameDigest(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, 'hex');
  const b = Buffer.from(bHex, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}
