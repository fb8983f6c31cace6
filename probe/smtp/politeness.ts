// Politeness toward mail servers, per (source IP, MX IP) pair — what receivers count: at most N
// concurrent connections (lowered for a while when a server answers 421), at most M recipients per
// session (lowered when it answers 452), and a global cap on concurrent sessions. The source is this
// node's address for the MX's family (PROBE_SOURCE_IP; '*' when the kernel picks it), so several
// nodes each hold their own caps toward a shared MX and none of them ever exceeds them. Slots are
// held until the socket has really closed, so the servers never see more than the caps. The
// counters feed stats() for benches and tests. With a fleet RCPT budget (rcpt-budget.ts), every
// RCPT toward an MX IP also waits for room in this node's share of it, whatever the source IP.
import { sourceFor } from './connection';
import { RcptBudget } from './rcpt-budget';
import { openRcptJournal } from './rcpt-journal';
import { busyBackoffMs } from './retry-schedule';
import { sleep } from '../misc/sleep';
import { Semaphore } from './semaphore';

export interface PolitenessOptions {
  maxConnectionsPerIp: number;
  maxRcptsPerSession: number;
  globalConcurrency: number;
  /** How long a lowered cap or recipient limit is remembered. */
  memoryMs?: number;
  now?: () => number;
  /** This node's source addresses (at most one IPv4 and one IPv6); none: the kernel chooses. */
  sourceIps?: readonly string[];
  /** This node's share of the fleet-wide RCPT budget per MX IP; unset: no budget. */
  rcptBudget?: { rcpts: number; windowMs: number; journal?: string };
}

/** A connection slot: call it to release; `use()` when a session really goes out on it. */
export type Slot = (() => void) & { use(): void };

interface IpState {
  slots: Semaphore;
  /** Sessions open on this address right now. */
  open: number;
  /** Moving average of how long a session to this address takes (ms). */
  sessionMs: number | null;
  rcptLimit: number;
  loweredAt: number | null;
  /** After a 421: no new connection before this time (epoch ms; 0: none). */
  quietUntil: number;
  /** 421s in a row without a session let through since: the pause doubles with each. */
  busyStreak: number;
  /** When a session to this address was last greeted (epoch ms; 0: never). */
  lastGreeting: number;
}

const MAX_TRACKED_IPS = 10_000;
/** Longest pause before reconnecting to a server that keeps answering 421 (a real-time check waits for it too). */
const MAX_QUIET_MS = 2_000;

export interface PolitenessStats {
  maxConcurrentPerIp: number;
  sessions: number;
  rcpts: number;
}

export class Politeness {
  private readonly ips = new Map<string, IpState>();
  private readonly global: Semaphore;
  private readonly memoryMs: number;
  private readonly now: () => number;
  readonly counters: PolitenessStats = { maxConcurrentPerIp: 0, sessions: 0, rcpts: 0 };

  private readonly sourceIps: readonly string[];
  /** The fleet RCPT budget per MX IP (null: none). */
  readonly budget: RcptBudget | null;

  private readonly keys = new Map<string, string>();

  constructor(private readonly o: PolitenessOptions) {
    this.sourceIps = o.sourceIps ?? [];
    const b = o.rcptBudget;
    const journal = b?.journal;
    this.budget = b ? new RcptBudget({ rcpts: b.rcpts, windowMs: b.windowMs, ...(journal ? { journal: (spanMs: number) => openRcptJournal({ path: journal, spanMs }) } : {}) }) : null;
    this.global = new Semaphore(o.globalConcurrency);
    this.memoryMs = o.memoryMs ?? 600_000;
    this.now = o.now ?? Date.now;
  }

  /**
   * Waits for a connection slot to `ip` (per-IP first, then global). Among waiters, a higher
   * `priority` goes first (callers pass their remaining work, so the longest job never starves
   * behind the tail). Returns the release function.
   */
  async acquire(ip: string, signal?: AbortSignal, priority = 0): Promise<Slot> {
    const state = this.state(ip);
    for (;;) {
      const wait = state.quietUntil - Date.now();
      if (wait > 0) await sleep(wait, signal);
      await state.slots.acquire(signal, priority);
      if (state.quietUntil <= Date.now()) break;
      state.slots.release(); // told to back off while it waited for the slot
    }
    try {
      await this.global.acquire(signal, priority);
    } catch (err) {
      state.slots.release();
      throw err;
    }
    let released = false;
    let used = false;
    const release = (): void => {
      if (released) return;
      released = true;
      if (used) state.open--;
      this.global.release();
      state.slots.release();
    };
    /** The slot carries a session: count it (an acquired slot may be handed back unused). */
    const use = (): void => {
      if (used || released) return;
      used = true;
      state.open++;
      this.counters.sessions++;
      this.counters.maxConcurrentPerIp = Math.max(this.counters.maxConcurrentPerIp, state.open);
    };
    return Object.assign(release, { use });
  }

  /** The local address sessions to `mxIp` are bound to (undefined: the kernel chooses). */
  sourceFor(mxIp: string): string | undefined {
    return sourceFor(this.sourceIps, mxIp);
  }

  /** The key caps are held under: the (source IP, MX IP) pair (remembered: it is asked several times per session). */
  private key(mxIp: string): string {
    let key = this.keys.get(mxIp);
    if (key === undefined) {
      if (this.keys.size >= MAX_TRACKED_IPS) this.keys.clear();
      key = `${this.sourceFor(mxIp) ?? '*'}>${mxIp}`;
      this.keys.set(mxIp, key);
    }
    return key;
  }

  rcptLimit(ip: string): number {
    return this.state(ip).rcptLimit;
  }

  /** A server answered 452 after `accepted` recipients in one session: never send it more. */
  lowerRcptLimit(ip: string, accepted: number): void {
    const state = this.state(ip);
    state.rcptLimit = Math.max(1, Math.min(state.rcptLimit, accepted));
    state.loweredAt = this.now();
  }

  /** A server answered 421 (too busy): allow one connection fewer than are open now. */
  lowerConnectionCap(ip: string): void {
    const state = this.state(ip);
    state.slots.setLimit(Math.max(1, Math.min(state.slots.capacity, state.slots.inUse - 1)));
    state.loweredAt = this.now();
  }

  /**
   * A server said it is too busy (421 before any recipient) or turned a connection away: one
   * connection fewer, and no new connection to it from this source for a pause (250 ms, doubling
   * with each 421 in a row, at most MAX_QUIET_MS), whichever domain it is for.
   */
  backOff(ip: string): void {
    this.lowerConnectionCap(ip);
    const state = this.state(ip);
    state.busyStreak++;
    state.quietUntil = Math.max(state.quietUntil, Date.now() + Math.min(MAX_QUIET_MS, busyBackoffMs(state.busyStreak)));
  }

  /** How long this source must still wait before connecting to `ip` again after a 421 (ms; 0: none). */
  quietFor(ip: string): number {
    const state = this.ips.get(this.key(ip));
    return state ? Math.max(0, state.quietUntil - Date.now()) : 0;
  }

  /** A session went through: the next 421 starts the pauses over. */
  welcomed(ip: string): void {
    const state = this.ips.get(this.key(ip));
    if (state) state.busyStreak = 0;
  }

  /** A session to `ip` was greeted: the server is alive, whichever domain the session was for. */
  greeted(ip: string): void {
    this.state(ip).lastGreeting = Date.now();
  }

  /** A session of this node to `ip` was greeted at or after `since` (epoch ms): the server is alive. */
  greetedSince(ip: string, since: number): boolean {
    return (this.ips.get(this.key(ip))?.lastGreeting ?? 0) >= since;
  }

  /** Sessions of this node open on `ip` right now (one asking about its own counts itself). */
  openSessions(ip: string): number {
    return this.ips.get(this.key(ip))?.open ?? 0;
  }

  observeSession(ip: string, ms: number): void {
    const state = this.state(ip);
    state.sessionMs = state.sessionMs === null ? ms : 0.8 * state.sessionMs + 0.2 * ms;
  }

  /** Typical session length to `ip` (ms); 100 ms until one was seen. */
  typicalSessionMs(ip: string): number {
    return Math.max(1, Math.round(this.ips.get(this.key(ip))?.sessionMs ?? 100));
  }

  /** Waits until the fleet budget lets at least one RCPT go to `mxIp` (at once without a budget). */
  async rcptRoom(mxIp: string, signal?: AbortSignal, priority = 0): Promise<void> {
    if (this.budget) await this.budget.take(mxIp, 0, signal, priority);
  }

  /**
   * Takes up to `wanted` RCPTs toward `mxIp` from the fleet budget, waiting for at least one;
   * resolves with how many may be sent now (all of them without a budget).
   */
  takeRcpts(mxIp: string, wanted: number, signal?: AbortSignal, priority = 0): Promise<number> {
    return this.budget ? this.budget.take(mxIp, wanted, signal, priority) : Promise.resolve(wanted);
  }

  /** The process is ending: stops writing the budget's journal. */
  close(): void {
    this.budget?.close();
  }

  countRcpts(n: number): void {
    this.counters.rcpts += n;
  }

  /** Drops the state of addresses with nothing open, waiting or remembered. */
  private forgetIdle(): void {
    for (const [ip, s] of this.ips) {
      if (s.slots.inUse === 0 && s.slots.waiting === 0 && s.loweredAt === null && s.quietUntil <= Date.now()) this.ips.delete(ip);
    }
  }

  private state(mxIp: string): IpState {
    const ip = this.key(mxIp);
    let s = this.ips.get(ip);
    if (s && s.loweredAt !== null && this.now() - s.loweredAt > this.memoryMs) {
      s.rcptLimit = this.o.maxRcptsPerSession;
      s.slots.setLimit(this.o.maxConnectionsPerIp);
      s.loweredAt = null;
    }
    if (!s) {
      if (this.ips.size >= MAX_TRACKED_IPS) this.forgetIdle();
      s = { slots: new Semaphore(this.o.maxConnectionsPerIp), rcptLimit: this.o.maxRcptsPerSession, loweredAt: null, sessionMs: null, open: 0, quietUntil: 0, busyStreak: 0, lastGreeting: 0 };
      this.ips.set(ip, s);
    }
    return s;
  }
}
