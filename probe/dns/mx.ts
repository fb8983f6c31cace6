// Mail servers of a domain: MX records by priority, the implicit MX (the domain's own A/AAAA) when
// there is no MX, RFC 7505 null MX (even beside real MX records), and NXDOMAIN kept apart from SERVFAIL/timeouts.
import { isIP } from 'node:net';
import type { DnsAnswer, DnsCache } from './resolver';

export interface MxHost {
  host: string;
  priority: number;
  /** IPv4 addresses first; IPv6 only when the host has no IPv4 address. */
  ips: string[];
}

/**
 * MX hosts whose addresses are looked up, in preference order. A domain may publish hundreds (a
 * hostile one, to have one check ask a question per host of the node's DNS, whose slots every check
 * shares); only the first few addresses are ever used (10, verifier.ts), so the hosts after these
 * are listed but never asked about.
 */
export const MAX_MX_HOSTS_LOOKED_UP = 16;

export type MailRoute =
  /** `unresolved`: MX host names past MAX_MX_HOSTS_LOOKED_UP, in preference order (not looked up); only when there are any. */
  | { kind: 'mx'; implicit: boolean; hosts: MxHost[]; unresolved?: string[] }
  | { kind: 'no_domain'; detail: string }
  | { kind: 'null_mx'; detail: string }
  | { kind: 'no_mx'; detail: string }
  | { kind: 'dns_error'; detail: string };

const isTransient = (a: DnsAnswer<unknown>): boolean => !a.ok && a.kind !== 'nxdomain' && a.kind !== 'nodata';

/** CNAME links followed by hand (a resolver that chases them answers in one go). */
const MAX_ALIAS_HOPS = 8;

/**
 * `ask(name)`, and when its answer is an alias alone (a CNAME, no records of the type): `ask` of the
 * CNAME's target, link by link. A DNS server that does not chase CNAMEs (an authoritative server whose
 * target is in another zone) answers the alias with the CNAME alone, which c-ares reports as no
 * records: taken at its word, a domain that is an alias of one with MX, or an MX host that is an alias,
 * had no mail server (undeliverable).
 */
async function throughAliases<T>(dns: DnsCache, name: string, urgent: boolean, ask: (name: string) => Promise<DnsAnswer<T>>): Promise<DnsAnswer<T>> {
  const seen = new Set<string>();
  let current = name;
  for (let hop = 0; ; hop++) {
    const answer = await ask(current);
    // c-ares reads a CNAME-only answer as a success without records (a plain NODATA is an error,
    // ENODATA): only then is the alias looked up, so a name without records costs no extra question.
    const aliasOnly = answer.ok && answer.records.length === 0;
    if (!aliasOnly || hop >= MAX_ALIAS_HOPS) return answer;
    seen.add(current.toLowerCase());
    // A CNAME question that fails (a server that does not implement it: SERVFAIL, NOTIMP) is no alias:
    // the answer stands as it was.
    const alias = await dns.cname(current, urgent);
    const target = alias.ok ? alias.records[0]?.replace(/\.$/, '') : undefined;
    if (!target || seen.has(target.toLowerCase())) return answer;
    current = target;
  }
}

/** Whether an address may be connected to (the network guard); unset: every address may. */
export type Usable = (ip: string) => boolean;

/**
 * Addresses of one host: A first, AAAA only when there is no A, or when no A record is `usable` (a
 * private address published by mistake, split-horizon DNS leaking the inside one, 0.0.0.0): a
 * dual-stack MTA still reaches such a host over IPv6, so its AAAA records follow the A records.
 * `urgent`: for a real-time check.
 */
export async function hostAddresses(dns: DnsCache, host: string, urgent = false, usable?: Usable): Promise<{ ips: string[]; error: string | null }> {
  if (isIP(host)) return { ips: [host], error: null };
  const a = await throughAliases(dns, host, urgent, (n) => dns.a(n, urgent));
  if (a.ok && a.records.length > 0) {
    if (!usable || a.records.some(usable)) return { ips: a.records, error: null };
    const aaaa = await throughAliases(dns, host, urgent, (n) => dns.aaaa(n, urgent));
    return { ips: aaaa.ok ? [...a.records, ...aaaa.records] : a.records, error: null };
  }
  const aaaa = await throughAliases(dns, host, urgent, (n) => dns.aaaa(n, urgent));
  if (aaaa.ok && aaaa.records.length > 0) return { ips: aaaa.records, error: null };
  const failed = [a, aaaa].find(isTransient);
  return { ips: [], error: failed && !failed.ok ? failed.message : null };
}

/** Sorts MX records by priority (stable: ties keep the order the server gave). */
export function sortByPriority<T extends { priority: number }>(records: T[]): T[] {
  return records.map((r, i) => ({ r, i })).sort((x, y) => x.r.priority - y.r.priority || x.i - y.i).map((x) => x.r);
}

/**
 * The domain's mail route. `urgent`: a real-time check waits for it (its questions go ahead of bulk
 * ones). `usable`: the network guard (a host none of whose A records it lets through has its AAAA
 * records looked up too).
 */
export async function lookupMailRoute(dns: DnsCache, domain: string, urgent = false, usable?: Usable): Promise<MailRoute> {
  const mx = await throughAliases(dns, domain, urgent, (n) => dns.mx(n, urgent));
  if (!mx.ok) {
    if (mx.kind === 'nxdomain') return { kind: 'no_domain', detail: `${domain} does not exist (NXDOMAIN)` };
    if (mx.kind !== 'nodata') return { kind: 'dns_error', detail: mx.message };
    return implicitRoute(dns, domain, urgent, usable);
  }
  // RFC 7505: a null MX says the domain accepts no mail. Published next to real MX records (which it
  // MUST NOT be), it still does: Postfix refuses the whole answer ("does not accept mail (nullMX)").
  if (mx.records.some((r) => r.exchange === '' || r.exchange === '.')) return { kind: 'null_mx', detail: `${domain} publishes a null MX (accepts no mail)` };
  // RFC 5321 2.3.5: an MX names a host, never an address. "MX 10 192.0.2.1" is skipped by Postfix
  // ("numeric domain name in resource data of MX record") and refused by Exim (allow_mx_to_ip is off):
  // mail is not delivered there, so it is no mail host here either, and one that is all a domain
  // publishes says nothing sure (unknown), rather than a mailbox there being deliverable.
  const numeric = mx.records.filter((r) => isIP(r.exchange.replace(/\.$/, '')) !== 0);
  const real = mx.records.filter((r) => !numeric.includes(r));
  if (real.length === 0 && numeric.length > 0) {
    return { kind: 'dns_error', detail: `the MX records of ${domain} name IP addresses (${numeric.map((r) => r.exchange).join(', ')}), not host names (RFC 5321 2.3.5): mail servers such as Postfix and Exim do not deliver there` };
  }
  if (real.length === 0) return implicitRoute(dns, domain, urgent, usable);
  const sorted = sortByPriority(real);
  const asked = sorted.slice(0, MAX_MX_HOSTS_LOOKED_UP);
  const unresolved = sorted.slice(MAX_MX_HOSTS_LOOKED_UP).map((r) => r.exchange.replace(/\.$/, '').toLowerCase());
  const resolved = await Promise.all(asked.map(async (r) => ({ r, addr: await hostAddresses(dns, r.exchange.replace(/\.$/, ''), urgent, usable) })));
  const hosts = resolved.filter((x) => x.addr.ips.length > 0).map((x) => ({ host: x.r.exchange.replace(/\.$/, '').toLowerCase(), priority: x.r.priority, ips: x.addr.ips }));
  if (hosts.length > 0) return { kind: 'mx', implicit: false, hosts, ...(unresolved.length > 0 ? { unresolved } : {}) };
  const error = resolved.find((x) => x.addr.error !== null);
  if (error) return { kind: 'dns_error', detail: `MX host ${error.r.exchange}: ${error.addr.error}` };
  // Hosts left unasked may have an address: not known to take no mail (never undeliverable on a guess).
  if (unresolved.length > 0) return { kind: 'dns_error', detail: `the first ${MAX_MX_HOSTS_LOOKED_UP} of ${sorted.length} MX hosts of ${domain} have no address; the rest were not looked up` };
  // The explanation shown to users (src/…/explain-result.ts) tells this case apart by this detail's start.
  return { kind: 'no_mx', detail: `no MX host of ${domain} has an address` };
}

async function implicitRoute(dns: DnsCache, domain: string, urgent: boolean, usable: Usable | undefined): Promise<MailRoute> {
  const addr = await hostAddresses(dns, domain, urgent, usable);
  if (addr.ips.length > 0) return { kind: 'mx', implicit: true, hosts: [{ host: domain, priority: 0, ips: addr.ips }] };
  if (addr.error) return { kind: 'dns_error', detail: addr.error };
  return { kind: 'no_mx', detail: `${domain} has no MX and no A/AAAA record` };
}
