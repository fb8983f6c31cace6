// One ProbeClient.verify call over the fleet: plans its addresses over the live daemons, sends them,
// and plans again what a failing daemon still owed, until every address is answered once. A daemon
// that refuses our token (401/403), or a PROBE_URLS entry that answers as no daemon does (a redirect,
// 404, 405, a page that is no result stream), or whose stream stays alive but brings no result for
// longer than any legitimate wait (a stalled engine: what it still owed is planned again, once), is
// left out of the rest of the call (said once); when every node that answers is left out, the call
// fails with the last reason.
// - Small domains go whole to their rendezvous-hashed daemon; a domain big enough to matter is split
//   into one share per live daemon (pick-probe.ts).
// - A split domain's random mailbox is asked once: its home share's node asks it; the other shares go
//   at the same time "catch-all pending" and their nodes are told the answer when the client has it
//   (a gate: the home node's first result carrying it, or its answer without it for the first address
//   it looks up, its "scout"; the home node's failure or a timeout tell them "nothing learnt", then
//   they ask). Shares and parts go in requests of at most MAX_BATCH addresses.
// - A quarter of each share of a split domain is held back as its reserve and handed out in parts to
//   whichever node runs low first, so nodes that started later or run slower do less.
import type { VerificationResult } from '../contract';
import { MAX_BATCH } from '../contract';
import type { CatchAllMemory } from './catch-all-memory';
import type { FleetHealth } from './fleet-health';
import { parseAddress } from '../syntax/parse-address';
import { ProbeRequestError, ProbeStalledError } from './http';
import { domainKey, planShares, type PlannedShare } from './pick-probe';
import type { FleetStats, ProbeVerifyOptions } from './probe-client';

/** Times an address may be planned again after a daemon failed on it before the call gives up. */
const MAX_REPLANS = 3;

/** Of each share of a split domain, this part is held back and handed to whichever node runs low first. */
const RESERVE_SHARE = 0.25;

/** What a call needs from its client: the fleet's health, what it has learnt, and the wire. */
export interface FleetCallDeps {
  health: FleetHealth;
  memory: CatchAllMemory;
  stats: FleetStats;
  /** A domain is split over nodes in shares of at least this many addresses. */
  splitMin: number;
  /** Longest the other shares of a split domain wait for the home share's catch-all answer. */
  catchAllWaitMs: number;
  /** One request to one daemon; resolves with the addresses it did not answer. */
  send(url: string, emails: string[], o: ProbeVerifyOptions, signal: AbortSignal, emit: (r: VerificationResult) => void, hints?: Record<string, boolean>, pending?: string[]): Promise<string[]>;
  /** Passes a split domain's catch-all answer (null: none learnt) to a node sent part of it "catch-all pending". */
  tellCatchAll(url: string, domain: string, value: boolean | null, signal: AbortSignal): void;
  /** What the node's last failed request came to ("answered 500: …"), if known. */
  lastFailure(url: string): string | undefined;
  /** Tells the operator about a node set up wrong (each message once). */
  warn(message: string): void;
}

/** The held-back addresses of one split domain, and what each node still owes of it. */
interface Reserve {
  left: string[];
  /** Addresses handed out per part. A node gets the next part once it owes no more than one part. */
  part: number;
  /** url → addresses of the domain sent to that node and not answered yet. */
  owed: Map<string, number>;
  /** Requests of the domain in flight: when none is left, what is still held back is planned again. */
  inFlight: number;
}

/** A split domain whose random mailbox its home node is asking: what the other nodes wait for. */
interface Gate {
  home: string;
  /** The home share's first address: its answer opens the gate whatever it says about catch-all. */
  scout: string;
  /** Nodes sent part of the domain "catch-all pending": each is told the answer when it comes. */
  told: Set<string>;
  timer: NodeJS.Timeout | null;
  open(): void;
}

export class FleetCall {
  private active = 0;
  private finished = false;
  private readonly gates = new Map<string, Gate>();
  private readonly reserves = new Map<string, Reserve>();
  /**
   * Nodes left out of this call, and why: they refused our token (401/403), what answered is no
   * probe daemon (a redirect, 404, 405, a page that is no result stream), or its engine stalled (a
   * live stream without results). None of its work goes to them again.
   */
  private readonly refused = new Map<string, Error>();
  /** Addresses planned again after a failure, and how often. */
  private readonly replans = new Map<string, number>();
  private settle: (err?: unknown) => void = () => undefined;

  constructor(
    private readonly deps: FleetCallDeps,
    private readonly o: ProbeVerifyOptions,
    private readonly signal: AbortSignal,
    private readonly emit: (r: VerificationResult) => void,
  ) {}

  /** Resolves when every address is answered; rejects when some could not be verified by any daemon. */
  run(emails: string[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.settle = (err) => (err === undefined ? resolve() : reject(err instanceof Error ? err : new Error(String(err))));
      this.track(() => this.dispatch(emails));
    });
  }

  private end(err?: unknown): void {
    if (this.finished) return;
    this.finished = true;
    for (const g of this.gates.values()) if (g.timer) clearTimeout(g.timer);
    this.settle(err);
  }

  /** Counts a piece of work in flight: the call ends when none is left, or at the first failure. */
  private track(work: () => Promise<void>): void {
    this.active++;
    work().then(
      () => {
        if (--this.active === 0) this.end();
      },
      (err: unknown) => this.end(err),
    );
  }

  private onResult(url: string, r: VerificationResult): void {
    const { stats } = this.deps;
    stats.answered[url] = (stats.answered[url] ?? 0) + 1;
    this.deps.memory.learn(r);
    this.emit(r);
    const key = domainKey(r.email);
    const gate = this.gates.get(key);
    // Only the home node asks the random mailbox: another node's answer for the scout (listed twice)
    // or without catch-all says nothing about it.
    if (gate && url === gate.home && (r.catch_all !== null || r.email === gate.scout)) gate.open();
    const reserve = this.reserves.get(key);
    if (reserve) {
      const owes = (reserve.owed.get(url) ?? 1) - 1;
      reserve.owed.set(url, owes);
      // This node is running out of the domain: it takes the next held-back part, so that nodes
      // which started later or run slower do not leave it idle at the end.
      if (owes <= reserve.part && reserve.left.length > 0 && !this.deps.health.isDown(url) && !this.finished) {
        stats.reserveParts++;
        const part = reserve.left.splice(0, reserve.part);
        this.track(() => this.requestPart(reserve, url, part));
      }
    }
  }

  /** A request with part of a split domain (counted in its reserve), or any other request. */
  private requestPart(reserve: Reserve | undefined, url: string, list: string[]): Promise<void> {
    if (!reserve) return this.request(url, list);
    reserve.inFlight++;
    reserve.owed.set(url, (reserve.owed.get(url) ?? 0) + list.length);
    return this.request(url, list).finally(() => {
      reserve.inFlight--;
      if (reserve.inFlight === 0 && reserve.left.length > 0 && !this.finished) {
        const rest = reserve.left.splice(0);
        this.track(() => this.dispatch(rest));
      }
    });
  }

  /** The split domains of `list` whose catch-all answer is still awaited (their nodes are to be told it). */
  private pendingFor(url: string, list: string[]): string[] | undefined {
    if (this.gates.size === 0) return undefined;
    const keys = new Set(list.map(domainKey));
    let pending: string[] | undefined;
    for (const [domain, gate] of this.gates) {
      if (!keys.has(domain) || (url === gate.home && list.includes(gate.scout))) continue; // the request that asks it
      gate.told.add(url);
      (pending ??= []).push(domain);
    }
    return pending;
  }

  private async request(url: string, list: string[]): Promise<void> {
    if (this.finished) return;
    const { stats } = this.deps;
    const hints = this.deps.memory.hintsFor(list);
    if (hints) stats.hinted++;
    const pending = this.pendingFor(url, list);
    if (pending) stats.pendingShares++;
    stats.requests[url] = (stats.requests[url] ?? 0) + 1;
    let owed: string[];
    try {
      owed = await this.deps.send(url, list, this.o, this.signal, (r) => this.onResult(url, r), hints, pending);
    } catch (err) {
      if (err instanceof ProbeStalledError) {
        // Its /healthz may well say it is fine: only its own silence says otherwise. It gets nothing
        // more of this call, and later calls skip it for as long as it kept this one waiting.
        for (const name of this.deps.health.namesOf(url)) this.refused.set(name, err);
        this.deps.warn(`${err.message}: what it still owed goes to the other probe nodes`);
        await this.replan(url, err.owed, err.waitedMs);
        return;
      }
      // Too large for a proxy in front of the node (nginx's client_max_body_size is 1 MB unless set):
      // the daemon itself takes more than any request of ours. The same node gets it in halves.
      if (err instanceof ProbeRequestError && err.status === 413 && list.length > 1) {
        stats.splitForSize++;
        const half = Math.ceil(list.length / 2);
        await Promise.all([this.request(url, list.slice(0, half)), this.request(url, list.slice(half))]);
        return;
      }
      // A node that does not take our token (a token rotation half done, a node of another fleet in
      // PROBE_URLS), or a PROBE_URLS entry that reaches no probe daemon (a path, a proxy), answers
      // before any result: its whole request goes to the nodes that do. A 400 (what we asked is
      // wrong, wherever it goes) fails the call.
      if (!(err instanceof ProbeRequestError && (err.refusedUs || err.notADaemon))) throw err;
      for (const name of this.deps.health.namesOf(url)) this.refused.set(name, err);
      this.deps.health.markDown(url);
      this.deps.warn(`${err.message}: its work goes to the other probe nodes${err.refusedUs ? '; give it the same PROBE_TOKEN as the rest' : ''}`);
      owed = list;
    }
    await this.replan(url, owed);
  }

  /** Plans again, over the live nodes, what `url` did not answer; the node is skipped for the cooldown (or `downMs`). */
  private async replan(url: string, owed: string[], downMs?: number): Promise<void> {
    if (downMs !== undefined) this.deps.health.markDown(url, downMs);
    if (owed.length === 0) return;
    // The same addresses failing again and again on daemons that say they are healthy (a request they
    // all reset): stop rather than send it forever.
    for (const e of owed) {
      const n = (this.replans.get(e) ?? 0) + 1;
      this.replans.set(e, n);
      if (n > MAX_REPLANS) {
        const why = this.deps.lastFailure(url);
        throw new Error(`probe daemons failed ${n} times on the same addresses (last: ${url}${why ? ` ${why}` : ''}); giving up`);
      }
    }
    if (downMs === undefined) this.deps.health.markDown(url);
    const { stats } = this.deps;
    stats.replanned += owed.length;
    for (const g of this.gates.values()) if (g.home === url) g.open();
    await this.dispatch(owed);
  }

  /** Plans `list` over the daemons live now and sends it. */
  private async dispatch(list: string[]): Promise<void> {
    const live = (await this.deps.health.someLive(this.signal, list.length)).filter((url) => !this.refused.has(url));
    // Every node that answers refuses our token: say so (the last refusal) rather than "none live".
    if (live.length === 0) throw [...this.refused.values()].pop() ?? new Error('no probe daemon is live');
    const probing = this.o.depth !== 'syntax' && this.o.depth !== 'mx';
    const whole = new Map<string, string[]>();
    const byDomain = new Map<string, PlannedShare[]>();
    for (const s of planShares(list, live, this.deps.splitMin)) byDomain.set(s.domain, [...(byDomain.get(s.domain) ?? []), s]);
    for (const [domain, shares] of byDomain) {
      const [home, ...rest] = shares;
      if (!home) continue;
      const reserve = this.reserveOf(domain, shares, probing && rest.length > 0);
      const send = (s: PlannedShare): void => {
        if (!reserve) return appendTo(whole, s.url, s.emails);
        for (const part of chunks(s.emails, MAX_BATCH)) this.track(() => this.requestPart(reserve, s.url, part));
      };
      // The scout is the first address the home node will look up (its syntax good, not an address
      // literal): that one goes out in the session that asks the random mailbox. Without one there is
      // no gate (and no domain the daemons would accept as "catch-all pending").
      const scout = rest.length > 0 && probing ? home.emails.find(isLookedUp) : undefined;
      if (scout !== undefined && !this.deps.memory.get(domain) && !this.gates.has(domain)) {
        this.setGate(domain, home.url, scout);
      }
      // With the gate set (or already there: owed work planned again), the other shares' requests
      // are sent pending on its answer (pendingFor).
      for (const s of shares) send(s);
    }
    for (const [url, all] of whole) for (const part of chunks(all, MAX_BATCH)) this.track(() => this.request(url, part));
  }

  /** A split domain's reserve: each share gives up its tail to it (see onResult). Made once per domain. */
  private reserveOf(domain: string, shares: PlannedShare[], split: boolean): Reserve | undefined {
    let reserve = this.reserves.get(domain);
    if (reserve || !split) return reserve;
    const cuts = shares.map((s) => Math.floor(s.emails.length * RESERVE_SHARE));
    const total = cuts.reduce((a, b) => a + b, 0);
    if (total < this.deps.splitMin) return undefined;
    const left = shares.flatMap((s, i) => s.emails.splice(s.emails.length - (cuts[i] ?? 0)));
    reserve = { left, part: Math.min(MAX_BATCH, Math.max(this.deps.splitMin, Math.ceil(left.length / (shares.length * 4)))), owed: new Map(), inFlight: 0 };
    this.reserves.set(domain, reserve);
    return reserve;
  }

  /**
   * A domain split over nodes: its home share's node asks the random mailbox (in its first sessions,
   * next to the first addresses); the others are sent "catch-all pending" and told the answer when it
   * comes — the first result that carries it, or the home share's first address answered without it,
   * the home node's failure or a timeout (then they ask themselves). The call waits for the gate.
   */
  private setGate(domain: string, home: string, scout: string): void {
    this.track(
      () =>
        new Promise<void>((done) => {
          const gate: Gate = {
            home,
            scout,
            told: new Set(),
            timer: setTimeout(() => gate.open(), this.deps.catchAllWaitMs),
            open: () => {
              if (this.gates.get(domain) === gate) this.gates.delete(domain);
              if (gate.timer) clearTimeout(gate.timer);
              gate.timer = null;
              const value = this.deps.memory.get(domain)?.value ?? null;
              for (const url of gate.told) this.deps.tellCatchAll(url, domain, value, this.signal);
              gate.told.clear();
              done();
            },
          };
          this.gates.set(domain, gate);
        }),
    );
  }
}

function appendTo(lists: Map<string, string[]>, key: string, items: string[]): void {
  const list = lists.get(key);
  if (list) for (const e of items) list.push(e);
  else lists.set(key, [...items]);
}

/** `list` in consecutive slices of at most `size`. */
function* chunks<T>(list: T[], size: number): Generator<T[]> {
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
}

/** The daemon will look this address up (DNS, SMTP): its syntax is good and it is not an address literal. */
function isLookedUp(email: string): boolean {
  const parsed = parseAddress(email);
  return parsed.ok && !parsed.details.literal;
}
