// Which currency a caller pays in is decided here, never taken from the browser (issue #9 item 5):
// the account's billing country once set (its first subscription records it), otherwise the
// country GEO_URL reports for the caller's IP. India → INR, everything else (and any failure) → USD.
import { isIP } from 'node:net';
import type { Db } from '../../../db/client';
import type { Currency } from '../../contracts/plans';
import type { AppDeps } from '../../deps';

const CACHE_MS = 60 * 60 * 1000;
const MAX_CACHE = 5000;
const cache = new Map<string, { country: string | null; at: number }>();

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

/** ISO country of the caller's IP per GEO_URL, or null (unknown, service down, bad answer). Cached per IP for an hour. */
export async function countryOfIp(geoUrl: string, ip: string | null, o: { cache?: boolean } = {}): Promise<string | null> {
  const url = geoLookupUrl(geoUrl, ip);
  const key = url;
  const hit = o.cache === false ? undefined : cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.country;
  let country: string | null = null;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000), headers: { accept: 'application/json' } });
    if (res.ok) {
      const body = (await res.json()) as { country_code?: unknown; country?: unknown } | null;
      const c = body?.country_code ?? body?.country;
      if (typeof c === 'string' && /^[A-Za-z]{2}$/.test(c)) country = c.toUpperCase();
    }
  } catch {
    country = null;
  }
  // Failures are cached briefly too (a minute), so a down service does not slow every page.
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(key, { country, at: country === null ? Date.now() - CACHE_MS + 60_000 : Date.now() });
  return country;
}

/** Test hook: forget cached lookups. */
export function clearGeoCache(): void {
  cache.clear();
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
