// Which probe daemon serves a domain: rendezvous (highest-random-weight) hashing over PROBE_URLS.
// Every web/worker node computes the same order, so a domain always lands on the same probe (its
// politeness counters and caches hold), and when that probe is down the domain moves to its next
// choice while every other domain stays where it was.
import { createHash } from 'node:crypto';

function weight(key: string, url: string): bigint {
  return createHash('sha256').update(`${key}\u0000${url}`).digest().readBigUInt64BE(0);
}

/** The urls in the order a key should try them. */
export function probeOrder(key: string, urls: string[]): string[] {
  return urls
    .map((url) => ({ url, w: weight(key.toLowerCase(), url) }))
    .sort((a, b) => (a.w === b.w ? a.url.localeCompare(b.url) : a.w > b.w ? -1 : 1))
    .map((x) => x.url);
}

/** The domain part of an address as the probe will see it (lower case; '' when there is no @). */
export function domainKey(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).trim().toLowerCase();
}
