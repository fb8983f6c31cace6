// MX reputation: is a mail server's IPv4 address listed in a DNSBL zone? (query
// d.c.b.a.zone A; a 127.0.0.x answer means listed). 127.255.255.x answers are the zones' error
// codes (e.g. Spamhaus refusing public resolvers) and do not count. IPv6 is not checked.
import { isIPv4 } from 'node:net';
import type { DnsCache } from './resolver';

export function dnsblQueryName(ip: string, zone: string): string | null {
  if (!isIPv4(ip)) return null;
  return `${ip.split('.').reverse().join('.')}.${zone.replace(/^\.+|\.+$/g, '')}`;
}

export function isListingAnswer(address: string): boolean {
  return address.startsWith('127.') && !address.startsWith('127.255.255.');
}

/** Zones that list the address. Lookup failures count as not listed. */
export async function dnsblListings(dns: DnsCache, ip: string, zones: string[]): Promise<string[]> {
  const answers = await Promise.all(
    zones.map(async (zone) => {
      const name = dnsblQueryName(ip, zone);
      if (!name) return null;
      const a = await dns.a(name);
      return a.ok && a.records.some(isListingAnswer) ? zone : null;
    }),
  );
  return answers.filter((z): z is string => z !== null);
}
