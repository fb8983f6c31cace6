// npm run bench:probe — the verification engine on a simulated mail internet (tests/mailworld):
// 10,000 addresses over ~250 domains with a realistic skew, every SMTP reply delayed 20 ms.
// Measures throughput, single-check latency (cold and warm), politeness as seen by the servers,
// SMTP connections per address and accuracy against ground truth; then the same list through the
// npm peer verifiers installed (@devmehq/email-validator-js, deep-email-validator) on the same
// world, and the wall-time ratio. Bounded: a hard stop after --time-limit-s (default 600).
//
//   tsx scripts/bench/bench-probe.ts [--addresses 10000] [--domains 220] [--reply-delay-ms 20]
//     [--time-limit-s 600] [--peers devmehq,deep|none] [--peer-concurrency 50] [--samples 40]
//     [--smtp-port N] [--json]
import dns from 'node:dns';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { armHardStop, mailWorldBenchOptions } from './bench-common';
import { createVerifier } from '../../probe/index';
import type { VerificationResult, Verdict } from '../../probe/contract';
import { buildScenarios, generateBulkDomains, startMailWorld, type DomainSpec, type MailWorld } from '../../tests/mailworld/index';

const { values: argv } = parseArgs({
  options: {
    ...mailWorldBenchOptions,
    addresses: { type: 'string', default: '10000' },
    domains: { type: 'string', default: '220' },
    peers: { type: 'string', default: 'devmehq,deep' },
    'peer-concurrency': { type: 'string', default: '50' },
    samples: { type: 'string', default: '40' },
    'smtp-port': { type: 'string' },
    'greylist-ms': { type: 'string', default: '3000' },
    'tarpit-ms': { type: 'string', default: '1500' },
    'slow-banner-ms': { type: 'string', default: '3000' },
  },
});

const ADDRESSES = Number(argv.addresses);
const BULK_DOMAINS = Number(argv.domains);
const RTT = Number(argv['reply-delay-ms']);
const TIME_LIMIT_MS = Number(argv['time-limit-s']) * 1000;
const PEER_CONCURRENCY = Number(argv['peer-concurrency']);
const SAMPLES = Number(argv.samples);
const GREYLIST_MS = Number(argv['greylist-ms']);
const TARPIT_MS = Number(argv['tarpit-ms']);
const SLOW_BANNER_MS = Number(argv['slow-banner-ms']);
const started = performance.now();
const remaining = (): number => TIME_LIMIT_MS - (performance.now() - started);

// The probe's options for the bench: production-like politeness defaults (5 connections per MX IP,
// 20 RCPTs per session), timeouts short enough to bound the silent-server cases.
const TIMEOUTS = {
  dnsTimeoutMs: 2000,
  connectTimeoutMs: 2000,
  bannerTimeoutMs: 5000,
  replyTimeoutMs: 5000,
  greylistDeadlineMs: { realtime: 10_000, bulk: 30_000 },
  mxHeadStartMs: 1500,
};
/** The library's politeness defaults (probe/options.ts), which the bench keeps. */
const CAPS = { connectionsPerIp: 5, rcptsPerSession: 20 };

/**
 * The honest floor of one domain: the least time ANY verifier that obeys the same rules needs for
 * it — caps (5 connections per MX IP, 20 RCPTs per session, or the server's own lower limits),
 * one random mailbox per best-preference address, every SMTP reply one RTT, pipelining where
 * offered (banner + EHLO + MAIL…RCPT = 3 RTT per session, +2 with STARTTLS), the greylisting window
 * waited out once, a tarpit's banner delay, a lone silent server waited for up to the banner timeout
 * (the rule), a dead primary given the MX head start, a busy server backed off 4 times before it
 * counts as unreachable, a silent DNS server one DNS timeout. Zero work is free: CPU is not counted.
 */
function domainFloor(d: DomainSpec): { ms: number; why: string } {
  if (d.dns === 'timeout') return { ms: TIMEOUTS.dnsTimeoutMs, why: 'one DNS timeout' };
  if (d.dns === 'nxdomain' || d.dns === 'servfail' || d.nullMx) return { ms: 0, why: 'DNS answer' };
  const hosts = [...(d.mx ?? [])].sort((a, b) => a.priority - b.priority).filter((m) => m.ip);
  const hops = hosts.length > 0 ? hosts.map((m) => ({ ip: m.ip as string, priority: m.priority, server: m.server ?? {} })) : (d.aRecords ?? []).map((a) => ({ ip: a.ip, priority: 0, server: a.server ?? {} }));
  if (hops.length === 0) return { ms: 0, why: 'DNS answer' };
  let wait = 0;
  const why: string[] = [];
  let i = 0;
  // Dead or silent addresses before the first live one: refused costs nothing, silent costs the head
  // start, or the banner timeout when alone or when the next live one accepts everyone (its "accepted"
  // says nothing of the mailbox: the silent one might yet greet and decide).
  const isLive = (h: (typeof hops)[number] | undefined): boolean => (h?.server.mode ?? 'smtp') === 'smtp' || h?.server.mode === 'policy-banner';
  const acceptAllNext = hops.find(isLive)?.server.acceptAll === true;
  while (i < hops.length && !isLive(hops[i])) {
    const mode = hops[i]?.server.mode;
    const last = i === hops.length - 1;
    if (mode === 'silent') {
      const wholeTimeout = last || acceptAllNext;
      wait += wholeTimeout ? TIMEOUTS.bannerTimeoutMs : TIMEOUTS.mxHeadStartMs;
      why.push(last ? 'banner timeout (lone silent server)' : acceptAllNext ? 'banner timeout (silent server, the next accepts everyone)' : 'MX head start');
    } else if (mode === 'busy') {
      wait += [1, 2, 3, 4].reduce((a, n) => a + Math.min(30_000, 250 * 2 ** (n - 1)), 0) + 5 * RTT;
      why.push('421 backoff ×4');
    }
    i++;
  }
  const live = hops[i];
  if (!live) return { ms: wait, why: why.join(' + ') || 'unreachable' };
  const tier = hops.filter((h) => h.priority === live.priority && (h.server.mode ?? 'smtp') === 'smtp');
  const k = Math.max(1, tier.length);
  const s = live.server;
  const perSession = Math.min(CAPS.rcptsPerSession, s.maxRcptsPerSession ?? Infinity, s.closeAfterRcpts ?? Infinity);
  const conns = Math.min(CAPS.connectionsPerIp, s.maxConnectionsPerIp ?? Infinity);
  const rcpts = d.addresses.length + k;
  const rounds = Math.ceil(Math.ceil(rcpts / perSession) / (k * conns));
  const sessionMs = (s.bannerDelayMs ?? 0) + (s.starttls || s.requireTls ? 5 : 3) * RTT + (s.pipelining === false ? perSession * RTT : 0) + (s.slowRepliesMs ?? 0) * 3;
  // A slow greeting with another address to ask (one that does not accept everyone): the head start, then the other one.
  const slowFirst = (s.bannerDelayMs ?? 0) > TIMEOUTS.mxHeadStartMs && hops.length > i + 1 && hops[i + 1]?.server.acceptAll !== true ? TIMEOUTS.mxHeadStartMs + 3 * RTT - sessionMs : 0;
  wait += rounds * sessionMs + Math.min(0, slowFirst);
  why.push(`${rounds} round(s) of ${sessionMs} ms sessions`);
  if (d.greylistMs !== undefined && Number.isFinite(d.greylistMs) && d.greylistMs > 0) {
    wait += d.greylistMs;
    why.push(`greylisting ${d.greylistMs} ms`);
  }
  if ((s.bannerDelayMs ?? 0) > 0 && slowFirst === 0) why.push(`tarpit ${s.bannerDelayMs} ms`);
  return { ms: wait, why: why.join(' + ') };
}

armHardStop(TIME_LIMIT_MS + 30_000, TIME_LIMIT_MS);

// ---------------------------------------------------------------------------------------------
// helpers

const line = (s = ''): void => console.log(s);
function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}
const fmt = (n: number, d = 0): string => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const rtts = (ms: number): string => (RTT > 0 ? `${fmt(ms / RTT, 1)} RTT` : '');

interface RunStats {
  name: string;
  done: number;
  total: number;
  wallMs: number;
  complete: boolean;
  connections: number;
  maxConcurrentPerIp: number;
  maxRcptsPerSession: number;
  verdictCorrect: number;
  reasonCorrect: number | null;
  falseUndeliverable: number;
  unknown: number;
  finishP99Ms: number;
  finishP999Ms: number;
  /** The last results to finish: "email (scenario) verdict/reason at t s". */
  slowest: string[];
  /** Domain → when its last result came (ms from the start). */
  lastByDomain: Map<string, number>;
  mismatches: Map<string, { n: number; example: string }>;
  notes: string[];
}

function score(
  world: MailWorld,
  name: string,
  got: Map<string, { verdict: Verdict; reason?: string; at?: number }>,
  wallMs: number,
  complete: boolean,
  finish: number[],
): RunStats {
  const st: RunStats = {
    name,
    done: got.size,
    total: world.emails.length,
    wallMs,
    complete,
    connections: world.counters.connections,
    maxConcurrentPerIp: world.counters.maxConcurrentPerIp,
    maxRcptsPerSession: world.counters.maxRcptsPerSession,
    verdictCorrect: 0,
    reasonCorrect: null,
    falseUndeliverable: 0,
    unknown: 0,
    finishP99Ms: pct(finish, 99),
    finishP999Ms: pct(finish, 99.9),
    slowest: [...got.entries()]
      .filter(([, r]) => r.at !== undefined)
      .sort((a, b) => (b[1].at ?? 0) - (a[1].at ?? 0))
      .slice(0, 6)
      .map(([e, r]) => `${e} (${world.truth.get(e)?.scenario ?? '?'}) ${r.verdict}${r.reason ? `/${r.reason}` : ''} at ${fmt((r.at ?? 0) / 1000, 2)} s`),
    lastByDomain: new Map(),
    mismatches: new Map(),
    notes: [],
  };
  for (const [email, r] of got) {
    const dom = email.slice(email.lastIndexOf('@') + 1);
    if (r.at !== undefined) st.lastByDomain.set(dom, Math.max(st.lastByDomain.get(dom) ?? 0, r.at));
  }
  let reasonOk = 0;
  let withReason = false;
  for (const [email, r] of got) {
    const t = world.truth.get(email);
    if (!t) continue;
    if (r.verdict === 'unknown') st.unknown++;
    if (r.verdict === t.verdict) st.verdictCorrect++;
    if (r.reason !== undefined) {
      withReason = true;
      if (r.verdict === t.verdict && r.reason === t.reason) reasonOk++;
    }
    if (r.verdict === 'undeliverable' && t.verdict !== 'undeliverable') st.falseUndeliverable++;
    if (r.verdict !== t.verdict || (r.reason !== undefined && r.reason !== t.reason)) {
      const key = `${t.scenario}: expected ${t.verdict}/${t.reason}, got ${r.verdict}${r.reason ? `/${r.reason}` : ''}`;
      const m = st.mismatches.get(key) ?? { n: 0, example: email };
      m.n++;
      st.mismatches.set(key, m);
    }
  }
  if (withReason) st.reasonCorrect = reasonOk;
  return st;
}

function printRun(st: RunStats, floorMs: number): void {
  const n = st.done;
  line(`== ${st.name} ==`);
  line(`  addresses verified      ${n}/${st.total}${st.complete ? '' : '  (STOPPED by its time budget)'}`);
  line(`  wall time               ${fmt(st.wallMs / 1000, 2)} s   (${fmt(n / (st.wallMs / 1000), 1)} addresses/s)`);
  line(`  99% / 99.9% of results  by ${fmt(st.finishP99Ms / 1000, 2)} s / ${fmt(st.finishP999Ms / 1000, 2)} s;  floor ${fmt(floorMs / 1000, 2)} s  → list wall time = ${fmt(st.wallMs / floorMs, 2)} × floor`);
  line(`  SMTP connections        ${st.connections}  (${fmt(st.connections / Math.max(1, n), 3)} per address; 1 per ${fmt(n / Math.max(1, st.connections), 1)} addresses)`);
  line(`  max concurrent / MX IP  ${st.maxConcurrentPerIp}`);
  line(`  max RCPTs / session     ${st.maxRcptsPerSession}`);
  line(`  accuracy (verdict)      ${fmt((100 * st.verdictCorrect) / Math.max(1, n), 2)} %  (${n - st.verdictCorrect} wrong)`);
  if (st.reasonCorrect !== null) line(`  accuracy (verdict+reason) ${fmt((100 * st.reasonCorrect) / Math.max(1, n), 2)} %`);
  line(`  false undeliverable     ${st.falseUndeliverable}`);
  line(`  unknown verdicts        ${st.unknown}`);
  const top = [...st.mismatches.entries()].sort((a, b) => b[1].n - a[1].n).slice(0, 12);
  if (top.length > 0) {
    line('  mismatches (top):');
    for (const [k, v] of top) line(`    ${String(v.n).padStart(5)} × ${k}   e.g. ${v.example}`);
  }
  if (st.slowest.length > 0) line(`  last to finish:\n${st.slowest.map((x) => `    ${x}`).join('\n')}`);
  for (const note of st.notes) line(`  note: ${note}`);
}

// ---------------------------------------------------------------------------------------------
// the world

function benchDomains(nets: { scenario: number; bulk: number }): { bulk: DomainSpec[]; scenarios: DomainSpec[] } {
  // Scenario domains under a public-suffix-valid parent (peers reject .test), minus the one whose
  // honest answer needs the whole greylisting deadline.
  const scenarios = buildScenarios({ greylistMs: GREYLIST_MS, tarpitMs: TARPIT_MS, slowBannerMs: SLOW_BANNER_MS, suffix: 'mailworld.net', net: nets.scenario }).filter(
    (d) => d.greylistMs !== Infinity,
  );
  const scenarioAddresses = scenarios.reduce((a, d) => a + d.addresses.length, 0);
  const bulk = generateBulkDomains({
    domains: BULK_DOMAINS,
    addresses: ADDRESSES - scenarioAddresses,
    seed: 2026,
    greylistMs: GREYLIST_MS,
    tarpitMs: TARPIT_MS,
    tld: 'com',
    net: nets.bulk, // own 127.x ranges, so port 25 does not clash with worlds others run on the defaults
  });
  return { bulk, scenarios };
}

/** Start the world; on port 25 (root), move to other 127.x ranges if another world holds them. */
async function startWorld(): Promise<{ world: MailWorld; bulk: DomainSpec[]; scenarios: DomainSpec[]; portNote: string }> {
  const wanted = argv['smtp-port'] ? Number(argv['smtp-port']) : process.getuid?.() === 0 ? 25 : undefined;
  const netChoices = [
    { scenario: 177, bulk: 188 },
    { scenario: 147, bulk: 158 },
    { scenario: 117, bulk: 128 },
    { scenario: 207, bulk: 218 },
  ];
  let lastError = '';
  for (const nets of wanted === undefined ? [netChoices[0] as (typeof netChoices)[number]] : netChoices) {
    const { bulk, scenarios } = benchDomains(nets);
    try {
      const world = await startMailWorld({ domains: [...bulk, ...scenarios], replyDelayMs: RTT, smtpPort: wanted });
      const portNote =
        wanted === 25
          ? `SMTP hosts on port 25 (running as root; 127.${nets.scenario}/127.${nets.bulk}-${nets.bulk + 1}), so peers that hard-code port 25 can be measured`
          : `SMTP hosts on port ${world.smtpPort}`;
      return { world, bulk, scenarios, portNote };
    } catch (err) {
      lastError = (err as Error).message;
      if (wanted === undefined) throw err;
    }
  }
  const { bulk, scenarios } = benchDomains(netChoices[0] as (typeof netChoices)[number]);
  const world = await startMailWorld({ domains: [...bulk, ...scenarios], replyDelayMs: RTT });
  return { world, bulk, scenarios, portNote: `port ${wanted} unavailable (${lastError}); SMTP hosts on random port ${world.smtpPort}` };
}

// ---------------------------------------------------------------------------------------------
// our engine

function probeOptions(world: MailWorld) {
  return { ...world.verifierOptions(), ...TIMEOUTS };
}

async function singleChecks(world: MailWorld): Promise<{ cold: number[]; warm: number[]; wrong: string[] }> {
  // Plain domains only: no greylisting, tarpit, catch-all or policy block in the way.
  const plain = world.domains.filter(
    (d) => d.scenario.startsWith('bulk') && d.mx?.length && !d.greylistMs && !d.catchAll && !d.policyBlock && !d.dns && d.mx.every((m) => !m.server?.bannerDelayMs),
  );
  const okOf = (d: DomainSpec): string[] => d.addresses.filter((l) => d.mailboxes?.[l] === 'ok').map((l) => `${l}@${d.domain}`);
  const pairs = plain.map(okOf).filter((xs) => xs.length >= 2);
  const cold: number[] = [];
  const warm: number[] = [];
  const wrong: string[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const pair = pairs[i % pairs.length];
    if (!pair) break;
    const [a, b] = [pair[0] as string, pair[1 + (Math.floor(i / pairs.length) % (pair.length - 1))] as string];
    // cold: a fresh verifier (empty DNS cache, no connections)
    const v1 = createVerifier(probeOptions(world));
    let t = performance.now();
    const r1 = await v1.verify(a, { depth: 'smtp', mode: 'realtime' });
    cold.push(performance.now() - t);
    if (r1.verdict !== world.truth.get(a)?.verdict) wrong.push(`${a}: ${r1.verdict}/${r1.reason}`);
    // warm: same verifier, DNS cached, a second address of the same domain
    t = performance.now();
    const r2 = await v1.verify(b, { depth: 'smtp', mode: 'realtime' });
    warm.push(performance.now() - t);
    if (r2.verdict !== world.truth.get(b)?.verdict) wrong.push(`${b}: ${r2.verdict}/${r2.reason}`);
    await v1.close();
  }
  return { cold, warm, wrong };
}

async function runOurs(world: MailWorld, emails: string[], budgetMs: number): Promise<RunStats> {
  world.resetCounters();
  world.resetGreylist();
  const verifier = createVerifier(probeOptions(world));
  const got = new Map<string, { verdict: Verdict; reason: string; at: number }>();
  const finish: number[] = [];
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), budgetMs);
  const t0 = performance.now();
  let complete = true;
  try {
    for await (const r of verifier.verifyBatch(emails, { depth: 'smtp', mode: 'bulk', signal: ac.signal }) as AsyncIterable<VerificationResult>) {
      got.set(r.email, { verdict: r.verdict, reason: r.reason, at: performance.now() - t0 });
      finish.push(performance.now() - t0);
    }
  } catch (err) {
    complete = false;
    console.error(`our run stopped: ${(err as Error).message}`);
  }
  const wall = performance.now() - t0;
  clearTimeout(timer);
  if (ac.signal.aborted) complete = false;
  await verifier.close();
  const st = score(world, 'mailvet probe (verifyBatch, mode bulk)', got, wall, complete && got.size === world.emails.length, finish);
  return st;
}

// ---------------------------------------------------------------------------------------------
// peers

type PeerFn = (email: string) => Promise<Verdict>;

/** Route the process's DNS through the world for peers: MX via a resolver with our timeouts, and
 *  dns.lookup (used by net.connect on MX host names) answered from the world — never the OS. */
function pointProcessDnsAtWorld(world: MailWorld): () => void {
  const resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
  resolver.setServers([world.dnsServer]);
  const presolver = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
  presolver.setServers([world.dnsServer]);
  const saved = {
    lookup: dns.lookup,
    resolveMx: dns.resolveMx,
    presolveMx: dns.promises.resolveMx,
    servers: dns.getServers(),
  };
  type LookupCb = (err: NodeJS.ErrnoException | null, address?: string | dns.LookupAddress[], family?: number) => void;
  const lookup = (hostname: string, options: unknown, callback?: LookupCb): void => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCb;
    const opts = (typeof options === 'object' && options !== null ? options : {}) as { all?: boolean };
    resolver.resolve4(hostname, (err, ips) => {
      if (err || ips.length === 0) {
        cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }));
        return;
      }
      if (opts.all) cb(null, ips.map((address) => ({ address, family: 4 })));
      else cb(null, ips[0], 4);
    });
  };
  const mutable = dns as unknown as Record<string, unknown>;
  const pmutable = dns.promises as unknown as Record<string, unknown>;
  mutable.lookup = lookup;
  mutable.resolveMx = resolver.resolveMx.bind(resolver);
  pmutable.resolveMx = presolver.resolveMx.bind(presolver);
  dns.setServers([world.dnsServer]);
  return () => {
    mutable.lookup = saved.lookup;
    mutable.resolveMx = saved.resolveMx;
    pmutable.resolveMx = saved.presolveMx;
    dns.setServers(saved.servers);
  };
}

async function loadPeers(world: MailWorld): Promise<{ name: string; fn: PeerFn; note: string }[]> {
  const wanted = new Set(argv.peers === 'none' ? [] : argv.peers.split(','));
  const peers: { name: string; fn: PeerFn; note: string }[] = [];
  if (wanted.has('devmehq')) {
    try {
      const m = await import('@devmehq/email-validator-js');
      peers.push({
        name: '@devmehq/email-validator-js verifyEmailDetailed',
        note: `smtpPort=${world.smtpPort}, timeout 5000 ms, own pool of ${PEER_CONCURRENCY} (its verifyEmailBatch ignores smtpPort and waits for each slice's slowest)`,
        fn: async (email) => {
          const r = await m.verifyEmailDetailed({
            emailAddress: email,
            verifyMx: true,
            verifySmtp: true,
            smtpPort: world.smtpPort,
            timeout: 5000,
            checkDisposable: true,
            checkFree: false,
            suggestDomain: false,
          });
          if (!r.format.valid) return 'undeliverable';
          if (r.disposable) return 'risky';
          if (r.domain.valid === false) return 'undeliverable';
          if (r.smtp.valid === true) return 'deliverable';
          if (r.smtp.valid === false) return 'undeliverable';
          return 'unknown';
        },
      });
    } catch (err) {
      line(`peer @devmehq/email-validator-js not loadable: ${(err as Error).message}`);
    }
  }
  if (wanted.has('deep')) {
    if (world.smtpPort !== 25) {
      line(`peer deep-email-validator skipped: it hard-codes SMTP port 25 and the world is on ${world.smtpPort} (run as root, or --smtp-port 25)`);
    } else {
      try {
        const m = await import('deep-email-validator');
        peers.push({
          name: 'deep-email-validator validate',
          note: `port 25, typo check off (mailcheck's TLD list), own pool of ${PEER_CONCURRENCY}; valid:false on SMTP is read generously (only "Mailbox not found." = undeliverable, 552 = risky, other failures = unknown)`,
          fn: async (email) => {
            const r = await m.validate({
              email,
              sender: 'verify@mailvet.test',
              validateRegex: true,
              validateMx: true,
              validateTypo: false,
              validateDisposable: true,
              validateSMTP: true,
            });
            if (r.valid) return 'deliverable';
            if (r.reason === 'disposable') return 'risky';
            if (r.reason === 'regex' || r.reason === 'typo' || r.reason === 'mx') return 'undeliverable';
            const why = r.validators.smtp?.reason ?? '';
            if (why === 'Mailbox not found.') return 'undeliverable';
            if (why.includes('run out of space')) return 'risky';
            return 'unknown';
          },
        });
      } catch (err) {
        line(`peer deep-email-validator not loadable: ${(err as Error).message}`);
      }
    }
  }
  return peers;
}

/** The MX IP a one-connection-per-address peer will talk to for each domain (its first MX). */
function firstHopByDomain(world: MailWorld): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of world.domains) {
    const mx = [...(d.mx ?? [])].sort((a, b) => a.priority - b.priority)[0];
    const ip = mx?.ip ?? d.aRecords?.[0]?.ip;
    if (ip) out.set(d.domain, ip);
  }
  return out;
}

async function runPeer(
  world: MailWorld,
  emails: string[],
  peer: { name: string; fn: PeerFn; note: string },
  budgetMs: number,
  perIpCap?: number,
): Promise<RunStats> {
  world.resetCounters();
  world.resetGreylist();
  const got = new Map<string, { verdict: Verdict; at: number }>();
  const finish: number[] = [];
  const hop = firstHopByDomain(world);
  const active = new Map<string, number>();
  const pending = [...emails];
  const t0 = performance.now();
  const deadline = t0 + budgetMs;
  // Take the next address whose MX IP is under the cap (all of them when there is no cap).
  const take = (): string | undefined => {
    for (let i = 0; i < pending.length; i++) {
      const e = pending[i] as string;
      const ip = hop.get(e.slice(e.lastIndexOf('@') + 1));
      if (perIpCap === undefined || ip === undefined || (active.get(ip) ?? 0) < perIpCap) {
        pending.splice(i, 1);
        return e;
      }
      if (i > 2000) break; // keep the scan bounded; wait for a slot instead
    }
    return undefined;
  };
  const worker = async (): Promise<void> => {
    while (pending.length > 0 && performance.now() < deadline) {
      const email = take();
      if (email === undefined) {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      const ip = hop.get(email.slice(email.lastIndexOf('@') + 1)) ?? '';
      active.set(ip, (active.get(ip) ?? 0) + 1);
      let verdict: Verdict;
      try {
        verdict = await peer.fn(email);
      } catch {
        verdict = 'unknown';
      } finally {
        active.set(ip, (active.get(ip) ?? 1) - 1);
      }
      got.set(email, { verdict, at: performance.now() - t0 });
      finish.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: PEER_CONCURRENCY }, worker));
  const wall = performance.now() - t0;
  const label = perIpCap === undefined ? `${peer.name} [pool ${PEER_CONCURRENCY}, no per-IP cap]` : `${peer.name} [pool ${PEER_CONCURRENCY}, ≤${perIpCap} per MX IP like ours]`;
  const st = score(world, label, got, wall, got.size === emails.length, finish);
  st.notes.push(peer.note);
  if (!st.complete) {
    const projected = (wall * emails.length) / Math.max(1, got.size);
    st.notes.push(`stopped after ${fmt(wall / 1000, 1)} s; whole-list wall time projected at ${fmt(projected / 1000, 1)} s`);
    st.wallMs = projected;
  }
  return st;
}

/** Deterministic shuffle, so slow scenario addresses are spread through the list as in real lists. */
function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let a = seed >>> 0;
  const rand = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { world, bulk, scenarios, portNote } = await startWorld();
  const domains = [...bulk, ...scenarios];
  const sizes = domains.map((d) => d.addresses.length).sort((a, b) => b - a);
  const verdictMix = new Map<string, number>();
  for (const t of world.truth.values()) verdictMix.set(t.verdict, (verdictMix.get(t.verdict) ?? 0) + 1);
  const floors = domains.map((d) => ({ domain: d.domain, ...domainFloor(d) })).sort((a, b) => b.ms - a.ms);
  const honestFloor = floors[0]?.ms ?? 0;

  line('mailvet bench:probe');
  line(`world: ${world.emails.length} addresses over ${domains.length} domains (${bulk.length} bulk + ${scenarios.length} scenario domains), ${world.hosts.size} SMTP hosts on 127/8`);
  line(`  skew: largest domains ${sizes.slice(0, 4).join(', ')} addresses; median ${pct(sizes, 50)}; ${sizes.filter((s) => s <= 5).length} domains with ≤5`);
  line(`  truth: ${[...verdictMix.entries()].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  line(`  every SMTP reply delayed ${RTT} ms (1 RTT); greylisting ${GREYLIST_MS} ms; tarpit banner +${TARPIT_MS} ms; ${portNote}`);
  line(`  DNS ${world.dnsServer}; probe timeouts ${JSON.stringify(TIMEOUTS)}; politeness caps: library defaults`);
  line(`  honest floor: the slowest domain's least possible time under the same rules (caps, RTTs, waits; see domainFloor) = ${honestFloor} ms`);
  for (const f of floors.slice(0, 5)) line(`    ${f.domain.padEnd(34)} ${String(f.ms).padStart(6)} ms  ${f.why}`);
  line();

  try {
    // 1. single checks
    const single = await singleChecks(world);
    line('== single check latency (mailvet probe, realtime) ==');
    line(`  cold (fresh verifier, empty caches)  p50 ${fmt(pct(single.cold, 50))} ms (${rtts(pct(single.cold, 50))})  p95 ${fmt(pct(single.cold, 95))} ms (${rtts(pct(single.cold, 95))})  n=${single.cold.length}`);
    line(`  warm (DNS cached, same domain)       p50 ${fmt(pct(single.warm, 50))} ms (${rtts(pct(single.warm, 50))})  p95 ${fmt(pct(single.warm, 95))} ms (${rtts(pct(single.warm, 95))})  n=${single.warm.length}`);
    line(`  targets: cold ≤ 6 RTT + DNS (${6 * RTT} ms + DNS), warm ≤ 4 RTT (${4 * RTT} ms)`);
    if (single.wrong.length > 0) line(`  WRONG single-check verdicts: ${single.wrong.slice(0, 5).join('; ')}`);
    line();

    // 2. the whole list through our engine
    const list = shuffled(world.emails, 7);
    const ours = await runOurs(world, list, Math.min(240_000, remaining() - 60_000));
    printRun(ours, honestFloor);
    line('  floor vs finish, slowest domains side by side:');
    line(`    ${'domain'.padEnd(34)} ${'floor ms'.padStart(9)} ${'finished ms'.padStart(12)} ${'×'.padStart(6)}`);
    const byFinish = [...ours.lastByDomain].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([dom]) => dom);
    for (const dom of [...new Set([...floors.slice(0, 4).map((f) => f.domain), ...byFinish])]) {
      const fl = floors.find((f) => f.domain === dom)?.ms ?? 0;
      const fin = ours.lastByDomain.get(dom) ?? NaN;
      line(`    ${dom.padEnd(34)} ${String(fl).padStart(9)} ${fmt(fin).padStart(12)} ${(fl > 0 ? fmt(fin / fl, 2) : '—').padStart(6)}`);
    }
    line(`  wall ${fmt(ours.wallMs / 1000, 2)} s vs honest floor ${fmt(honestFloor / 1000, 2)} s = ${fmt(ours.wallMs / honestFloor, 2)} × (target ≤ 1.3 ×); accuracy ${fmt((100 * ours.verdictCorrect) / Math.max(1, ours.done), 2)} %; false undeliverable ${ours.falseUndeliverable}`);
    line(`  targets: accuracy 100 %, 0 false undeliverable, ≤ 0.2 connections per address, caps 5 connections / MX IP and 20 RCPTs / session`);
    line();

    // 3. peers on the same world
    const restore = pointProcessDnsAtWorld(world);
    const peerStats: RunStats[] = [];
    try {
      const peers = await loadPeers(world);
      for (const cap of [undefined, 5]) {
        for (const peer of peers) {
          const budget = Math.min(150_000, remaining() - 20_000);
          if (budget < 10_000) {
            line(`peer ${peer.name}: no time left in the bench budget`);
            continue;
          }
          const st = await runPeer(world, list, peer, budget, cap);
          printRun(st, honestFloor);
          peerStats.push(st);
          line();
        }
      }
    } finally {
      restore();
    }

    // 4. summary
    line('== summary ==');
    line(`  ${'verifier'.padEnd(72)} ${'wall s'.padStart(8)} ${'addr/s'.padStart(8)} ${'conn/addr'.padStart(10)} ${'maxconn/IP'.padStart(10)} ${'maxRCPT'.padStart(8)} ${'accuracy'.padStart(9)} ${'false undeliv'.padStart(13)}`);
    for (const s of [ours, ...peerStats]) {
      line(
        `  ${s.name.slice(0, 72).padEnd(72)} ${fmt(s.wallMs / 1000, 2).padStart(8)} ${fmt(s.done / (s.wallMs / 1000), 1).padStart(8)} ${fmt(s.connections / Math.max(1, s.done), 3).padStart(10)} ${String(s.maxConcurrentPerIp).padStart(10)} ${String(s.maxRcptsPerSession).padStart(8)} ${`${fmt((100 * s.verdictCorrect) / Math.max(1, s.done), 2)}%`.padStart(9)} ${String(s.falseUndeliverable).padStart(13)}`,
      );
    }
    for (const p of peerStats) {
      line(`  whole-list wall time ours/peer (${p.name}): ${fmt(ours.wallMs / p.wallMs, 3)}  (target ≤ 0.25)`);
    }
    if (argv.json) {
      const strip = (s: RunStats): unknown => ({ ...s, mismatches: Object.fromEntries([...s.mismatches].map(([k, v]) => [k, v.n])) });
      line(`BENCH_JSON ${JSON.stringify({ single, ours: strip(ours), peers: peerStats.map(strip), floorMs: honestFloor })}`);
    }
  } finally {
    await world.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
