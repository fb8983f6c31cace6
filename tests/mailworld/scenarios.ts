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
  const mx = (n: number, server: ServerSpec | undefined, domain: string): DomainSpec['mx'] => [
    { host: `mx1.${domain}`, priority: 10, ip: ip(n), server },
  ];
  const d = (n: number, spec: Omit<DomainSpec, 'domain' | 'mx'> & { name: string; server?: ServerSpec; mx?: DomainSpec['mx'] }): DomainSpec => {
    const { name, server, ...rest } = spec;
    const domain = `${name}.${suffix}`;
    return { domain, mx: spec.mx ?? mx(n, server, domain), ...rest };
  };
  const rcptUsers = numbered('user', 12);
  const connUsers = numbered('member', 24);
  return [
    d(1, {
      name: 'normal',
      scenario: 'existing and unknown mailboxes (550 5.1.1), role address',
      mailboxes: { alice: 'ok', bob: 'ok', info: 'ok' },
      addresses: ['alice', 'bob', 'ghost', 'info'],
    }),
    d(2, {
      name: 'catch-all',
      scenario: 'catch-all: every RCPT accepted',
      catchAll: true,
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'whoever'],
    }),
    d(3, {
      name: 'greylist',
      scenario: `greylisting: 451 4.7.1 per triplet for ${greylistMs} ms, then real answer`,
      greylistMs,
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(4, {
      name: 'greylist-forever',
      scenario: 'greylisting never cleared (451 4.7.1 forever)',
      greylistMs: Infinity,
      mailboxes: { alice: 'ok' },
      addresses: ['alice'],
    }),
    d(5, {
      name: 'policy-block',
      scenario: 'reputation block at RCPT (550 5.7.1)',
      policyBlock: true,
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(6, {
      name: 'policy-banner',
      scenario: 'reputation block at connect (554 5.7.1 greeting)',
      server: { mode: 'policy-banner' },
      mailboxes: { alice: 'ok' },
      addresses: ['alice'],
    }),
    d(7, {
      name: 'mailbox-states',
      scenario: 'full (552 5.2.2, 452 4.2.2) and disabled (550 5.2.1) mailboxes',
      mailboxes: { full: 'full', fulltemp: 'full-temp', gone: 'disabled', alice: 'ok' },
      addresses: ['full', 'fulltemp', 'gone'],
    }),
    d(8, {
      name: 'tarpit',
      scenario: `tarpit banner (+${tarpitMs} ms)`,
      server: { bannerDelayMs: tarpitMs },
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(9, {
      name: 'silent',
      scenario: 'silent server (accepts TCP, never greets)',
      server: { mode: 'silent' },
      mailboxes: { alice: 'ok' },
      addresses: ['alice'],
    }),
    d(10, {
      name: 'refused',
      scenario: 'connection refused (nothing listening)',
      server: { mode: 'refused' },
      mailboxes: { alice: 'ok' },
      addresses: ['alice'],
    }),
    d(11, {
      name: 'busy',
      scenario: 'always 421 4.3.2 on connect',
      server: { mode: 'busy' },
      mailboxes: { alice: 'ok' },
      addresses: ['alice'],
    }),
    d(12, {
      name: 'dead-primary',
      scenario: 'dead primary MX (refused), live secondary',
      mx: [
        { host: `mx1.dead-primary.${suffix}`, priority: 10, ip: ip(12, 1), server: { mode: 'refused' } },
        { host: `mx2.dead-primary.${suffix}`, priority: 20, ip: ip(12, 2) },
      ],
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(13, {
      name: 'silent-primary',
      scenario: 'silent primary MX, live secondary',
      mx: [
        { host: `mx1.silent-primary.${suffix}`, priority: 5, ip: ip(13, 1), server: { mode: 'silent' } },
        { host: `mx2.silent-primary.${suffix}`, priority: 50, ip: ip(13, 2) },
      ],
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(14, {
      name: 'implicit-mx',
      scenario: 'no MX record, A record (implicit MX)',
      mx: [],
      aRecords: [{ ip: ip(14) }],
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(15, { name: 'null-mx', scenario: 'null MX (0 .)', mx: [], nullMx: true, addresses: ['alice'] }),
    d(16, { name: 'nxdomain', scenario: 'NXDOMAIN', mx: [], dns: 'nxdomain', addresses: ['alice'] }),
    d(17, { name: 'dns-timeout', scenario: 'DNS never answers', mx: [], dns: 'timeout', addresses: ['alice'] }),
    d(18, { name: 'servfail', scenario: 'DNS SERVFAIL', mx: [], dns: 'servfail', addresses: ['alice'] }),
    d(19, { name: 'no-mx', scenario: 'domain exists, no MX and no A', mx: [], addresses: ['alice'] }),
    d(20, {
      name: 'rcpt-limit',
      scenario: `recipient limit (452 4.5.3 after ${rcptLimit} RCPTs per session)`,
      server: { maxRcptsPerSession: rcptLimit },
      mailboxes: Object.fromEntries(rcptUsers.slice(0, 9).map((u) => [u, 'ok' as const])),
      addresses: rcptUsers,
    }),
    d(21, {
      name: 'conn-limit',
      scenario: `connection limit (421 beyond ${connLimit} concurrent connections per client)`,
      server: { maxConnectionsPerIp: connLimit, maxRcptsPerSession: 4 },
      mailboxes: Object.fromEntries(connUsers.slice(0, 18).map((u) => [u, 'ok' as const])),
      addresses: connUsers,
    }),
    d(22, {
      name: 'starttls',
      scenario: 'STARTTLS required before MAIL (530 5.7.0 otherwise)',
      server: { starttls: true, requireTls: true },
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(23, {
      name: 'helo-only',
      scenario: 'EHLO not supported (502), HELO works',
      server: { ehlo: false },
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(24, {
      name: 'no-pipelining',
      scenario: 'no PIPELINING extension',
      server: { pipelining: false },
      mailboxes: { alice: 'ok', bob: 'ok' },
      addresses: ['alice', 'bob', 'ghost'],
    }),
    d(25, {
      name: 'dnsbl-listed',
      scenario: 'MX listed in the DNSBL (score only, verdict unchanged)',
      server: { dnsblListed: true },
      mailboxes: { alice: 'ok' },
      addresses: ['alice'],
    }),
    d(27, {
      name: 'multiline',
      scenario: 'multi-line banner and multi-line 550 5.1.1 (Gmail style)',
      server: { multiline: true },
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(28, {
      name: 'legacy',
      scenario: 'no enhanced status codes ("550 No such user here")',
      server: { enhancedCodes: false },
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(29, {
      name: 'mx-no-address',
      scenario: 'primary MX host has no A record, secondary live',
      mx: [
        { host: `mx1.mx-no-address.${suffix}`, priority: 10 },
        { host: `mx2.mx-no-address.${suffix}`, priority: 20, ip: ip(29, 2) },
      ],
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(30, {
      name: 'greylist-catch-all',
      scenario: `catch-all behind greylisting (${greylistMs} ms): the random RCPT must be retried too`,
      greylistMs,
      catchAll: true,
      addresses: ['alice', 'whoever'],
    }),
    d(31, {
      name: 'sender-reject',
      scenario: 'MAIL FROM refused with 550 5.7.1 (policy, says nothing about the mailbox)',
      server: { rejectMailFrom: true },
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(33, {
      name: 'drop-mid-session',
      scenario: 'closes with 421 4.4.2 after 2 RCPTs in a session',
      server: { closeAfterRcpts: 2 },
      mailboxes: Object.fromEntries(numbered('staff', 6).slice(0, 4).map((u) => [u, 'ok' as const])),
      addresses: numbered('staff', 6),
    }),
    d(34, {
      name: 'starttls-optional',
      scenario: 'STARTTLS offered, not required',
      server: { starttls: true },
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(35, {
      name: 'slow-primary',
      scenario: `primary MX greets after ${slowBannerMs} ms, live secondary: asked in parallel after the head start`,
      mx: [
        { host: `mx1.slow-primary.${suffix}`, priority: 10, ip: ip(35, 1), server: { bannerDelayMs: slowBannerMs } },
        { host: `mx2.slow-primary.${suffix}`, priority: 20, ip: ip(35, 2) },
      ],
      mailboxes: { alice: 'ok', bob: 'ok' },
      addresses: ['alice', 'bob', 'ghost'],
    }),
    d(36, {
      name: 'accept-all-backup',
      scenario: 'silent primary MX, backup MX that accepts every recipient (store and forward)',
      mx: [
        { host: `mx1.accept-all-backup.${suffix}`, priority: 10, ip: ip(36, 1), server: { mode: 'silent' } },
        { host: `mx2.accept-all-backup.${suffix}`, priority: 20, ip: ip(36, 2), server: { acceptAll: true } },
      ],
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(37, {
      name: 'slow-lone',
      scenario: `only MX greets after ${slowBannerMs} ms: waited for up to the banner timeout`,
      server: { bannerDelayMs: slowBannerMs },
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(38, {
      name: 'm365-tenant',
      scenario: 'Microsoft 365 tenant rejecting unknown recipients (550 5.4.1 Recipient address rejected: Access denied)',
      mx: [{ host: `m365-tenant-mailworld-test.mail.protection.outlook.com`, priority: 0, ip: ip(38), server: { persona: 'm365' } }],
      rejectUnknown: 'm365',
      mailboxes: { alice: 'ok', bob: 'ok' },
      addresses: ['alice', 'bob', 'ghost'],
    }),
    d(39, {
      name: 'm365-relay',
      scenario: 'Microsoft 365 tenant in Internal Relay: accepts every recipient',
      mx: [{ host: `m365-relay-mailworld-test.mail.protection.outlook.com`, priority: 0, ip: ip(39), server: { persona: 'm365' } }],
      catchAll: true,
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'whoever'],
    }),
    d(40, {
      name: 'gateway-accept',
      scenario: 'security gateway (Proofpoint style) accepting every recipient at RCPT, policy later',
      mx: [{ host: `mx0a-gateway-accept.pphosted.com`, priority: 10, ip: ip(40), server: { persona: 'proofpoint' } }],
      catchAll: true,
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'whoever'],
    }),
    d(41, {
      name: 'gateway-policy',
      scenario: 'security gateway (Mimecast style) refusing unknown recipients with a policy code (550 5.7.1)',
      mx: [{ host: `eu-smtp-inbound-1.mimecast.com`, priority: 10, ip: ip(41), server: { persona: 'mimecast' } }],
      rejectUnknown: 'policy',
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    d(42, {
      name: 'gateway-validating',
      scenario: 'security gateway (Barracuda style) that validates recipients (550 5.1.1): conclusive',
      mx: [{ host: `d42.ess.barracudanetworks.com`, priority: 10, ip: ip(42), server: { persona: 'barracuda' } }],
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    }),
    {
      domain: `xn--bcher-kva.${suffix}`,
      scenario: 'IDN domain (bücher), served under its A-label',
      mx: [{ host: `mx1.xn--bcher-kva.${suffix}`, priority: 10, ip: ip(32) }],
      mailboxes: { alice: 'ok' },
      addresses: ['alice', 'ghost'],
    },
    {
      domain: 'mailinator.com',
      scenario: 'disposable provider (served locally)',
      disposable: true,
      mx: [{ host: 'mail.mailinator.com', priority: 10, ip: ip(26) }],
      mailboxes: { alice: 'ok' },
      addresses: ['alice'],
    },
  ];
}

/** The scenario list with its default parameters (400 ms greylisting, 600 ms tarpit, K=3, C=2). */
export const defaultScenarios: DomainSpec[] = buildScenarios();
