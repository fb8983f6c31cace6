// Which addresses Mailvet may connect to: the probe's MX connections and the server's webhook
// deliveries both ask this module. The rule is an ALLOWLIST of global unicast space:
//  - IPv4: 1.0.0.0–223.255.255.255, minus every block of the IANA IPv4 Special-Purpose Address
//    Registry that is not globally reachable (private, CGNAT, loopback, link-local with the cloud
//    metadata address, IETF protocol assignments, documentation, benchmarking, the 6to4 relay);
//  - IPv6: 2000::/3 only (so IPv4-compatible ::a.b.c.d, IPv4-mapped ::ffff:a.b.c.d, NAT64
//    64:ff9b::/96 and 64:ff9b:1::/48, discard-only, unique-local, site-local, link-local, multicast
//    and everything reserved fall outside), minus its special blocks: Teredo, benchmarking, ORCHID,
//    the rest of 2001::/23, documentation (2001:db8::/32, 3fff::/20) and 6to4 (2002::/16).
// Anything not positively global is refused. A refusal names the range, for logs and tests.
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressCheck = { ok: true } | { ok: false; range: string };

type Block = readonly [cidr: string, range: string];

/** Not globally reachable, inside the IPv4 allowlist (most specific first). */
const IPV4_SPECIAL: readonly Block[] = [
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrierGradeNat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'linkLocal'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'ietfProtocol'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4Relay'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
];
const IPV4_GLOBAL_FIRST = ipaddr.IPv4.parse('1.0.0.0').toByteArray();
const IPV4_GLOBAL_LAST = ipaddr.IPv4.parse('223.255.255.255').toByteArray();

/** Outside 2000::/3: named only so that a refusal says what it was. */
const IPV6_OUTSIDE: readonly Block[] = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'ipv4Mapped'],
  ['::/96', 'ipv4Compatible'],
  ['64:ff9b::/96', 'rfc6052'],
  ['64:ff9b:1::/48', 'nat64Local'],
  ['100::/64', 'discard'],
  ['fc00::/7', 'uniqueLocal'],
  ['fe80::/10', 'linkLocal'],
  ['fec0::/10', 'siteLocal'],
  ['ff00::/8', 'multicast'],
];
const IPV6_GLOBAL: Block = ['2000::/3', 'globalUnicast'];
/** Not globally reachable, inside 2000::/3 (most specific first). */
const IPV6_SPECIAL: readonly Block[] = [
  ['2001::/32', 'teredo'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:10::/28', 'orchid'],
  ['2001:20::/28', 'orchid'],
  ['2001::/23', 'ietfProtocol'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', '6to4'],
  ['3fff::/20', 'documentation'],
];

const parsed = <K extends 'ipv4' | 'ipv6'>(blocks: readonly Block[]) =>
  blocks.map(([cidr, range]) => ({ net: ipaddr.parseCIDR(cidr) as [K extends 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6, number], range }));
const V4_SPECIAL = parsed<'ipv4'>(IPV4_SPECIAL);
const V6_OUTSIDE = parsed<'ipv6'>(IPV6_OUTSIDE);
const V6_SPECIAL = parsed<'ipv6'>(IPV6_SPECIAL);
const V6_GLOBAL = ipaddr.parseCIDR(IPV6_GLOBAL[0]) as [ipaddr.IPv6, number];

function compareBytes(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function checkV4(addr: ipaddr.IPv4): AddressCheck {
  const bytes = addr.toByteArray();
  if (compareBytes(bytes, IPV4_GLOBAL_FIRST) < 0) return { ok: false, range: 'unspecified' };
  if (compareBytes(bytes, IPV4_GLOBAL_LAST) > 0) {
    if (bytes.every((b) => b === 255)) return { ok: false, range: 'broadcast' };
    return { ok: false, range: bytes[0]! < 240 ? 'multicast' : 'reserved' };
  }
  const special = V4_SPECIAL.find((b) => addr.match(b.net));
  return special ? { ok: false, range: special.range } : { ok: true };
}

function checkV6(addr: ipaddr.IPv6): AddressCheck {
  if (!addr.match(V6_GLOBAL)) {
    if (addr.isIPv4MappedAddress()) {
      // Name what it embeds when that is itself refused (::ffff:127.0.0.1 is loopback); a public
      // IPv4 address behind the mapped form is still refused: we connect to the IPv4 form or not at all.
      const inner = checkV4(addr.toIPv4Address());
      return { ok: false, range: inner.ok ? 'ipv4Mapped' : inner.range };
    }
    const named = V6_OUTSIDE.find((b) => addr.match(b.net));
    return { ok: false, range: named?.range ?? 'reserved' };
  }
  const special = V6_SPECIAL.find((b) => addr.match(b.net));
  return special ? { ok: false, range: special.range } : { ok: true };
}

/** Checks one literal IP address (no zone ids). Unparseable input is refused. */
export function checkAddress(ip: string): AddressCheck {
  if (net.isIPv4(ip)) return checkV4(ipaddr.IPv4.parse(ip));
  if (!net.isIPv6(ip) || ip.includes('%')) return { ok: false, range: 'invalid' };
  // ipaddr.js reads the dotted tail of '::127.0.0.1' as IPv4-mapped; the WHATWG URL parser gives
  // the canonical text (::7f00:1), which ipaddr.js then reads right.
  return checkV6(ipaddr.IPv6.parse(new URL(`http://[${ip}]/`).hostname.slice(1, -1)));
}

/**
 * Refused even where private networks are allowed: no one host is there. Connecting to an unspecified
 * address (0.0.0.0/8, ::) reaches this machine itself (an MX "0.0.0.0" would have us ask our own mail
 * server); broadcast and multicast are no host at all.
 */
const NEVER_A_HOST = new Set(['unspecified', 'broadcast', 'multicast', 'invalid']);

/** True when the address is refused (unless the operator allows private networks, which still refuses NEVER_A_HOST). */
export function isBlockedAddress(ip: string, allowPrivateNetworks = false): boolean {
  const check = checkAddress(ip);
  if (!allowPrivateNetworks) return !check.ok;
  return net.isIP(ip) === 0 || (!check.ok && NEVER_A_HOST.has(check.range));
}
