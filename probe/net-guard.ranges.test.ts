// The network guard decides where the probe (MX connections) and the server (webhook deliveries)
// may connect: only globally reachable unicast. One row per range, with an address inside each
// boundary (refused) and one just outside it (allowed, where the neighbour is global).
import { describe, expect, it } from 'vitest';
import { checkAddress, isBlockedAddress } from './net-guard';

const blocked: [ip: string, range: string][] = [
  // IPv4 special-purpose registry
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.0', 'carrierGradeNat'],
  ['100.127.255.255', 'carrierGradeNat'],
  ['100.100.100.200', 'carrierGradeNat'],
  ['127.0.0.1', 'loopback'],
  ['127.77.1.1', 'loopback'],
  ['169.254.169.254', 'linkLocal'],
  ['169.254.255.255', 'linkLocal'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.0', 'ietfProtocol'],
  ['192.0.0.170', 'ietfProtocol'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', '6to4Relay'],
  ['192.168.1.1', 'private'],
  ['198.18.0.0', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.255', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // IPv6 outside 2000::/3
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::127.0.0.1', 'ipv4Compatible'],
  ['::8.8.8.8', 'ipv4Compatible'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:8.8.8.8', 'ipv4Mapped'],
  ['64:ff9b::a00:1', 'rfc6052'],
  ['64:ff9b::808:808', 'rfc6052'],
  ['64:ff9b:1::1', 'nat64Local'],
  ['100::1', 'discard'],
  ['fc00::1', 'uniqueLocal'],
  ['fd00:ec2::254', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['febf:ffff::1', 'linkLocal'],
  ['fec0::1', 'siteLocal'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['4000::1', 'reserved'],
  ['e000::1', 'reserved'],
  // IPv6 special blocks inside 2000::/3
  ['2001::1', 'teredo'],
  ['2001:0:ffff:ffff::1', 'teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:10::1', 'orchid'],
  ['2001:20::1', 'orchid'],
  ['2001:1ff::1', 'ietfProtocol'],
  ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'ietfProtocol'], // last of 2001::/23
  ['2001:3::1', 'ietfProtocol'], // just past the benchmarking /48, still inside 2001::/23
  ['2001:2:0:ffff::1', 'benchmarking'],
  ['64:ff9b::ffff:ffff', 'rfc6052'], // last of 64:ff9b::/96
  ['64:ff9b:0:0:0:1::', 'reserved'], // just past it: not global either
  ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'nat64Local'],
  ['fbff:ffff::1', 'reserved'], // just below fc00::/7
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'uniqueLocal'],
  ['::ffff:192.168.1.1', 'private'],
  ['::ffff:7f00:1', 'loopback'], // the mapped form written in hex
  ['::7f00:1', 'ipv4Compatible'],
  ['::1:0:0:1', 'reserved'], // ::/8 outside the named blocks
  ['2001:db8::1', 'documentation'],
  ['2001:db8:ffff::1', 'documentation'],
  ['2002:7f00:1::1', '6to4'],
  ['2002:808:808::1', '6to4'],
  ['3fff::1', 'documentation'],
  ['3fff:fff:ffff::1', 'documentation'],
  // not addresses
  ['not-an-ip', 'invalid'],
  ['fe80::1%eth0', 'invalid'],
  ['', 'invalid'],
];

const allowed = [
  '1.0.0.0',
  '8.8.8.8',
  '9.255.255.255', // just below 10/8
  '11.0.0.0', // just above 10/8
  '100.63.255.255', // just below CGNAT
  '100.128.0.0', // just above CGNAT
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.255',
  '192.0.3.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '203.0.114.1',
  '203.0.112.255', // just below TEST-NET-3
  '198.51.99.255', // TEST-NET-2 neighbours
  '198.51.101.0',
  '192.88.98.255', // 6to4 relay neighbours
  '192.88.100.0',
  '192.0.1.0',
  '142.250.74.5',
  '223.255.255.255', // last global unicast /8
  '2000::1',
  '2001:200::1', // just past 2001::/23 (WIDE)
  '2001:db7:ffff::1',
  '2001:db9::1',
  '2003::1',
  '2001:ffff:ffff::1', // just below 2002::/16, outside 2001::/23
  '2001:200::', // first past 2001::/23
  '2a00:1450:4001:82b::200e',
  '2606:4700:4700::1111',
  '3ffe:ffff::1',
  '3fff:1000::1', // just past 3fff::/20
];

describe('network guard', () => {
  it.each(blocked)('refuses %s (%s)', (ip, range) => {
    expect(checkAddress(ip)).toEqual({ ok: false, range });
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each(allowed)('allows global unicast %s', (ip) => {
    expect(checkAddress(ip)).toEqual({ ok: true });
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it('lets the operator allow private networks explicitly (tests), but never non-addresses', () => {
    expect(isBlockedAddress('127.0.0.1', true)).toBe(false);
    expect(isBlockedAddress('10.0.0.1', true)).toBe(false);
    expect(isBlockedAddress('nope', true)).toBe(true);
  });

  it.each(['0.0.0.0', '0.1.2.3', '::', '::ffff:0.0.0.0', '255.255.255.255', '224.0.0.1', 'ff02::1'])('refuses %s (this machine itself, or no one host) even where private networks are allowed', (ip) => {
    expect(isBlockedAddress(ip, true)).toBe(true);
  });
});
