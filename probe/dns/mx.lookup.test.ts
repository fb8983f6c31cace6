import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDns, type FakeDns } from '../testing/fake-dns';
import { dnsblListings, dnsblQueryName, isListingAnswer } from './dnsbl';
import { isBlockedAddress } from '../net-guard';
import { lookupMailRoute, sortByPriority } from './mx';
import { DnsCache, dnsErrorKind } from './resolver';

let dns: FakeDns;
const cache = (): DnsCache => new DnsCache({ servers: [dns.server], timeoutMs: 1500 });

beforeAll(async () => {
  dns = await startFakeDns({
    'multi.test': { mx: [[20, 'mx2.multi.test'], [10, 'mx1.multi.test'], [30, 'nowhere.multi.test']] },
    'mx1.multi.test': { a: ['192.0.2.1'], ttl: 60 },
    'mx2.multi.test': { a: ['192.0.2.2', '192.0.2.3'] },
    'implicit.test': { a: ['192.0.2.10'] },
    'implicit6.test': { aaaa: ['2001:db8::10'] },
    'nullmx.test': { mx: [[0, '']] },
    // A null MX published next to real MX records (RFC 7505 3: it MUST NOT be): the domain still
    // says it accepts no mail, and Postfix bounces it as "does not accept mail (nullMX)".
    'nullmx-and-mx.test': { mx: [[0, ''], [10, 'mx1.multi.test']] },
    'mx-and-nullmx.test': { mx: [[10, 'mx1.multi.test'], [20, '']] },
    'bare.test': {},
    'servfail.test': { behaviour: 'servfail' },
    'slow.test': { behaviour: 'timeout' },
    'badhost.test': { mx: [[10, 'broken.badhost.test']] },
    'broken.badhost.test': { behaviour: 'servfail' },
    // CNAMEs: an MX host that is an alias (two links), a domain that is an alias of one with MX,
    // an MX host written in capitals with a trailing dot, an alias to a name that does not exist.
    'aliasmx.test': { mx: [[10, 'MX.AliasMX.Test.']] },
    'mx.aliasmx.test': { cname: 'hop.aliasmx.test' },
    'hop.aliasmx.test': { cname: 'real.aliasmx.test' },
    'real.aliasmx.test': { a: ['192.0.2.20'], ttl: 0 },
    'aliasdomain.test': { cname: 'multi.test' },
    'dangling.test': { cname: 'gone.dangling.test' },
    // MX hosts with no address (NXDOMAIN): 16, all looked up; 20, the last 4 never looked up.
    'sixteen-dead.test': { mx: Array.from({ length: 16 }, (_, i): [number, string] => [10, `d${i}.sixteen-dead.test`]) },
    'twenty-dead.test': { mx: Array.from({ length: 20 }, (_, i): [number, string] => [10, `d${i}.twenty-dead.test`]) },
    // MX records whose exchange is an IP address (RFC 5321 2.3.5: a host name only).
    'numeric.test': { mx: [[10, '192.0.2.40']] },
    'numeric-and-named.test': { mx: [[5, '192.0.2.40'], [10, 'mx1.multi.test']] },
    // An MX host whose A record is a private address (published by mistake, or split-horizon DNS leaking
    // the inside address) while its AAAA record is public; and one whose only A record is 0.0.0.0.
    'split.test': { mx: [[10, 'mx.split.test']] },
    'mx.split.test': { a: ['10.0.0.25'], aaaa: ['2a00:1450:4001:81c::1a'] },
    'split-implicit.test': { a: ['0.0.0.0'], aaaa: ['2a00:1450:4001:81c::1b'] },
    'split-public.test': { mx: [[10, 'mx.split-public.test']] },
    'mx.split-public.test': { a: ['10.0.0.25', '93.184.215.14'], aaaa: ['2a00:1450:4001:81c::1c'] },
    '2.2.0.192.bl.test': { a: ['127.0.0.2'] },
    '3.2.0.192.bl.test': { a: ['127.255.255.254'] },
  });
});
afterAll(() => dns.close());

describe('mail route lookup', () => {
  it('orders MX hosts by priority and drops hosts without addresses', async () => {
    const route = await lookupMailRoute(cache(), 'multi.test');
    expect(route).toEqual({
      kind: 'mx',
      implicit: false,
      hosts: [
        { host: 'mx1.multi.test', priority: 10, ips: ['192.0.2.1'] },
        { host: 'mx2.multi.test', priority: 20, ips: ['192.0.2.2', '192.0.2.3'] },
      ],
    });
  });

  it('follows CNAMEs for MX hosts and for the domain; names are compared without case or trailing dot; TTL 0 is fine', async () => {
    const c = cache();
    expect(await lookupMailRoute(c, 'aliasmx.test')).toEqual({ kind: 'mx', implicit: false, hosts: [{ host: 'mx.aliasmx.test', priority: 10, ips: ['192.0.2.20'] }] });
    expect(await lookupMailRoute(c, 'aliasmx.test')).toMatchObject({ kind: 'mx' }); // a TTL of 0 is cached for a second, not refused
    const alias = await lookupMailRoute(c, 'aliasdomain.test');
    expect(alias.kind === 'mx' && alias.hosts.map((h) => h.host)).toEqual(['mx1.multi.test', 'mx2.multi.test']);
    // An alias whose target does not exist: the resolver's NXDOMAIN, as for any name that does not exist.
    expect((await lookupMailRoute(c, 'dangling.test')).kind).toBe('no_domain');
  });

  it('uses the A record as implicit MX when there is no MX', async () => {
    expect(await lookupMailRoute(cache(), 'implicit.test')).toEqual({ kind: 'mx', implicit: true, hosts: [{ host: 'implicit.test', priority: 0, ips: ['192.0.2.10'] }] });
  });

  it('looks up the AAAA records of a host whose every A record the network guard refuses (a private or unspecified address), as a dual-stack MTA would reach it', async () => {
    const public_ = (ip: string): boolean => !isBlockedAddress(ip, false);
    const c = cache();
    expect(await lookupMailRoute(c, 'split.test', false, public_)).toEqual({ kind: 'mx', implicit: false, hosts: [{ host: 'mx.split.test', priority: 10, ips: ['10.0.0.25', '2a00:1450:4001:81c::1a'] }] });
    expect(await lookupMailRoute(c, 'split-implicit.test', false, public_)).toEqual({ kind: 'mx', implicit: true, hosts: [{ host: 'split-implicit.test', priority: 0, ips: ['0.0.0.0', '2a00:1450:4001:81c::1b'] }] });
    // One usable A record is enough: no AAAA question (IPv4 stays the first choice).
    const asked = dns.queries.length;
    expect(await lookupMailRoute(c, 'split-public.test', false, public_)).toEqual({ kind: 'mx', implicit: false, hosts: [{ host: 'mx.split-public.test', priority: 10, ips: ['10.0.0.25', '93.184.215.14'] }] });
    expect(dns.queries.slice(asked).some((q) => q.type === 28)).toBe(false);
  });

  it('falls back to AAAA for an implicit MX', async () => {
    const route = await lookupMailRoute(cache(), 'implicit6.test');
    expect(route.kind === 'mx' && route.hosts[0]?.ips).toEqual(['2001:db8::10']);
  });

  it('recognises a null MX', async () => {
    expect((await lookupMailRoute(cache(), 'nullmx.test')).kind).toBe('null_mx');
  });

  it('a null MX next to real MX records is still a null MX (as Postfix reads it), whatever its preference', async () => {
    expect((await lookupMailRoute(cache(), 'nullmx-and-mx.test')).kind).toBe('null_mx');
    expect((await lookupMailRoute(cache(), 'mx-and-nullmx.test')).kind).toBe('null_mx');
  });

  it('tells NXDOMAIN (no_domain) from a domain without MX or A (no_mx)', async () => {
    expect((await lookupMailRoute(cache(), 'missing.test')).kind).toBe('no_domain');
    expect((await lookupMailRoute(cache(), 'bare.test')).kind).toBe('no_mx');
  });

  it('reports SERVFAIL and timeouts as dns_error, never as a missing domain', async () => {
    expect((await lookupMailRoute(cache(), 'servfail.test')).kind).toBe('dns_error');
    const t = Date.now();
    expect((await lookupMailRoute(cache(), 'slow.test')).kind).toBe('dns_error');
    expect(Date.now() - t).toBeLessThan(3000);
    expect((await lookupMailRoute(cache(), 'badhost.test')).kind).toBe('dns_error');
  });

  it('sorts by priority stably', () => {
    expect(sortByPriority([{ priority: 5, n: 'a' }, { priority: 1, n: 'b' }, { priority: 5, n: 'c' }]).map((x) => x.n)).toEqual(['b', 'a', 'c']);
  });
});

describe('a DNS server that answers an alias with its CNAME alone (an authoritative server: the target is in another zone)', () => {
  // A recursive resolver would look the target up too; this one leaves it to the asker, and an MTA's
  // resolver repeats the question for the CNAME's target. Never "no mail server" on such an answer.
  let plain: FakeDns;
  beforeAll(async () => {
    plain = await startFakeDns(
      {
        'alias.test': { cname: 'real.test' },
        'real.test': { mx: [[10, 'mx.real.test']] },
        'mx.real.test': { cname: 'mail.hosting.test' },
        'mail.hosting.test': { a: ['192.0.2.30'] },
        'web-alias.test': { cname: 'www.hosting.test' },
        'www.hosting.test': { aaaa: ['2001:db8::30'] },
        'dangling.test': { cname: 'gone.hosting.test' },
        'loop-a.test': { cname: 'loop-b.test' },
        'loop-b.test': { cname: 'loop-a.test' },
      },
      { chase: false },
    );
  });
  afterAll(() => plain.close());
  const c = (): DnsCache => new DnsCache({ servers: [plain.server], timeoutMs: 1500 });

  it('looks the target up itself: a domain that is an alias of one with MX, an MX host that is an alias, an alias with only AAAA (implicit MX)', async () => {
    expect(await lookupMailRoute(c(), 'alias.test')).toEqual({ kind: 'mx', implicit: false, hosts: [{ host: 'mx.real.test', priority: 10, ips: ['192.0.2.30'] }] });
    expect(await lookupMailRoute(c(), 'real.test')).toEqual({ kind: 'mx', implicit: false, hosts: [{ host: 'mx.real.test', priority: 10, ips: ['192.0.2.30'] }] });
    expect(await lookupMailRoute(c(), 'web-alias.test')).toEqual({ kind: 'mx', implicit: true, hosts: [{ host: 'web-alias.test', priority: 0, ips: ['2001:db8::30'] }] });
  });

  it('a DNS server that fails CNAME questions changes nothing: implicit MX and no MX read as before', async () => {
    const noCname = await startFakeDns({ 'web.test': { a: ['192.0.2.31'] }, 'bare.test': {} }, { failTypes: [5] });
    try {
      const d = new DnsCache({ servers: [noCname.server], timeoutMs: 1500 });
      expect(await lookupMailRoute(d, 'web.test')).toEqual({ kind: 'mx', implicit: true, hosts: [{ host: 'web.test', priority: 0, ips: ['192.0.2.31'] }] });
      expect((await lookupMailRoute(d, 'bare.test')).kind).toBe('no_mx');
    } finally {
      await noCname.close();
    }
  });

  it('an alias of a name that does not exist is no_domain; an alias loop ends', async () => {
    expect((await lookupMailRoute(c(), 'dangling.test')).kind).toBe('no_domain');
    expect((await lookupMailRoute(c(), 'loop-a.test')).kind).toBe('no_mx');
  });
});

describe('DNS cache', () => {
  it('asks once for concurrent identical questions and serves repeats from cache', async () => {
    const c = cache();
    const before = dns.queries.filter((q) => q.name === 'multi.test').length;
    await Promise.all([lookupMailRoute(c, 'multi.test'), lookupMailRoute(c, 'multi.test'), lookupMailRoute(c, 'multi.test')]);
    await lookupMailRoute(c, 'multi.test');
    expect(dns.queries.filter((q) => q.name === 'multi.test').length - before).toBe(1);
  });

  it('keeps answers for their TTL', async () => {
    let now = 1_000_000;
    const c = new DnsCache({ servers: [dns.server], timeoutMs: 300, now: () => now });
    const count = () => dns.queries.filter((q) => q.name === 'mx1.multi.test' && q.type === 1).length;
    const before = count();
    await c.a('mx1.multi.test');
    now += 59_000;
    await c.a('mx1.multi.test');
    expect(count() - before).toBe(1);
    now += 2_000; // past the 60 s TTL
    await c.a('mx1.multi.test');
    expect(count() - before).toBe(2);
  });

  it('maps resolver error codes', () => {
    expect(['ENOTFOUND', 'ENODATA', 'ETIMEOUT', 'ESERVFAIL', 'EREFUSED', 'EBADRESP'].map(dnsErrorKind)).toEqual(['nxdomain', 'nodata', 'timeout', 'servfail', 'refused', 'other']);
  });
});

describe('DNSBL', () => {
  it('builds reverse-octet query names', () => {
    expect(dnsblQueryName('192.0.2.1', 'zen.example')).toBe('1.2.0.192.zen.example');
    expect(dnsblQueryName('2001:db8::1', 'zen.example')).toBeNull();
  });

  it('counts 127.0.0.x answers as listings but not the 127.255.255.x error codes', async () => {
    expect(isListingAnswer('127.0.0.2')).toBe(true);
    expect(isListingAnswer('127.255.255.254')).toBe(false);
    const c = cache();
    expect(await dnsblListings(c, '192.0.2.2', ['bl.test'])).toEqual(['bl.test']);
    expect(await dnsblListings(c, '192.0.2.3', ['bl.test'])).toEqual([]);
    expect(await dnsblListings(c, '192.0.2.4', ['bl.test'])).toEqual([]);
  });
});

describe('a domain with more MX hosts than are looked up (MAX_MX_HOSTS_LOOKED_UP)', () => {
  it('is no_mx only when every host was looked up; with hosts left unasked it is unknown (dns_error), never undeliverable on a guess', async () => {
    const c = cache();
    try {
      expect(await lookupMailRoute(c, 'sixteen-dead.test')).toMatchObject({ kind: 'no_mx' });
      expect(await lookupMailRoute(c, 'twenty-dead.test')).toMatchObject({ kind: 'dns_error', detail: expect.stringContaining('first 16 of 20 MX hosts') });
      // Only the first 16 were asked about (A, then AAAA), not the last 4.
      expect(dns.queries.some((q) => q.name === 'd16.twenty-dead.test')).toBe(false);
      expect(dns.queries.some((q) => q.name === 'd15.twenty-dead.test')).toBe(true);
    } finally {
      c.close();
    }
  });
});

describe('an MX record naming an IP address instead of a host (MX 10 192.0.2.40)', () => {
  it('is no mail host, as for Postfix and Exim: alone it is unknown (dns_error), never a server to ask', async () => {
    const c = cache();
    try {
      expect(await lookupMailRoute(c, 'numeric.test')).toMatchObject({ kind: 'dns_error', detail: expect.stringContaining('name IP addresses (192.0.2.40)') });
      expect(await lookupMailRoute(c, 'numeric-and-named.test')).toEqual({ kind: 'mx', implicit: false, hosts: [{ host: 'mx1.multi.test', priority: 10, ips: ['192.0.2.1'] }] });
    } finally {
      c.close();
    }
  });
});
