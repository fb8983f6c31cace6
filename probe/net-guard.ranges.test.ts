import { describe, expect, it } from 'vitest';
import { checkAddress, isBlockedAddress } from './net-guard';

const blocked: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.77.1.1', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.100.100.200', 'carrierGradeNat'],
  ['0.0.0.0', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'linkLocal'],
  ['fd00:ec2::254', 'uniqueLocal'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['2002:7f00:1::1', '6to4'],
  ['64:ff9b::a00:1', 'rfc6052'],
  ['2001::1', 'teredo'],
  ['not-an-ip', 'invalid'],
];

describe('network guard', () => {
  it.each(blocked)('refuses %s (%s)', (ip, range) => {
    expect(checkAddress(ip)).toEqual({ ok: false, range });
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '203.0.114.1', '142.250.74.5', '2a00:1450:4001:82b::200e', '::ffff:8.8.8.8'])('allows public address %s', (ip) => {
    expect(checkAddress(ip)).toEqual({ ok: true });
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it('lets the operator allow private networks explicitly (tests), but never non-addresses', () => {
    expect(isBlockedAddress('127.0.0.1', true)).toBe(false);
    expect(isBlockedAddress('10.0.0.1', true)).toBe(false);
    expect(isBlockedAddress('nope', true)).toBe(true);
  });
});
