// Which currency a caller pays in is decided here, never taken from the browser (issue #9 item 5):
// the account's billing country once set (its first subscription records it), otherwise the
// country GEO_URL reports for the caller's IP. India → INR, everything else (and any failure) → USD.
import { isIP } from 'node:net';
import type { Db } from '../../../db/client';
import type { Currency } from '../../contracts/plans';
import type { AppDeps } from '../../deps';

const CACHE_MS = 60 * 60 * 1000;
const MAX_CACHE = 5000;
/** network (geoNetwork) or lookup URL → what the service said, and when. */
const cache = new Map<string, { country: string | null; at: number }>();
/**
 * Lookups per minute this process sends the geolocation service at most: anyone can make us ask
 * (GET /api/public-config needs no sign-in), and a spent quota would price every visitor in USD.
 * Beyond it a new network is unplaced (USD) until the next minute, and asked about then.
 */
export const GEO_LOOKUPS_PER_MINUTE = 60;
let minute = { start: 0, used: 0 };

function takeLookup(now: number): boolean {
  if (now - minute.start >= 60_000) minute = { start: now, used: 0 };
  if (minute.used >= GEO_LOOKUPS_PER_MINUTE) return false;
  minute.used++;
  return true;
}

/** An IPv6 address's eight groups (an embedded IPv4 address as the last two), or null. */
function ipv6Groups(v6: string): number[] | null {
  let s = v6.split('%')[0] ?? '';
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    s = `${s.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const part = (h: string | undefined): string[] => (h ? h.split(':') : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const groups = halves.length === 2 ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  const values = groups.map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN));
  return values.length === 8 && values.every((n) => Number.isInteger(n)) ? values : null;
}

/**
 * The network a caller is placed by: its IPv4 /24 or IPv6 /48 (a country's allocations are never
 * smaller), so that one host rotating through its addresses — an IPv6 /64 holds 2^64 — costs one
 * lookup, not one per address. null: not an IP address.
 */
export function geoNetwork(ip: string): string | null {
  const v = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const kind = isIP(v);
  if (kind === 4) return `${v.split('.').slice(0, 3).join('.')}.0/24`;
  if (kind !== 6) return null;
  const groups = ipv6Groups(v);
  return groups ? `${groups.slice(0, 3).map((g) => g.toString(16)).join(':')}::/48` : null;
}

export function currencyForCountry(country: string | null | undefined): Currency {
  return country === 'IN' ? 'INR' : 'USD';
}

/** Loopback, private, link-local and unique-local addresses: the geolocation service cannot place them. */
export function isPublicIp(ip: string): boolean {
  const v = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const kind = isIP(v);
  if (kind === 4) {
    const [a, b] = v.split('.').map(Number) as [number, number];
    return !(a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224);
  }
  if (kind === 6) return !(v === '::1' || v === '::' || /^f[cd]/i.test(v) || /^fe[89ab]/i.test(v));
  return false;
}

/** The URL to ask: `{ip}` → the caller's public IP; a private caller asks about the server's own (shared) address. */
export function geoLookupUrl(template: string, ip: string | null): string {
  if (!template.includes('{ip}')) return template;
  if (ip && isPublicIp(ip)) return template.replaceAll('{ip}', encodeURIComponent(ip.replace(/^::ffff:/, '')));
  return template.replace(/\{ip\}\/?/g, '');
}

/**
 * ISO country of the caller's IP per GEO_URL, or null (unknown, service down, bad answer, or the
 * minute's lookups spent). Cached per network (geoNetwork) for an hour.
 */
export async function countryOfIp(geoUrl: string, ip: string | null, o: { cache?: boolean } = {}): Promise<string | null> {
  const url = geoLookupUrl(geoUrl, ip);
  const network = ip && isPublicIp(ip) && geoUrl.includes('{ip}') ? geoNetwork(ip) : null;
  const key = network ?? url;
  const hit = o.cache === false ? undefined : cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.country;
  if (o.cache !== false && !takeLookup(Date.now())) return null;
  let country: string | null = null;
  try {
    // Never a redirect: its Location could point inside (169.254.169.254, localhost); a 3xx is a failure.
    const res = await fetch(url, { signal: AbortSignal.timeout(3000), headers: { accept: 'application/json' }, redirect: 'manual' });
    if (res.ok) {
      const body = (await res.json()) as { country_code?: unknown; country?: unknown } | null;
      const c = body?.country_code ?? body?.country;
      if (typeof c === 'string' && /^[A-Za-z]{2}$/.test(c)) country = c.toUpperCase();
    }
  } catch {
    country = null;
  }
  // Failures are cached briefly too (a minute), so a down service does not slow every page. When
  // full, the oldest entry makes room (not the whole cache).
  cache.delete(key);
  if (cache.size >= MAX_CACHE) cache.delete(cache.keys().next().value as string);
  cache.set(key, { country, at: country === null ? Date.now() - CACHE_MS + 60_000 : Date.now() });
  return country;
}

/** Test hook: forget cached lookups and the minute's count. */
export function clearGeoCache(): void {
  cache.clear();
  minute = { start: 0, used: 0 };
}

export async function accountBillingCountry(db: Db, accountId: string): Promise<string | null> {
  const row = await db.selectFrom('account').select('billing_country').where('id', '=', accountId).executeTakeFirst();
  return row?.billing_country ?? null;
}

/** The caller's currency and the country it came from. */
export async function decideCurrency(deps: AppDeps, o: { accountId?: string | null; ip: string | null }): Promise<{ currency: Currency; country: string | null; source: 'account' | 'ip' }> {
  if (o.accountId) {
    const c = await accountBillingCountry(deps.db, o.accountId);
    if (c) return { currency: currencyForCountry(c), country: c, source: 'account' };
  }
  // Developer tools (tests, a laptop) switch the cache off so a changed location shows at once.
  const country = await countryOfIp(deps.env.GEO_URL, o.ip, { cache: !deps.env.DEV_TOOLS });
  return { currency: currencyForCountry(country), country, source: 'ip' };
}
