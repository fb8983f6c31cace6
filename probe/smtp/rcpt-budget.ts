// This node's share of the fleet-wide RCPT budget per MX address (PROBE_FLEET_MX_RCPT_PER_MINUTE ÷
// PROBE_FLEET_SIZE, see env.ts). One sliding-window limiter per MX IP: an RCPT may go out when
// fewer than `rcpts` went to that address within the last `windowMs + windowMs / rcpts`. The extra
// margin (one spacing) means that a receiver, which sees our RCPTs a little later than we send
// them, still never counts more than `rcpts` in any window of its own. Unlike a token bucket
// refilled at rcpts/window (a full bucket plus one window's refill can pass in one window), this
// never lets more than the share through in any window, whenever it starts.
// Waiting is the only effect: callers wait for room (by priority, then first come first served),
// abortable by their signal; nothing is ever refused, so a verdict only ever comes later.
import type { RcptJournal } from './rcpt-journal';
import { abortError } from './semaphore';

export interface RcptBudgetOptions {
  /** RCPTs per window toward one MX IP (an integer ≥ 1). */
  rcpts: number;
  /** The window (ms); production: 60,000. */
  windowMs: number;
  now?: () => number;
  /** Where grants are written down, and those of the last span before this process started are read back from (rcpt-journal.ts). */
  journal?: (spanMs: number) => RcptJournal;
}

interface Waiter {
  /** RCPTs wanted; 0: only wait until there is room (take nothing). */
  wanted: number;
  priority: number;
  grant(n: number): void;
  onAbort?: () => void;
}

interface Lane {
  /** Send times of the RCPTs still inside the span, oldest first (from `head`). */
  sent: number[];
  head: number;
  waiters: Waiter[];
  timer: NodeJS.Timeout | null;
}

const MAX_IDLE_LANES = 10_000;

export class RcptBudget {
  readonly rcpts: number;
  /** How far back RCPTs count: the window plus one spacing. */
  readonly spanMs: number;
  private readonly now: () => number;
  private readonly lanes = new Map<string, Lane>();
  private readonly journal: RcptJournal | null;
  /** RCPTs granted in total, and how many grants had to wait for room. */
  readonly counters = { granted: 0, waited: 0 };

  constructor(o: RcptBudgetOptions) {
    if (!Number.isInteger(o.rcpts) || o.rcpts < 1) throw new Error(`an RCPT budget needs a whole number of RCPTs per window, at least 1 (got ${o.rcpts})`);
    if (!Number.isFinite(o.windowMs) || o.windowMs <= 0) throw new Error(`an RCPT budget needs a positive window (got ${o.windowMs} ms)`);
    this.rcpts = o.rcpts;
    this.spanMs = o.windowMs + o.windowMs / o.rcpts;
    this.now = o.now ?? (() => performance.now());
    this.journal = o.journal?.(this.spanMs) ?? null;
    for (const [ip, times] of this.journal?.carried ?? []) {
      const sent = this.lane(ip).sent;
      for (const t of times) sent.push(t);
    }
  }

  /** Stops writing the journal (the process is ending). */
  close(): void {
    this.journal?.close();
  }

  /** RCPTs that could go to `ip` right now. */
  room(ip: string): number {
    const lane = this.lanes.get(ip);
    if (!lane) return this.rcpts;
    this.expire(lane);
    return this.rcpts - (lane.sent.length - lane.head);
  }

  /**
   * Waits until at least one RCPT may go to `ip`, then takes up to `wanted` (as many as there is
   * room for) and resolves with how many were taken. `wanted` 0 waits for room and takes nothing.
   * A higher `priority` is served first.
   */
  take(ip: string, wanted: number, signal?: AbortSignal, priority = 0): Promise<number> {
    if (signal?.aborted) return Promise.reject(abortError());
    const lane = this.lane(ip);
    if (lane.waiters.length === 0) {
      const room = this.room(ip);
      if (room >= 1) return Promise.resolve(this.grantNow(ip, lane, wanted, room));
    }
    this.counters.waited++;
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = {
        wanted,
        priority,
        grant: (n) => {
          if (waiter.onAbort) signal?.removeEventListener('abort', waiter.onAbort);
          resolve(n);
        },
      };
      if (signal) {
        waiter.onAbort = () => {
          const i = lane.waiters.indexOf(waiter);
          if (i >= 0) lane.waiters.splice(i, 1);
          reject(abortError());
          this.drain(ip, lane);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      // After every waiter of the same or a higher priority.
      let i = lane.waiters.length;
      while (i > 0 && (lane.waiters[i - 1]?.priority ?? 0) < priority) i--;
      lane.waiters.splice(i, 0, waiter);
      this.drain(ip, lane);
    });
  }

  private grantNow(ip: string, lane: Lane, wanted: number, room: number): number {
    const n = Math.max(0, Math.min(Math.floor(wanted), room));
    const t = this.now();
    this.journal?.record(ip, n);
    for (let k = 0; k < n; k++) lane.sent.push(t);
    this.counters.granted += n;
    return n;
  }

  /** Serves waiters while there is room; otherwise wakes up when the oldest RCPT leaves the span. */
  private drain(ip: string, lane: Lane): void {
    if (lane.timer) {
      clearTimeout(lane.timer);
      lane.timer = null;
    }
    while (lane.waiters.length > 0) {
      const room = this.room(ip);
      if (room < 1) {
        const oldest = lane.sent[lane.head] ?? this.now();
        const wait = Math.max(1, Math.ceil(oldest + this.spanMs - this.now()));
        lane.timer = setTimeout(() => this.drain(ip, lane), wait);
        return;
      }
      const next = lane.waiters.shift();
      if (!next) break;
      next.grant(this.grantNow(ip, lane, next.wanted, room));
    }
  }

  private expire(lane: Lane): void {
    const cutoff = this.now() - this.spanMs;
    while (lane.head < lane.sent.length && (lane.sent[lane.head] ?? Infinity) <= cutoff) lane.head++;
    if (lane.head > 64 && lane.head * 2 > lane.sent.length) {
      lane.sent = lane.sent.slice(lane.head);
      lane.head = 0;
    }
  }

  private lane(ip: string): Lane {
    let lane = this.lanes.get(ip);
    if (!lane) {
      if (this.lanes.size >= MAX_IDLE_LANES) this.forgetIdle();
      lane = { sent: [], head: 0, waiters: [], timer: null };
      this.lanes.set(ip, lane);
    }
    return lane;
  }

  /** Drops lanes with nothing waiting and nothing inside the span (they are as good as new). */
  private forgetIdle(): void {
    for (const [ip, lane] of this.lanes) {
      this.expire(lane);
      if (lane.waiters.length === 0 && lane.head >= lane.sent.length) this.lanes.delete(ip);
    }
  }
}
