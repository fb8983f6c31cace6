// Bearer-token check in constant time: both sides are hashed to equal-length digests first, so
// neither the token's content nor its length leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

export function isAuthorized(header: string | undefined, token: string): boolean {
  const given = bearerToken(header);
  // Always compare, even without a token, to keep the timing flat.
  const ok = timingSafeEqual(digest(given ?? ''), digest(token));
  return ok && given !== null && token.length > 0;
}
