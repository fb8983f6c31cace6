// Refuses addresses the probe must never connect to: private, loopback, link-local (which holds the
// cloud metadata address 169.254.169.254), CGNAT (100.64/10, also Alibaba's metadata address),
// unique-local IPv6 (fd00:ec2::254), multicast, reserved and every tunnelling form that could embed
// one of those (IPv4-mapped, 6to4, Teredo, NAT64). Only plain global unicast passes.
// The server guards webhook URLs with the same function.
import ipaddr from 'ipaddr.js';

export type AddressCheck = { ok: true } | { ok: false; range: string };

/** Checks one literal IP address. Unparseable input is refused. */
export function checkAddress(ip: string): AddressCheck {
  if (!ipaddr.isValid(ip)) return { ok: false, range: 'invalid' };
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  const range = addr.range();
  return range === 'unicast' ? { ok: true } : { ok: false, range };
}

/** True when the address is refused (unless the operator allows private networks). */
export function isBlockedAddress(ip: string, allowPrivateNetworks = false): boolean {
  if (allowPrivateNetworks) return !ipaddr.isValid(ip);
  return !checkAddress(ip).ok;
}
