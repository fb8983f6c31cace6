// npm run bench:fleet — the probe fleet on a simulated mail internet (tests/mailworld), every SMTP
// reply delayed 20 ms: 20,000 addresses where one provider (one domain, two MX addresses) holds 60%
// and the rest is spread over small domains. The probe daemons are real processes (`mailvet probe`),
// each bound to its own 127.x source address; the client is the server's ProbeClient; the mail world
// runs in its own process (tests/mailworld/world-process.ts), so the CPU time of the nodes, the world
// and the client (this process) is measured apart.
//   1 node vs 3 nodes: wall time, addresses/s, max concurrent connections per (source IP, MX IP) and
//   max RCPTs per session as the servers saw them, connections per address, accuracy;
//   then 3 nodes with one SIGKILLed mid-run: completion time, addresses lost, duplicates.
// Bounded: a hard stop after --time-limit-s (default 600).
//
//   tsx scripts/bench/bench-fleet.ts [--addresses 20000] [--share 0.6] [--small-domains 400]
//     [--reply-delay-ms 20] [--kill-at 0.3] [--runs 1,3,kill] [--warmup 20000] [--time-limit-s 600] [--json]
// --runs lists the runs in the order they are made; a kind may repeat (1,3,1,3: the mail world and
// this process are warm for the second pair).
// --warmup (default: as many as --addresses): before each measured run, every freshly started node
// verifies a list of this many addresses of the measured list's shape, on domains of its own (no
// cache is shared with the measured list). A probe node is a daemon that runs for days: what is
// measured is the fleet, not V8 compiling a fresh process — a cold node spends up to a third more CPU
// on the same work, and on this 2-core machine CPU is what three nodes, the mail world and the client
// share. --warmup 0 measures cold nodes.
// Profiling: FLEET_NODE_OPTIONS is passed to the probe nodes as NODE_OPTIONS (the world process
// inherits this process's NODE_OPTIONS), e.g.
//   FLEET_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/prof' node --cpu-prof --import tsx scripts/bench/bench-fleet.ts
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { PRODUCTION_NODE_FLAG, armHardStop, mailWorldBenchOptions } from './bench-common';
import { ProbeClient } from '../../probe/client/probe-client';
import type { VerificationResult } from '../../probe/contract';
import { spawnProbeNode, type ProbeNode } from '../../tests/helpers/probe-fleet';
import type { DomainSpec } from '../../tests/mailworld/index';
import { startMailWorldProcess, type MailWorldProcess } from '../../tests/mailworld/world-process';

const { values: argv } = parseArgs({
  options: {
    ...mailWorldBenchOptions,
    addresses: { type: 'string', default: '20000' },
    share: { type: 'string', default: '0.6' },
    'small-domains': { type: 'string', default: '400' },
    'kill-at': { type: 'string', default: '0.3' },
    warmup: { type: 'string', default: '' },
    runs: { type: 'string', default: '1,3,kill' },
  },
});
const ADDRESSES = Number(argv.addresses);
const SHARE = Number(argv.share);
const SMALL_DOMAINS = Number(argv['small-domains']);
const RTT = Number(argv['reply-delay-ms']);
const KILL_AT = Number(argv['kill-at']);
const WARMUP = argv.warmup === '' ? ADDRESSES : Math.max(0, Math.floor(Number(argv.warmup)));
const TIME_LIMIT_MS = Number(argv['time-limit-s']) * 1000;
const TOKEN = 'bench-fleet-token';
const SOURCES = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
const PROVIDER_IPS = ['127.98.0.1', '127.98.0.2'];
const WARMUP_PROVIDER_IPS = ['127.98.9.1', '127.98.9.2'];

const nodes: ProbeNode[] = [];
const disarmHardStop = armHardStop(TIME_LIMIT_MS, TIME_LIMIT_MS, () => {
  for (const n of nodes) void n.kill();
});

/**
 * A list of `total` addresses: one provider (two MX addresses) with SHARE of them, every 5th
 * unknown; the rest spread over SMALL_DOMAINS small domains (one MX each, every 4th address unknown,
 * every 10th domain catch-all). `kind` names the domains and picks their addresses, so the measured
 * list and the warm-up list share nothing.
 */
function listDomains(kind: 'measured' | 'warm-up', total: number): DomainSpec[] {
  const measured = kind === 'measured';
  const provider = measured ? 'bigmail.test' : 'warmup.test';
  const bigN = Math.round(total * SHARE);
  const big: DomainSpec = {
    domain: provider,
    scenario: measured ? 'big provider' : 'warm-up',
    mx: (measured ? PROVIDER_IPS : WARMUP_PROVIDER_IPS).map((ip, i) => ({ host: `mx${i + 1}.${provider}`, priority: 10, ip, server: { maxRcptsPerSession: 100 } })),
    mailboxes: {},
    addresses: [],
  };
  for (let i = 0; i < bigN; i++) {
    big.addresses.push(`user${i}`);
    if (i % 5 !== 4 && big.mailboxes) big.mailboxes[`user${i}`] = 'ok';
  }
  const rest = total - bigN;
  const small: DomainSpec[] = [];
  for (let d = 0; d < SMALL_DOMAINS && rest > 0; d++) {
    const n = Math.floor(rest / SMALL_DOMAINS) + (d < rest % SMALL_DOMAINS ? 1 : 0);
    const domain = measured ? `d${d}.small.test` : `w${d}.warmup.test`;
    const spec: DomainSpec = {
      domain,
      scenario: measured ? 'small domain' : 'warm-up',
      mx: [{ host: `mx.${domain}`, priority: 10, ip: `127.${measured ? 99 : 97}.${Math.floor(d / 250)}.${(d % 250) + 1}`, server: { maxRcptsPerSession: 100 } }],
      mailboxes: {},
      addresses: [],
      catchAll: d % 10 === 9,
    };
    for (let i = 0; i < n; i++) {
      spec.addresses.push(`p${i}`);
      if (i % 4 !== 3 && spec.mailboxes) spec.mailboxes[`p${i}`] = 'ok';
    }
    small.push(spec);
  }
  return [big, ...small];
}

interface Run {
  name: string;
  nodes: number;
  wallMs: number;
  results: number;
  unique: number;
  lost: number;
  duplicates: number;
  correct: number;
  perSec: number;
  maxConnPerPair: number;
  maxConnPerMxIp: number;
  maxRcptsPerSession: number;
  connectionsPerAddress: number;
  dnsQueries: number;
  rdapQueries: number;
  providerConnectionsBySource: Record<string, number>;
  replanned: number;
  killedAtMs: number | null;
  /** When the first and the last result of the provider, and the last of the rest, came in (ms). */
  providerFirstMs: number;
  providerLastMs: number;
  restLastMs: number;
  /** CPU seconds: the probe nodes together, the mail world's process, and this process (the client). */
  nodeCpuS: number;
  worldCpuS: number;
  clientCpuS: number;
}

async function startNodes(world: MailWorldProcess, n: number): Promise<ProbeNode[]> {
  // The nodes run as the Dockerfile runs them (NODE_OPTIONS=--max-semi-space-size=32), plus FLEET_NODE_OPTIONS.
  const nodeOptions = [PRODUCTION_NODE_FLAG, process.env.FLEET_NODE_OPTIONS ?? ''].join(' ').trim();
  const env = { ...world.probeEnv(), PROBE_DNS_TIMEOUT_MS: '10000', PROBE_CONNECT_TIMEOUT_MS: '2000', PROBE_BANNER_TIMEOUT_MS: '5000', PROBE_REPLY_TIMEOUT_MS: '5000', NODE_OPTIONS: nodeOptions };
  const started = await Promise.all(SOURCES.slice(0, n).map((sourceIp) => spawnProbeNode({ sourceIp, token: TOKEN, env, startTimeoutMs: 60_000 })));
  nodes.push(...started);
  return started;
}

/** CPU seconds a child process has used (Linux /proc; 0 elsewhere). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

async function stopNodes(list: ProbeNode[]): Promise<void> {
  await Promise.all(list.map((n) => n.stop()));
  for (const n of list) nodes.splice(nodes.indexOf(n), 1);
}

let runWallMs = 0;
const mismatches = new Map<string, number>();

async function run(world: MailWorldProcess, name: string, n: number, kill: boolean): Promise<Run> {
  const fleet = await startNodes(world, n);
  // Warm-up, not measured: every node verifies the warm-up list alone (together, each from its own source).
  await Promise.all(
    fleet.map(async (node) => {
      for await (const r of new ProbeClient({ urls: [node.url], token: TOKEN }).verify(warmupList, { depth: 'smtp', mode: 'bulk' })) void r;
    }),
  );
  await world.reset();
  const client = new ProbeClient({ urls: fleet.map((x) => x.url), token: TOKEN, retry: { backoffMs: 200 } });
  const seen = new Map<string, number>();
  let correct = 0;
  let results = 0;
  let killedAtMs: number | null = null;
  let providerFirstMs = Infinity;
  let providerLastMs = 0;
  let restLastMs = 0;
  const cpu0 = process.cpuUsage();
  const nodeCpu0 = fleet.reduce((a, x) => a + cpuSeconds(x.child.pid), 0);
  const worldCpu0 = cpuSeconds(world.pid);
  let nodeCpuS = 0;
  let worldCpuS = 0;
  const t0 = performance.now();
  const killAfter = Math.floor(list.length * KILL_AT);
  try {
    for await (const r of client.verify(list, { depth: 'smtp', mode: 'bulk' }) as AsyncIterable<VerificationResult>) {
      results++;
      const at = performance.now() - t0;
      if (r.email.endsWith('@bigmail.test')) {
        providerFirstMs = Math.min(providerFirstMs, at);
        providerLastMs = at;
      } else restLastMs = at;
      seen.set(r.email, (seen.get(r.email) ?? 0) + 1);
      const t = world.truth.get(r.email);
      if (t && t.verdict === r.verdict && t.reason === r.reason) correct++;
      else {
        const key = `${r.email.split('@')[1]}: expected ${t?.verdict}/${t?.reason}, got ${r.verdict}/${r.reason}`;
        mismatches.set(key, (mismatches.get(key) ?? 0) + 1);
      }
      if (kill && killedAtMs === null && results >= killAfter) {
        killedAtMs = performance.now() - t0;
        nodeCpuS += cpuSeconds(fleet[1]?.child.pid);
        void fleet[1]?.kill(); // SIGKILL, mid-stream
      }
    }
  } finally {
    const wallMs = performance.now() - t0;
    nodeCpuS += fleet.filter((_x, i) => !(kill && i === 1)).reduce((a, x) => a + cpuSeconds(x.child.pid), 0) - nodeCpu0;
    worldCpuS = cpuSeconds(world.pid) - worldCpu0;
    await stopNodes(fleet);
    runWallMs = wallMs;
  }
  const wallMs = runWallMs;
  const cpu = process.cpuUsage(cpu0);
  const counters = await world.counters();
  let maxPair = 0;
  let maxPerMx = 0;
  const providerBySource: Record<string, number> = {};
  for (const [ip, h] of counters.perIp) {
    maxPerMx = Math.max(maxPerMx, h.maxConcurrent);
    for (const [src, c] of h.byClient) {
      maxPair = Math.max(maxPair, c.maxConcurrent);
      if (PROVIDER_IPS.includes(ip)) providerBySource[src] = (providerBySource[src] ?? 0) + c.connections;
    }
  }
  return {
    name,
    nodes: n,
    wallMs,
    results,
    unique: seen.size,
    lost: list.filter((e) => !seen.has(e)).length,
    duplicates: [...seen.values()].reduce((a, v) => a + (v - 1), 0),
    correct,
    perSec: (results * 1000) / wallMs,
    maxConnPerPair: maxPair,
    maxConnPerMxIp: maxPerMx,
    maxRcptsPerSession: counters.maxRcptsPerSession,
    connectionsPerAddress: counters.connections / list.length,
    dnsQueries: counters.dnsQueries,
    rdapQueries: counters.rdapQueries,
    providerConnectionsBySource: providerBySource,
    replanned: client.stats.replanned,
    killedAtMs,
    providerFirstMs,
    providerLastMs,
    restLastMs,
    nodeCpuS,
    worldCpuS,
    clientCpuS: (cpu.user + cpu.system) / 1e6,
  };
}

const domains = [...listDomains('measured', ADDRESSES), ...(WARMUP > 0 ? listDomains('warm-up', WARMUP) : [])];
const world = await startMailWorldProcess({ domains, replyDelayMs: RTT, nodeArgs: [PRODUCTION_NODE_FLAG] });
const isWarmup = (e: string): boolean => e.endsWith('warmup.test');
const list = world.emails.filter((e) => !isWarmup(e));
const warmupList = WARMUP > 0 ? world.emails.filter(isWarmup) : [];
const total = list.length;
console.log(`bench:fleet — ${total.toLocaleString('en-US')} addresses, ${Math.round(SHARE * 100)}% on one provider (${PROVIDER_IPS.length} MX IPs), the rest on ${SMALL_DOMAINS} domains; ${RTT} ms per SMTP reply`);
console.log('probe nodes: `mailvet probe` processes, default caps (5 connections per (source IP, MX IP), 20 RCPTs per session), sources ' + SOURCES.join(', '));
console.log(`each node warmed first with ${warmupList.length.toLocaleString('en-US')} addresses on domains of its own (--warmup; 0: cold)`);
const runs: Run[] = [];
try {
  const kinds = { '1': ['1 node', 1, false], '3': ['3 nodes', 3, false], kill: ['3 nodes, one kill -9', 3, true] } as const;
  for (const key of argv.runs.split(',')) {
    if (!Object.hasOwn(kinds, key)) throw new Error(`--runs: unknown run "${key}" (1, 3 or kill)`);
    const [name, n, kill] = kinds[key as keyof typeof kinds];
    process.stdout.write(`  running ${name} …`);
    const r = await run(world, name, n, kill);
    runs.push(r);
    process.stdout.write(` ${(r.wallMs / 1000).toFixed(1)} s\n`);
    for (const [k, v] of [...mismatches].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`    mismatch ×${v}: ${k}`);
    mismatches.clear();
  }
} finally {
  await world.stop();
}

// With repeated runs (e.g. --runs 1,3,1,3), the summary lines compare the last of each kind.
const lastOf = (name: string): Run | undefined => runs.filter((r) => r.name === name).at(-1);
const [one, three, killed] = [lastOf('1 node'), lastOf('3 nodes'), lastOf('3 nodes, one kill -9')];
const col = (s: string, w = 22): string => s.padStart(w);
console.log('');
console.log(`${''.padEnd(40)}${runs.map((r) => col(r.name)).join('')}`);
const row = (label: string, f: (r: Run) => string): void => console.log(`${label.padEnd(40)}${runs.map((r) => col(f(r))).join('')}`);
row('wall time (s)', (r) => (r.wallMs / 1000).toFixed(1));
row('addresses/s', (r) => r.perSec.toFixed(0));
row('provider: first / last result (s)', (r) => `${(r.providerFirstMs / 1000).toFixed(1)} / ${(r.providerLastMs / 1000).toFixed(1)}`);
row('other domains: last result (s)', (r) => (r.restLastMs / 1000).toFixed(1));
row('CPU s: nodes / mail world / client', (r) => `${r.nodeCpuS.toFixed(1)} / ${r.worldCpuS.toFixed(1)} / ${r.clientCpuS.toFixed(1)}`);
row('CPU ms per 1,000 addresses, all', (r) => (((r.nodeCpuS + r.worldCpuS + r.clientCpuS) * 1e6) / list.length).toFixed(0));
row('results / unique / expected', (r) => `${r.results}/${r.unique}/${total}`);
row('addresses lost', (r) => String(r.lost));
row('duplicates', (r) => String(r.duplicates));
row('verdict+reason = ground truth', (r) => `${((r.correct * 100) / total).toFixed(2)}%`);
row('max conns per (source IP, MX IP)', (r) => String(r.maxConnPerPair));
row('max conns per MX IP (all sources)', (r) => String(r.maxConnPerMxIp));
row('max RCPTs per session', (r) => String(r.maxRcptsPerSession));
row('connections per address', (r) => r.connectionsPerAddress.toFixed(3));
row('DNS / RDAP queries', (r) => `${r.dnsQueries} / ${r.rdapQueries}`);
row('provider connections by source', (r) => Object.entries(r.providerConnectionsBySource).sort().map(([s, c]) => `${s.split('.').pop()}:${c}`).join(' '));
row('addresses replanned after a failure', (r) => String(r.replanned));
row('killed at (s)', (r) => (r.killedAtMs === null ? '-' : (r.killedAtMs / 1000).toFixed(1)));
if (one && three) console.log(`\nspeed-up, 3 nodes vs 1: ${(one.wallMs / three.wallMs).toFixed(2)}× (target ≥ 2.5×); caps held: ${runs.every((r) => r.maxConnPerPair <= 5 && r.maxRcptsPerSession <= 20) ? 'yes' : 'NO'}`);
if (killed) console.log(`kill -9 of one node of three at ${((killed.killedAtMs ?? 0) / 1000).toFixed(1)} s: completed in ${(killed.wallMs / 1000).toFixed(1)} s, ${killed.lost} lost, ${killed.duplicates} duplicates`);
if (argv.json) console.log(JSON.stringify(runs));
disarmHardStop();
