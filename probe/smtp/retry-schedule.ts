// When to ask again after a temporary (4xx) answer. Greylisting servers want the same sender back
// from the same IP after a few seconds to minutes: the first retry comes after a few seconds, later
// ones minutes apart, all inside the deadline (short for a real-time check, long for a bulk job).
// When the deadline is too short for minutes, three retries are spread over it instead.

/** The first retry: a few seconds, enough for the quick greylisters; the rest wait minutes. */
export const FIRST_RETRY_MS = 3_000;
/** Waits before each retry (the default ladder). */
export const BASE_RETRY_DELAYS_MS = [FIRST_RETRY_MS, 60_000, 120_000, 240_000, 300_000];

/** Delays (ms) between retries that all fit in `deadlineMs`; `override` replaces the ladder (tests). */
export function retrySchedule(deadlineMs: number, override?: number[]): number[] {
  const ladder = override ?? BASE_RETRY_DELAYS_MS;
  const fitted = fitToDeadline(ladder, deadlineMs);
  if (override || fitted.length >= 3 || deadlineMs <= 0) return fitted;
  // Short deadline: first retry after a few seconds, the rest growing, ending just before the deadline.
  const first = Math.min(FIRST_RETRY_MS, deadlineMs * 0.2);
  return fitToDeadline([first, deadlineMs * 0.3, deadlineMs * 0.38], deadlineMs);
}

function fitToDeadline(delays: number[], deadlineMs: number): number[] {
  const out: number[] = [];
  let total = 0;
  for (const d of delays) {
    total += d;
    if (total > deadlineMs) break;
    out.push(Math.round(d));
  }
  return out;
}

/** Backoff after a 421 (server busy): quick at first, doubling, capped at 30 s. */
export function busyBackoffMs(attempt: number): number {
  return Math.min(30_000, 250 * 2 ** Math.max(0, attempt - 1));
}
