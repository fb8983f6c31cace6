// Programmatic "bulk" domains for benchmarks: a few large providers with thousands of addresses,
// a middle tier, and a long tail of small domains on shared hosting IPs, with a known mix of
// existing, unknown, full and disabled mailboxes, catch-alls, greylisting, tarpits and dead domains.
// Deterministic for a given seed. Hosts live on 127.88.x.y (providers, corporate) and 127.89.x.y
// (shared hosting).
import type { DomainSpec, MailboxState, ServerSpec } from './types';

export interface BulkParams {
  /** Number of domains (default 220, at least 30). */
  domains?: number;
  /** Total addresses across all domains (default 10,000). */
  addresses?: number;
  seed?: number;
  /** Greylisting window for the few greylisting domains (ms, default 3000). */
  greylistMs?: number;
  /** Banner delay of the tarpitting shared hosts (ms, default 1500). */
  tarpitMs?: number;
  /** Top-level suffix of every generated name (default 'test'; benchmarks use 'com' so peers' TLD checks pass). */
  tld?: string;
  /** Second octet of provider/corporate hosts (default 88); shared hosting uses net + 1. */
  net?: number;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['anna', 'ben', 'carla', 'dev', 'elena', 'farid', 'grace', 'hugo', 'ines', 'jon', 'kira', 'liam', 'maya', 'noah', 'olga', 'priya', 'quinn', 'raj', 'sara', 'tom', 'uma', 'vik', 'wen', 'xavi', 'yara', 'zoe'];
const LAST = ['smith', 'khan', 'garcia', 'muller', 'rossi', 'tanaka', 'silva', 'novak', 'ali', 'berg', 'costa', 'dubois', 'evans', 'fischer', 'gupta', 'hansen'];

export function generateBulkDomains(p: BulkParams = {}): DomainSpec[] {
  const domainCount = Math.max(30, p.domains ?? 220);
  const total = p.addresses ?? 10_000;
  const greylistMs = p.greylistMs ?? 3000;
  const tarpitMs = p.tarpitMs ?? 1500;
  const rand = mulberry32(p.seed ?? 42);
  const tld = p.tld ?? 'test';
  const net = p.net ?? 88;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;

  // Address counts: 4 providers take 53%, 16 corporate domains 2% each, the tail the rest (Zipf).
  const providerShares = [0.22, 0.15, 0.1, 0.06];
  const corpCount = 16;
  const tailCount = domainCount - providerShares.length - corpCount;
  const counts: number[] = providerShares.map((s) => Math.round(total * s));
  for (let i = 0; i < corpCount; i++) counts.push(Math.round(total * 0.02));
  const tailTotal = total - counts.reduce((a, b) => a + b, 0);
  const zipf = Array.from({ length: tailCount }, (_, i) => 1 / (i + 1) ** 0.9);
  const zsum = zipf.reduce((a, b) => a + b, 0);
  // Every tail domain gets at least one address when there are enough to go round.
  const floor = tailTotal >= tailCount ? 1 : 0;
  const tail = zipf.map((z) => Math.max(floor, Math.floor((z / zsum) * Math.max(0, tailTotal))));
  let rest = Math.max(0, tailTotal) - tail.reduce((a, b) => a + b, 0);
  for (let i = 0; rest > 0; i = (i + 1) % tailCount, rest--) tail[i] = (tail[i] ?? 0) + 1;
  for (let i = tailCount - 1; rest < 0; i = (i - 1 + tailCount) % tailCount) {
    if ((tail[i] ?? 0) > floor) {
      tail[i] = (tail[i] ?? 0) - 1;
      rest++;
    }
  }
  counts.push(...tail);

  // Shared hosting IPs for the tail: 12 hosts, two of them tarpit their banner.
  const shared: { ip: string; server: ServerSpec }[] = Array.from({ length: 12 }, (_, i) => ({
    ip: `127.${net + 1}.0.${i + 1}`,
    server: i < 2 ? { bannerDelayMs: tarpitMs } : i === 2 ? { starttls: true } : {},
  }));

  const domains: DomainSpec[] = [];
  counts.forEach((count, i) => {
    const isProvider = i < providerShares.length;
    const isCorp = !isProvider && i < providerShares.length + corpCount;
    const name = isProvider ? `bigmail-${i + 1}.${tld}` : isCorp ? `corp-${i - providerShares.length + 1}.${tld}` : `tail-${i - providerShares.length - corpCount + 1}.${tld}`;
    const spec: DomainSpec = { domain: name, scenario: isProvider ? 'bulk provider' : isCorp ? 'bulk corporate' : 'bulk tail', addresses: [], mailboxes: {} };
    if (isProvider) {
      const servers: ServerSpec[] = [{ maxRcptsPerSession: 50 }, { maxRcptsPerSession: 10 }, { maxConnectionsPerIp: 8 }, {}];
      spec.mx = [1, 2, 3].map((h) => ({
        host: `mx${h}.${name}`,
        priority: h === 3 ? 20 : 10,
        ip: `127.${net}.${i + 1}.${h}`,
        server: servers[i],
      }));
    } else if (isCorp) {
      spec.mx = [{ host: `mail.${name}`, priority: 10, ip: `127.${net}.${i + 1}.1`, server: {} }];
    } else {
      const r = rand();
      if (r < 0.02) spec.dns = 'nxdomain';
      else if (r < 0.03) spec.nullMx = true;
      else {
        const host = pick(shared);
        spec.mx = [{ host: `mx.hosting-${host.ip.split('.')[3]}.${tld}`, priority: 10, ip: host.ip, server: host.server }];
      }
    }
    // Behaviours: some catch-alls, greylisting and a policy block.
    if (!isProvider && spec.mx) {
      const r = rand();
      if (r < 0.06) spec.catchAll = true;
      else if (r < 0.09) spec.greylistMs = greylistMs;
    }
    if (i === providerShares.length) spec.policyBlock = true; // corp-1 blocks our IP
    if (i === 1) spec.greylistMs = greylistMs; // one big provider greylists

    const used = new Set<string>();
    for (let k = 0; k < count; k++) {
      let local = `${pick(FIRST)}.${pick(LAST)}${Math.floor(rand() * 1000)}`;
      while (used.has(local)) local = `${local}x`;
      used.add(local);
      spec.addresses.push(local);
      const r = rand();
      let state: MailboxState | undefined;
      if (r < 0.7) state = 'ok';
      else if (r < 0.715) state = 'full';
      else if (r < 0.725) state = 'disabled';
      if (state && spec.mailboxes) spec.mailboxes[local] = state;
    }
    domains.push(spec);
  });
  return domains;
}
