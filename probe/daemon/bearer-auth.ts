// Bearer-token check in constant time: both sides are hashed to equal-length digests first, so
// neither the token's content nor its length leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

/**
 * Whether the header carries `token` (or, during a rotation, `previous`). Both are always compared,
 * even without a token given or a previous one set, to keep the timing flat.
 */
export function isAuthorized(header: string | undefined, token: string, previous?: string): boolean {
  const given = digest(bearerToken(header) ?? '');
  const current = timingSafeEqual(given, digest(token)) && token.length > 0;
  const old = timingSafeEqual(given, digest(previous ?? '')) && (previous ?? '').length > 0;
  return bearerToken(header) !== null && (current || old);
}
