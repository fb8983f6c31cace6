// Per-request timings of the public API's fixed costs, sent as a `Server-Timing` header (W3C Server
// Timing: `auth;dur=0.41, rate;dur=0.32, credit;dur=0.77`, milliseconds). /v1 opens a timing scope
// per request (rest/mount.ts); the key check, the rate limit and the credit reservation time
// themselves with `timed`, wherever they run. Outside a scope `timed` only calls through.
// `npm run bench:api` reads the header to report what auth + rate limit + credit cost per request.
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

export type TimingName = 'auth' | 'rate' | 'credit' | 'probe' | 'store';

const scope = new AsyncLocalStorage<Map<TimingName, number>>();

/** Runs `fn` with a fresh timing scope (one per request). */
export function withTimingScope<T>(fn: () => T): T {
  return scope.run(new Map(), fn);
}

/** Awaits `fn`, adding its duration to `name` in the current scope. */
export async function timed<T>(name: TimingName, fn: () => Promise<T>): Promise<T> {
  const timings = scope.getStore();
  if (!timings) return fn();
  const start = performance.now();
  try {
    return await fn();
  } finally {
    timings.set(name, (timings.get(name) ?? 0) + performance.now() - start);
  }
}

/** The Server-Timing value of the current scope, or null when nothing was timed. */
export function serverTimingHeader(): string | null {
  const timings = scope.getStore();
  if (!timings || timings.size === 0) return null;
  return [...timings].map(([name, ms]) => `${name};dur=${ms.toFixed(3)}`).join(', ');
}

/** Parses a Server-Timing value back into { name: ms } (for the benchmark and tests). */
export function parseServerTiming(value: string | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (value ?? '').split(',')) {
    const m = /^\s*([A-Za-z0-9_-]+)\s*;\s*dur=([0-9.]+)/.exec(part);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}
