// The scenario world: one domain per behaviour the verifier must get right. Every address listed
// gets a ground-truth entry (truth.ts). Hosts live on 127.77.<scenario>.<host> (see ScenarioParams.net).
import type { DomainSpec, ServerSpec } from './types';

export interface ScenarioParams {
  /** Greylisting window of the `greylist` scenario (ms). */
  greylistMs?: number;
  /** Extra banner delay of the `tarpit` scenario (ms). */
  tarpitMs?: number;
  /** RCPTs per session before `452 4.5.3` in the `rcpt-limit` scenario. */
  rcptLimit?: number;
  /** Concurrent connections per client IP before `421` in the `conn-limit` scenario. */
  connLimit?: number;
  /** Parent of every scenario domain (default 'mailworld.test'; benchmarks use a public-suffix-valid one). */
  suffix?: string;
  /** Second octet of every scenario host address (127.<net>.<scenario>.<host>, default 77). */
  net?: number;
  /**
   * Banner delay of the slow-greeting servers (`slow-primary`, `slow-lone`; ms, default 700): longer
   * than the verifier's MX head start, shorter than its banner timeout.
   */
  slowBannerMs?: number;
}


function numbered(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`);
}

export function buildScenarios(p: ScenarioParams = {}): DomainSpec[] {
  const greylistMs = p.greylistMs ?? 400;
  const tarpitMs = p.tarpitMs ?? 600;
  const rcptLimit = p.rcptLimit ?? 3;
  const connLimit = p.connLimit ?? 2;
  const suffix = p.suffix ?? 'mailworld.test';
  const slowBannerMs = p.slowBannerMs ?? 700;
  const net = p.net ?? 77;
  const ip = (scenario: number, host = 1): string => `127.${net}.${scenario}.${host}`;
  const mx = (n: number, server: ServerSpec | undefined, domain: string): DomainSpec['mx'] => [{ host: `mx1.${domain}`, priority: 10, ip: ip(n), server }];
  // A row: scenario number (its host addresses), name (its domain under the suffix) and what sets it
  // apart. Unless a row says otherwise: one MX (mx1.<domain>, its server behaving as `server`
  // says), alice exists, and alice and ghost are asked.
  type Row = Omit<DomainSpec, 'domain' | 'mx' | 'addresses'> & { name: string; server?: ServerSpec; mx?: DomainSpec['mx']; addresses?: string[] };
  const d = (n: number, row: Row): DomainSpec => {
    const { name, server, mailboxes, addresses, ...rest } = row;
    const domain = `${name}.${suffix}`;
    return { domain, mx: row.mx ?? mx(n, server, domain), mailboxes: mailboxes ?? { alice: 'ok' }, addresses: addresses ?? ['alice', 'ghost'], ...rest };
  };
  /** Two MX hosts of one scenario: mx1 at priority p1 behaving as s1, mx2 at p2 behaving as s2. */
  const pair = (n: number, name: string, [p1, s1]: [number, ServerSpec | undefined], [p2, s2]: [number, ServerSpec | undefined]): DomainSpec['mx'] => [
    { host: `mx1.${name}.${suffix}`, priority: p1, ip: ip(n, 1), server: s1 },
    { host: `mx2.${name}.${suffix}`, priority: p2, ip: ip(n, 2), server: s2 },
  ];
  /** A scenario whose only MX is a named provider's host (its greeting says who runs it). */
  const hosted = (n: number, host: string, priority: number, persona: ServerSpec['persona']): DomainSpec['mx'] => [{ host, priority, ip: ip(n), server: { persona } }];
  const okAll = (users: string[]): Record<string, 'ok'> => Object.fromEntries(users.map((u) => [u, 'ok' as const]));
  const alice = ['alice'];
  const rcptUsers = numbered('user', 12);
  const connUsers = numbered('member', 24);
  const staff = numbered('staff', 6);
  return [
    d(1, { name: 'normal', scenario: 'existing and unknown mailboxes (550 5.1.1), role address', mailboxes: okAll(['alice', 'bob', 'info']), addresses: ['alice', 'bob', 'ghost', 'info'] }),
    d(2, { name: 'catch-all', scenario: 'catch-all: every RCPT accepted', catchAll: true, addresses: ['alice', 'whoever'] }),
    d(3, { name: 'greylist', scenario: `greylisting: 451 4.7.1 per triplet for ${greylistMs} ms, then real answer`, greylistMs }),
    d(4, { name: 'greylist-forever', scenario: 'greylisting never cleared (451 4.7.1 forever)', greylistMs: Infinity, addresses: alice }),
    d(5, { name: 'policy-block', scenario: 'reputation block at RCPT (550 5.7.1)', policyBlock: true }),
    d(6, { name: 'policy-banner', scenario: 'reputation block at connect (554 5.7.1 greeting)', server: { mode: 'policy-banner' }, addresses: alice }),
    d(7, { name: 'mailbox-states', scenario: 'full (552 5.2.2, 452 4.2.2) and disabled (550 5.2.1) mailboxes', mailboxes: { full: 'full', fulltemp: 'full-temp', gone: 'disabled', alice: 'ok' }, addresses: ['full', 'fulltemp', 'gone'] }),
    d(8, { name: 'tarpit', scenario: `tarpit banner (+${tarpitMs} ms)`, server: { bannerDelayMs: tarpitMs } }),
    d(9, { name: 'silent', scenario: 'silent server (accepts TCP, never greets)', server: { mode: 'silent' }, addresses: alice }),
    d(10, { name: 'refused', scenario: 'connection refused (nothing listening)', server: { mode: 'refused' }, addresses: alice }),
    d(11, { name: 'busy', scenario: 'always 421 4.3.2 on connect', server: { mode: 'busy' }, addresses: alice }),
    d(12, { name: 'dead-primary', scenario: 'dead primary MX (refused), live secondary', mx: pair(12, 'dead-primary', [10, { mode: 'refused' }], [20, undefined]) }),
    d(13, { name: 'silent-primary', scenario: 'silent primary MX, live secondary', mx: pair(13, 'silent-primary', [5, { mode: 'silent' }], [50, undefined]) }),
    d(14, { name: 'implicit-mx', scenario: 'no MX record, A record (implicit MX)', mx: [], aRecords: [{ ip: ip(14) }] }),
    d(15, { name: 'null-mx', scenario: 'null MX (0 .)', mx: [], nullMx: true, mailboxes: {}, addresses: alice }),
    d(16, { name: 'nxdomain', scenario: 'NXDOMAIN', mx: [], dns: 'nxdomain', mailboxes: {}, addresses: alice }),
    d(17, { name: 'dns-timeout', scenario: 'DNS never answers', mx: [], dns: 'timeout', mailboxes: {}, addresses: alice }),
    d(18, { name: 'servfail', scenario: 'DNS SERVFAIL', mx: [], dns: 'servfail', mailboxes: {}, addresses: alice }),
    d(19, { name: 'no-mx', scenario: 'domain exists, no MX and no A', mx: [], mailboxes: {}, addresses: alice }),
    d(20, { name: 'rcpt-limit', scenario: `recipient limit (452 4.5.3 after ${rcptLimit} RCPTs per session)`, server: { maxRcptsPerSession: rcptLimit }, mailboxes: okAll(rcptUsers.slice(0, 9)), addresses: rcptUsers }),
    d(21, { name: 'conn-limit', scenario: `connection limit (421 beyond ${connLimit} concurrent connections per client)`, server: { maxConnectionsPerIp: connLimit, maxRcptsPerSession: 4 }, mailboxes: okAll(connUsers.slice(0, 18)), addresses: connUsers }),
    d(22, { name: 'starttls', scenario: 'STARTTLS required before MAIL (530 5.7.0 otherwise)', server: { starttls: true, requireTls: true } }),
    d(23, { name: 'helo-only', scenario: 'EHLO not supported (502), HELO works', server: { ehlo: false } }),
    d(24, { name: 'no-pipelining', scenario: 'no PIPELINING extension', server: { pipelining: false }, mailboxes: okAll(['alice', 'bob']), addresses: ['alice', 'bob', 'ghost'] }),
    d(25, { name: 'dnsbl-listed', scenario: 'MX listed in the DNSBL (score only, verdict unchanged)', server: { dnsblListed: true }, addresses: alice }),
    d(27, { name: 'multiline', scenario: 'multi-line banner and multi-line 550 5.1.1 (Gmail style)', server: { multiline: true } }),
    d(28, { name: 'legacy', scenario: 'no enhanced status codes ("550 No such user here")', server: { enhancedCodes: false } }),
    d(29, {
      name: 'mx-no-address',
      scenario: 'primary MX host has no A record, secondary live',
      mx: [
        { host: `mx1.mx-no-address.${suffix}`, priority: 10 },
        { host: `mx2.mx-no-address.${suffix}`, priority: 20, ip: ip(29, 2) },
      ],
    }),
    d(30, { name: 'greylist-catch-all', scenario: `catch-all behind greylisting (${greylistMs} ms): the random RCPT must be retried too`, greylistMs, catchAll: true, mailboxes: {}, addresses: ['alice', 'whoever'] }),
    d(31, { name: 'sender-reject', scenario: 'MAIL FROM refused with 550 5.7.1 (policy, says nothing about the mailbox)', server: { rejectMailFrom: true } }),
    d(33, { name: 'drop-mid-session', scenario: 'closes with 421 4.4.2 after 2 RCPTs in a session', server: { closeAfterRcpts: 2 }, mailboxes: okAll(staff.slice(0, 4)), addresses: staff }),
    d(34, { name: 'starttls-optional', scenario: 'STARTTLS offered, not required', server: { starttls: true } }),
    d(35, { name: 'slow-primary', scenario: `primary MX greets after ${slowBannerMs} ms, live secondary: asked in parallel after the head start`, mx: pair(35, 'slow-primary', [10, { bannerDelayMs: slowBannerMs }], [20, undefined]), mailboxes: okAll(['alice', 'bob']), addresses: ['alice', 'bob', 'ghost'] }),
    d(36, { name: 'accept-all-backup', scenario: 'silent primary MX, backup MX that accepts every recipient (store and forward)', mx: pair(36, 'accept-all-backup', [10, { mode: 'silent' }], [20, { acceptAll: true }]) }),
    d(37, { name: 'slow-lone', scenario: `only MX greets after ${slowBannerMs} ms: waited for up to the banner timeout`, server: { bannerDelayMs: slowBannerMs } }),
    d(38, { name: 'm365-tenant', scenario: 'Microsoft 365 tenant rejecting unknown recipients (550 5.4.1 Recipient address rejected: Access denied)', mx: hosted(38, 'm365-tenant-mailworld-test.mail.protection.outlook.com', 0, 'm365'), rejectUnknown: 'm365', mailboxes: okAll(['alice', 'bob']), addresses: ['alice', 'bob', 'ghost'] }),
    d(39, { name: 'm365-relay', scenario: 'Microsoft 365 tenant in Internal Relay: accepts every recipient', mx: hosted(39, 'm365-relay-mailworld-test.mail.protection.outlook.com', 0, 'm365'), catchAll: true, addresses: ['alice', 'whoever'] }),
    d(40, { name: 'gateway-accept', scenario: 'security gateway (Proofpoint style) accepting every recipient at RCPT, policy later', mx: hosted(40, 'mx0a-gateway-accept.pphosted.com', 10, 'proofpoint'), catchAll: true, addresses: ['alice', 'whoever'] }),
    d(41, { name: 'gateway-policy', scenario: 'security gateway (Mimecast style) refusing unknown recipients with a policy code (550 5.7.1)', mx: hosted(41, 'eu-smtp-inbound-1.mimecast.com', 10, 'mimecast'), rejectUnknown: 'policy' }),
    d(42, { name: 'gateway-validating', scenario: 'security gateway (Barracuda style) that validates recipients (550 5.1.1): conclusive', mx: hosted(42, 'd42.ess.barracudanetworks.com', 10, 'barracuda') }),
    d(32, { name: 'xn--bcher-kva', scenario: 'IDN domain (bücher), served under its A-label' }),
    { ...d(26, { name: 'mailinator', scenario: 'disposable provider (served locally)', disposable: true, addresses: alice }), domain: 'mailinator.com', mx: [{ host: 'mail.mailinator.com', priority: 10, ip: ip(26) }] },
  ];
}

/** The scenario list with its default parameters (400 ms greylisting, 600 ms tarpit, K=3, C=2). */
export const defaultScenarios: DomainSpec[] = buildScenarios();

/**
 * Receivers met on the open internet that the scenario list lacks, each with its ground truth: an MX
 * name that is an alias (CNAME), MX and implicit MX over IPv6 only (`ipv6`: where ::1 can be bound),
 * MX names on unspecified addresses (nobody may connect there), an EHLO reply with mixed separators,
 * and refusals about us worded or coded like "no such user". Hosts on 127.<net>.<n>.<h> (default 79).
 */
export function receiverScenarios(o: { suffix?: string; net?: number; ipv6?: boolean } = {}): DomainSpec[] {
  const suffix = o.suffix ?? 'mailworld.test';
  const ip = (n: number, h = 1): string => `127.${o.net ?? 79}.${n}.${h}`;
  const d = (name: string, row: Omit<DomainSpec, 'domain' | 'addresses' | 'mailboxes'> & { addresses?: string[] }): DomainSpec => ({
    domain: `${name}.${suffix}`,
    mailboxes: { alice: 'ok' },
    addresses: ['alice', 'ghost'],
    ...row,
  });
  const one = (n: number, name: string, server?: ServerSpec): DomainSpec['mx'] => [{ host: `mx1.${name}.${suffix}`, priority: 10, ip: ip(n), server }];
  const refusal = (n: number, name: string, scenario: string, text: string): DomainSpec => d(name, { scenario, mx: one(n, name), policyRefusal: text });
  return [
    d('cname-mx', { scenario: 'MX host name is an alias (CNAME) of the name with the address', mx: [{ host: `mx1.cname-mx.${suffix}`, cname: `real-host.cname-mx.${suffix}`, priority: 10, ip: ip(1) }] }),
    d('unspecified-mx', { scenario: 'the only MX resolves to 0.0.0.0 (never connected)', mx: [{ host: `mx1.unspecified-mx.${suffix}`, priority: 10, ip: '0.0.0.0' }], addresses: ['alice'] }),
    d('unspecified-primary', {
      scenario: 'primary MX resolves to :: (never connected), the backup is live',
      mx: [
        { host: `mx1.unspecified-primary.${suffix}`, priority: 10, ip: '::' },
        { host: `mx2.unspecified-primary.${suffix}`, priority: 20, ip: ip(3, 2) },
      ],
    }),
    d('ehlo-mixed', { scenario: 'EHLO reply with mixed separators (250-, then 250 before a middle line)', mx: one(4, 'ehlo-mixed', { ehloMixedSeparators: true }) }),
    refusal(5, 'spamhaus-bare', 'bare 550 naming a blocklist', '550 Service unavailable; client [127.0.0.1] blocked using zen.spamhaus.org'),
    refusal(6, 'not-authorized', '550 5.1.1 for a sender not authorized', '550 5.1.1 Sender not authorized'),
    refusal(7, 'blocked-511', '550 5.1.1 saying our IP is blocked', '550 5.1.1 Recipient address rejected: Your IP has been blocked'),
    refusal(8, 'policy-571', '550 5.7.1 local policy', '550 5.7.1 Message rejected due to local policy'),
    refusal(9, 'receiving-rate', "Gmail's permanent receiving-rate refusal, under the code of a disabled mailbox (550 5.2.1)", '550 5.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered.'),
    refusal(10, 'unverified-loop', "Postfix reject_unverified_recipient whose probe looped (a relay misconfigured): 550 5.1.1 … undeliverable address", '550 5.1.1 Recipient address rejected: undeliverable address: mail for example.com loops back to myself'),
    ...(o.ipv6
      ? [
          d('aaaa-mx', { scenario: 'MX host with only an AAAA record (::1)', mx: [{ host: `mx1.aaaa-mx.${suffix}`, priority: 10, ip: '::1' }] }),
          d('implicit-aaaa', { scenario: 'no MX, only an AAAA record on the domain (implicit MX over IPv6)', mx: [], aRecords: [{ ip: '::1' }] }),
          // One MX host, two addresses: an A record nobody may connect to (as a private address published by mistake) and an AAAA record.
          d('split-stack', {
            scenario: 'MX host whose A record is 0.0.0.0 and whose AAAA record is ::1 (reached over IPv6)',
            mx: [
              { host: `mx1.split-stack.${suffix}`, priority: 10, ip: '0.0.0.0' },
              { host: `mx1.split-stack.${suffix}`, priority: 10, ip: '::1' },
            ],
          }),
        ]
      : []),
  ];
}
