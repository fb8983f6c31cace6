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

/** One request's worth of one domain's addresses, for one daemon. */
export interface PlannedShare {
  url: string;
  /** domainKey of the addresses. */
  domain: string;
  emails: string[];
  /** Index of this share among the domain's shares: 0 is the domain's home share. */
  share: number;
  /** How many shares the domain was split into. */
  of: number;
}

/**
 * Spreads addresses over the live daemons without double work. A domain with fewer than
 * 2 × `splitMin` addresses goes whole to its first rendezvous choice (its caches and sessions stay
 * together); a bigger one — a list dominated by one provider — is cut into one share per daemon
 * (at most one share per `splitMin` addresses), in its rendezvous order, so every node works on it
 * within its own politeness caps (each node speaks from its own source IP). Every address is in
 * exactly one share.
 */
export function planShares(emails: string[], live: string[], splitMin: number): PlannedShare[] {
  if (live.length === 0) return [];
  const byDomain = new Map<string, string[]>();
  for (const e of emails) {
    const key = domainKey(e);
    let list = byDomain.get(key);
    if (!list) byDomain.set(key, (list = []));
    list.push(e);
  }
  const out: PlannedShare[] = [];
  for (const [domain, list] of byDomain) {
    const order = probeOrder(domain, live);
    const n = Math.max(1, Math.min(order.length, Math.floor(list.length / Math.max(1, splitMin))));
    const size = Math.ceil(list.length / n);
    for (let i = 0; i < n; i++) {
      const part = list.slice(i * size, (i + 1) * size);
      if (part.length > 0) out.push({ url: order[i] as string, domain, emails: part, share: i, of: n });
    }
  }
  return out;
}
