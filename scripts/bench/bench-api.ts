// npm run bench:api — throughput and latency of the public API (issue #12 item 9) with autocannon
// against a local server (scripts/bench/api-server.ts in a child process: embedded PostgreSQL,
// probe daemon, web + worker) on an Enterprise account whose API rate the operator lifted:
//   1. POST /v1/validate at syntax depth (an address the engine decides at the syntax check: the
//      server answers it with the probe library, charges the credit and stores the result in one
//      statement batched per account), live key;
//   2. GET /v1/account, the cheapest authenticated route (key, scope, rate limit, one read);
//   3. GET /v1/jobs/{id}/results?limit=1000, a results page of 1,000 rows.
// For each: requests/s, p50/p99 latency, non-2xx count, and the server's own Server-Timing figures
// (auth = API key check, rate = rate limit, credit = on the syntax path the one statement that takes
// the credit and stores the result, with its wait in the account's batch queue), p50/p99 per
// request, with their sum for the validate path (target ≤ 2 ms at p50, judged by an extra validate
// run at one connection: at 32 the steps also hold the other requests' turns), and the server's CPU
// time per request (its node process and its postgres backends, from /proc: what a busy machine does
// not change). Target for (1): ≥ 2,000 requests/s on this 2-core machine.
//
//   tsx scripts/bench/bench-api.ts [--duration 10] [--connections 32] [--only validate,account,results]
//                                 [--web-processes 1] [--cpu-prof DIR]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { parseServerTiming } from '../../server/lib/server-timing';
import { PRODUCTION_NODE_FLAG } from './bench-common';

const { values: argv } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string', default: 'validate,account,results' },
    /** Web processes sharing the port (SO_REUSEPORT), the first one also running the worker. */
    'web-processes': { type: 'string', default: '1' },
    /** Write a V8 CPU profile of the server process into this directory (node --cpu-prof). */
    'cpu-prof': { type: 'string' },
  },
});
const DURATION = Number(argv.duration);
const CONNECTIONS = Number(argv.connections);
const ONLY = new Set(argv.only.split(','));

interface Seed {
  url: string;
  liveKey: string;
  testKey: string;
  jobId: string;
  results: number;
}

/**
 * CPU time (ms, user + system) of a process and all its descendants, by command name (the
 * server's node process, its postgres backends): read from /proc, so a busy machine does not
 * change it the way it changes requests/s. Empty where there is no /proc.
 */
function treeCpuMs(root: number): Record<string, number> {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  const procs: Array<{ pid: number; ppid: number; comm: string; ms: number }> = [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return {};
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      // fields after the comm: state(0) ppid(1) … utime(11) stime(12)
      procs.push({ pid: Number(e), ppid: Number(f[1]), comm, ms: (Number(f[11]) + Number(f[12])) * tick });
    } catch {
      // gone meanwhile
    }
  }
  const inTree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) if (!inTree.has(p.pid) && inTree.has(p.ppid)) (inTree.add(p.pid), (grew = true));
  }
  const out: Record<string, number> = {};
  for (const p of procs) {
    if (!inTree.has(p.pid)) continue;
    const kind = p.comm.startsWith('postgres') ? 'postgres' : p.comm.startsWith('node') ? 'node' : p.comm;
    out[kind] = (out[kind] ?? 0) + p.ms;
  }
  return out;
}

let serverPid = 0;

function startServer(): Promise<{ seed: Seed; stop(): Promise<void> }> {
  const prof = argv['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(argv['cpu-prof'])] : [];
  const child = spawn(process.execPath, [PRODUCTION_NODE_FLAG, ...prof, '--import', 'tsx', path.join(import.meta.dirname, 'api-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_WEB_PROCESSES: argv['web-processes'] },
  });
  serverPid = child.pid ?? 0;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bench server did not start within 180 s')), 180_000);
    child.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
    readline.createInterface({ input: child.stdout! }).on('line', (l) => {
      if (!l.startsWith('{')) return;
      clearTimeout(timer);
      resolve({ seed: JSON.parse(l) as Seed, stop });
    });
  });
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  key: string;
  body?: string;
  /** Server-Timing names summed per request as "auth + rate + credit". */
  fixed: string[];
}

async function runScenario(url: string, s: Scenario, o: { connections: number; duration: number } = { connections: CONNECTIONS, duration: DURATION }) {
  const timings: Record<string, number[]> = {};
  const fixedSums: number[] = [];
  let sampled = 0;
  const opts: autocannon.Options = {
    url: `${url}${s.path}`,
    connections: o.connections,
    pipelining: 1,
    duration: o.duration,
    method: s.method,
    headers: { authorization: `Bearer ${s.key}`, ...(s.body ? { 'content-type': 'application/json' } : {}) },
    body: s.body,
    requests: [
      {
        onResponse: (_status: number, _body: string, _ctx: object, headers?: IncomingHttpHeaders) => {
          const raw = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'server-timing')?.[1];
          const t = parseServerTiming(Array.isArray(raw) ? raw.join(',') : raw);
          let sum = 0;
          for (const [k, v] of Object.entries(t)) (timings[k] ??= []).push(v);
          for (const k of s.fixed) sum += t[k] ?? 0;
          if (s.fixed.every((k) => k in t)) fixedSums.push(sum);
          sampled += 1;
        },
      },
    ],
  };
  // A short warm-up (JIT, pools, caches), then the measured run.
  await autocannon({ ...opts, duration: 2, requests: undefined });
  const cpuBefore = treeCpuMs(serverPid);
  const ownBefore = process.cpuUsage();
  const r = await autocannon(opts);
  const own = process.cpuUsage(ownBefore);
  const cpuAfter = treeCpuMs(serverPid);
  // Server CPU per request (ms), by process kind: the load-independent measure of the route's cost.
  const cpuPerRequest: Record<string, number> = {};
  for (const [k, v] of Object.entries(cpuAfter)) cpuPerRequest[k] = (v - (cpuBefore[k] ?? 0)) / Math.max(1, r.requests.total);
  const pct = (xs: number[] | undefined) => {
    const sorted = [...(xs ?? [])].sort((a, b) => a - b);
    return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
  };
  const server: Record<string, { p50: number; p99: number }> = {};
  for (const k of Object.keys(timings).sort()) server[k] = pct(timings[k]);
  return {
    name: s.name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    server,
    fixed: s.fixed.length > 0 ? pct(fixedSums) : null,
    sampled,
    cpuPerRequest,
    /** The load generator's own CPU per request (autocannon, this process). */
    loadCpuPerRequest: (own.user + own.system) / 1000 / Math.max(1, r.requests.total),
  };
}

const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : 'n/a');

const { seed, stop } = await startServer();
const url = seed.url.replace('localhost', '127.0.0.1');
try {
  const scenarios: Scenario[] = [
    { name: 'validate', method: 'POST', path: '/v1/validate', key: seed.liveKey, body: JSON.stringify({ email: 'not-an-email@@example.com' }), fixed: ['auth', 'rate', 'credit'] },
    { name: 'account', method: 'GET', path: '/v1/account', key: seed.liveKey, fixed: ['auth', 'rate'] },
    { name: 'results', method: 'GET', path: `/v1/jobs/${seed.jobId}/results?limit=${seed.results}`, key: seed.testKey, fixed: ['auth', 'rate'] },
  ].filter((s) => ONLY.has(s.name)) as Scenario[];

  // One request of each first: a scenario that answers an error measures nothing.
  for (const s of scenarios) {
    const res = await fetch(`${url}${s.path}`, { method: s.method, headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' }, body: s.body });
    const text = await res.text();
    if (!res.ok) throw new Error(`${s.name}: ${res.status} ${text.slice(0, 300)}`);
    if (s.name === 'validate') console.log(`validate answers: ${text.slice(0, 160)}…`);
    if (s.name === 'results') console.log(`results page: ${(JSON.parse(text) as { results: unknown[] }).results.length} rows, ${(text.length / 1024).toFixed(0)} KB`);
  }

  const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`\nautocannon: ${CONNECTIONS} connections, ${DURATION} s each (after a 2 s warm-up), ${argv['web-processes']} web process(es), Node ${process.version}, ${os.cpus().length} CPUs, load average ${load()}\n`);
  const rows = [];
  for (const s of scenarios) {
    const r = await runScenario(url, s);
    rows.push(r);
    const server = Object.entries(r.server)
      .map(([k, v]) => `${k} ${ms(v.p50)}/${ms(v.p99)}`)
      .join(', ');
    console.log(`${r.name.padEnd(9)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(r.p50).padStart(9)}   p99 ${ms(r.p99).padStart(9)}   (${r.total} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`);
    console.log(`          server p50/p99: ${server}`);
    if (r.fixed) console.log(`          ${s.fixed.join(' + ')} per request: p50 ${ms(r.fixed.p50)}, p99 ${ms(r.fixed.p99)}`);
    const cpu = Object.entries(r.cpuPerRequest).filter(([, v]) => v > 0);
    if (cpu.length > 0) {
      const total = cpu.reduce((a, [, v]) => a + v, 0);
      const node = r.cpuPerRequest.node ?? NaN;
      console.log(`          load generator CPU per request: ${ms(r.loadCpuPerRequest)}`);
      console.log(
        `          server CPU per request: ${ms(total)} (${cpu.map(([k, v]) => `${k} ${ms(v)}`).join(', ')}) → ceilings: ${((os.cpus().length * 1000) / total).toFixed(0)} req/s on ${os.cpus().length} idle CPUs with no load generator; ${(1000 / (node / Number(argv['web-processes']))).toFixed(0)} req/s for ${argv['web-processes']} node process(es) at one CPU each`,
      );
    }
  }
  console.log(`\nload average at the end: ${load()} (figures from a busy machine are not the server's)`);
  const v = rows.find((r) => r.name === 'validate');
  if (v) {
    // The fixed cost of auth + rate limit + credit is judged at one connection: with 32 in flight
    // on one event loop, each step's time also holds the other requests' turns (queueing, not cost).
    const validate = scenarios.find((s) => s.name === 'validate')!;
    const alone = CONNECTIONS === 1 ? v : await runScenario(url, validate, { connections: 1, duration: Math.min(DURATION, 5) });
    if (alone !== v) {
      const server = Object.entries(alone.server)
        .map(([k, t]) => `${k} ${ms(t.p50)}/${ms(t.p99)}`)
        .join(', ');
      console.log(`\nvalidate at one connection: ${alone.rps.toFixed(0)} req/s, p50 ${ms(alone.p50)}; server p50/p99: ${server}; auth + rate + credit p50 ${ms(alone.fixed?.p50 ?? NaN)}, p99 ${ms(alone.fixed?.p99 ?? NaN)}`);
    }
    console.log(`\ntarget ≥ 2,000 req/s on the syntax path: ${v.rps >= 2000 ? 'met' : 'MISSED'} (${v.rps.toFixed(0)} at ${CONNECTIONS} connection(s))`);
    console.log(`target auth + rate limit + credit ≤ 2 ms at p50 (one connection): ${alone.fixed && alone.fixed.p50 <= 2 ? 'met' : 'MISSED'} (${ms(alone.fixed?.p50 ?? NaN)}${alone !== v ? `; at ${CONNECTIONS} connections, queueing included: ${ms(v.fixed?.p50 ?? NaN)}` : ''})`);
  }
} finally {
  await stop();
}
