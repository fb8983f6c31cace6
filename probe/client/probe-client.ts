// Server-side client of the probe fleet (PROBE_URLS). Before each call it knows which daemons are
// live (GET /healthz, remembered for a few seconds; a failed daemon is skipped for a cooldown and
// checked again after it). Small domains go whole to their rendezvous-hashed daemon; a domain big
// enough to matter (a list dominated by one provider) is split into one share per live daemon, so
// every node works on it within its own politeness caps. Every share goes at once: the home share's
// node asks the random mailbox in its first session at each MX address; the others are sent "catch-all
// pending" (they ask none and hold their "accepted" answers) and get that answer (POST /v1/catch-all)
// as soon as the client has it — the first result that carries it, or the home share's first address
// (its "scout") answered without it (then they ask themselves). So the random-mailbox check is made
// once per domain, no node sits idle waiting for it, and the answer is remembered for later calls
// (sent as a hint). A quarter of each share is held back as the domain's
// reserve and handed out in parts to whichever node runs low first (a node that started later or runs
// slower — fewer caps, a throttled source address — does less), so the nodes finish it together.
// When a daemon dies mid-stream (SIGKILL, reset, 5xx) only the addresses it still owed are planned
// again over the nodes still live: every address is answered once. A daemon whose stream stays silent longer than
// the idle timeout (hung without closing) is treated the same way. Every NDJSON line is parsed with the
// contract's zod schema: the server only ever sees validated VerificationResults.
// The fleet RCPT budget per MX is held by the nodes themselves (each keeps budget ÷ PROBE_FLEET_SIZE);
// the client only checks, from /healthz, that its PROBE_URLS has no more nodes than that size and
// that the nodes agree, and warns when not (the shares would then add up to more than the budget).
import { z } from 'zod';
import { MAX_BATCH, verificationResultSchema, type Depth, type VerificationResult } from '../contract';
import { produced } from '../channel';
import { bodyLines, call, discard, readText } from './http';
import { domainKey, planShares, type PlannedShare } from './pick-probe';

export interface ProbeClientRetry {
  /** Attempts at finding a live daemon for owed work before giving up (default 2). */
  rounds?: number;
  /** Wait between those attempts (default 500 ms). */
  backoffMs?: number;
  /** How long a failed daemon is skipped before its /healthz is asked again (default 10 s). */
  cooldownMs?: number;
}

export interface ProbeFleetOptions {
  /** A domain is split over nodes in shares of at least this many addresses (default 50). */
  splitMin?: number;
  /** Longest the other shares of a split domain wait for the home share's catch-all answer (default 3 s). */
  catchAllWaitMs?: number;
  /** How long a domain's catch-all answer is reused as a hint by later calls (default 10 min). */
  catchAllMemoryMs?: number;
  /** /healthz timeout (default 1 s) and how long a healthy answer is trusted (default 5 s). */
  healthTimeoutMs?: number;
  healthTtlMs?: number;
  /**
   * Longest a node's result stream may stay silent (no response, no result line) before the node
   * is treated as hung: its request is cut, it is skipped for the cooldown, and what it still owed
   * is planned again over the live nodes (default 60 s).
   */
  idleTimeoutMs?: number;
}

export interface ProbeClientOptions {
  urls: string[];
  token: string;
  retry?: ProbeClientRetry;
  fleet?: ProbeFleetOptions;
}

export interface ProbeVerifyOptions {
  depth?: Depth;
  mode?: 'realtime' | 'bulk';
  signal?: AbortSignal;
}

/** A request the daemons refuse (400/401/413): retrying elsewhere would not help. */
export class ProbeRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProbeRequestError';
  }
}

/** What a client has seen of the fleet, for operators and tests. */
export interface FleetStats {
  /** Requests sent per daemon url. */
  requests: Record<string, number>;
  /** Addresses answered per daemon url. */
  answered: Record<string, number>;
  /** Addresses planned again after their daemon failed. */
  replanned: number;
  /** Shares sent with a catch-all hint from another share or an earlier call. */
  hinted: number;
  /** Requests cut because their node's stream stayed silent longer than idleTimeoutMs. */
  idleTimeouts: number;
  /** Requests sent "catch-all pending" for a split domain whose random mailbox another node was asking. */
  pendingShares: number;
  /** Catch-all answers passed on to the nodes of those requests (POST /v1/catch-all). */
  catchAllAnswers: number;
  /** Parts of a split domain's reserve handed to a node that was running out of its share. */
  reserveParts: number;
  /** Fleet configuration problems seen on /healthz (each also logged once), e.g. more nodes than PROBE_FLEET_SIZE. */
  warnings: string[];
}

const healthSchema = z.object({
  mx_rcpt_budget: z.object({ budget: z.number(), fleet_size: z.number(), window_ms: z.number(), node_share: z.number() }).optional(),
});
type HealthBudget = NonNullable<z.infer<typeof healthSchema>['mx_rcpt_budget']>;

const MAX_REMEMBERED_DOMAINS = 10_000;
/** Of each share of a split domain, this part is held back and handed to whichever node runs low first. */
const RESERVE_SHARE = 0.25;

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

export class ProbeClient {
  private readonly urls: string[];
  private readonly token: string;
  private readonly rounds: number;
  private readonly backoffMs: number;
  private readonly cooldownMs: number;
  private readonly splitMin: number;
  private readonly catchAllWaitMs: number;
  private readonly catchAllMemoryMs: number;
  private readonly healthTimeoutMs: number;
  private readonly healthTtlMs: number;
  private readonly idleTimeoutMs: number;
  private readonly health = new Map<string, { ok: boolean; until: number }>();
  private readonly checking = new Map<string, Promise<boolean>>();
  private readonly catchAll = new Map<string, { value: boolean; domain: string; expires: number }>();
  /** The fleet RCPT budget each node said it holds a share of (null: none). */
  private readonly budgets = new Map<string, HealthBudget | null>();
  readonly stats: FleetStats = { requests: {}, answered: {}, replanned: 0, hinted: 0, idleTimeouts: 0, pendingShares: 0, catchAllAnswers: 0, reserveParts: 0, warnings: [] };

  constructor(o: ProbeClientOptions) {
    this.urls = [...new Set(o.urls.map((u) => u.trim().replace(/\/+$/, '')).filter(Boolean))];
    if (this.urls.length === 0) throw new Error('ProbeClient needs at least one url');
    this.token = o.token;
    this.rounds = Math.max(1, o.retry?.rounds ?? 2);
    this.backoffMs = o.retry?.backoffMs ?? 500;
    this.cooldownMs = o.retry?.cooldownMs ?? 10_000;
    this.splitMin = Math.max(1, o.fleet?.splitMin ?? 50);
    this.catchAllWaitMs = o.fleet?.catchAllWaitMs ?? 3_000;
    this.catchAllMemoryMs = o.fleet?.catchAllMemoryMs ?? 600_000;
    this.healthTimeoutMs = o.fleet?.healthTimeoutMs ?? 1_000;
    this.healthTtlMs = o.fleet?.healthTtlMs ?? 5_000;
    this.idleTimeoutMs = Math.max(1, o.fleet?.idleTimeoutMs ?? 60_000);
  }

  /** Results in completion order. Throws when some addresses could not be verified by any daemon. */
  async *verify(emails: string[], o: ProbeVerifyOptions = {}): AsyncGenerator<VerificationResult> {
    if (emails.length === 0) return;
    const stop = new AbortController();
    const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
    // Don't make an early-leaving consumer wait for the cancelled requests to wind down.
    yield* produced<VerificationResult>(stop, (push) => this.distribute(emails, o, signal, push), { awaitProducer: false });
  }

  /** The daemons that answer /healthz now (a fresh check for those not known; `fresh` re-checks all). */
  async liveNodes(signal?: AbortSignal, fresh = false): Promise<string[]> {
    const now = Date.now();
    await Promise.all(
      this.urls.map(async (url) => {
        const known = this.health.get(url);
        if (!fresh && known && known.until > now) return;
        let check = this.checking.get(url);
        if (!check) {
          check = this.checkHealth(url, signal).finally(() => this.checking.delete(url));
          this.checking.set(url, check);
        }
        const ok = await check;
        this.health.set(url, { ok, until: Date.now() + (ok ? this.healthTtlMs : this.cooldownMs) });
      }),
    );
    this.checkBudgets();
    return this.urls.filter((u) => this.health.get(u)?.ok === true);
  }

  private async checkHealth(url: string, signal?: AbortSignal): Promise<boolean> {
    try {
      const timeout = AbortSignal.timeout(this.healthTimeoutMs);
      const res = await call(`${url}/healthz`, { method: 'GET', headers: { authorization: `Bearer ${this.token}` }, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      if (res.statusCode !== 200) {
        discard(res);
        return false;
      }
      const body = healthSchema.safeParse(parseJson(await readText(res)));
      if (body.success) this.budgets.set(url, body.data.mx_rcpt_budget ?? null);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The nodes hold the budget alone (each its share, budget ÷ fleet size): the sum holds only while
   * PROBE_URLS lists no more nodes than the size the nodes were given, and they agree. Says so when not.
   */
  private checkBudgets(): void {
    const seen = [...this.budgets].filter((e): e is [string, HealthBudget] => e[1] !== null);
    const first = seen[0];
    if (!first) return;
    const [, b] = first;
    if (this.urls.length > b.fleet_size) {
      this.warn(`PROBE_URLS lists ${this.urls.length} probe nodes but their fleet RCPT budget (${b.budget} per MX per ${b.window_ms} ms) is shared among PROBE_FLEET_SIZE=${b.fleet_size}: together they may send an MX more than the budget; set PROBE_FLEET_SIZE=${this.urls.length} or more on every node`);
    }
    for (const [url, other] of seen) {
      if (other.budget !== b.budget || other.fleet_size !== b.fleet_size || other.window_ms !== b.window_ms) {
        this.warn(`probe nodes disagree about the fleet RCPT budget: ${first[0]} has ${b.budget} per ${b.window_ms} ms over ${b.fleet_size} nodes, ${url} has ${other.budget} per ${other.window_ms} ms over ${other.fleet_size}; give every node the same PROBE_FLEET_* values`);
      }
    }
    for (const [url, other] of this.budgets) {
      if (other === null) this.warn(`probe node ${url} holds no share of the fleet RCPT budget that ${first[0]} holds (PROBE_FLEET_MX_RCPT_PER_MINUTE unset there): it is not limited`);
    }
  }

  private warn(message: string): void {
    if (this.stats.warnings.includes(message)) return;
    this.stats.warnings.push(message);
    console.warn(`[probe fleet] ${message}`);
  }

  private markDown(url: string): void {
    this.health.set(url, { ok: false, until: Date.now() + this.cooldownMs });
  }

  private knownCatchAll(domain: string): { value: boolean; domain: string } | null {
    const known = this.catchAll.get(domain);
    if (!known) return null;
    if (known.expires <= Date.now()) {
      this.catchAll.delete(domain);
      return null;
    }
    return known;
  }

  private learnCatchAll(r: VerificationResult): void {
    if (r.catch_all === null || r.normalized === null) return;
    const key = domainKey(r.email);
    const known = this.catchAll.get(key);
    const now = Date.now();
    if (known && known.value === r.catch_all && known.expires > now) {
      // The same answer again (every result of a domain carries it): only the memory is renewed.
      known.expires = now + this.catchAllMemoryMs;
      return;
    }
    this.catchAll.delete(key);
    this.catchAll.set(key, { value: r.catch_all, domain: r.normalized.slice(r.normalized.lastIndexOf('@') + 1), expires: Date.now() + this.catchAllMemoryMs });
    if (this.catchAll.size > MAX_REMEMBERED_DOMAINS) {
      const oldest = this.catchAll.keys().next();
      if (!oldest.done) this.catchAll.delete(oldest.value);
    }
  }

  /** Catch-all hints for the domains of `emails` that the client already knows. */
  private hintsFor(emails: string[]): Record<string, boolean> | undefined {
    let hints: Record<string, boolean> | undefined;
    for (const key of new Set(emails.map(domainKey))) {
      const known = this.knownCatchAll(key);
      if (known) (hints ??= {})[known.domain] = known.value;
    }
    return hints;
  }

  /**
   * Plans the addresses over the live daemons and sends them; a daemon that fails hands what it
   * still owed back to a new plan over the daemons still live. Resolves when every address is answered.
   */
  private distribute(emails: string[], o: ProbeVerifyOptions, signal: AbortSignal, emit: (r: VerificationResult) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let active = 0;
      let finished = false;
      const gates = new Map<string, Gate>();
      const reserves = new Map<string, Reserve>();
      const end = (err?: unknown): void => {
        if (finished) return;
        finished = true;
        for (const g of gates.values()) if (g.timer) clearTimeout(g.timer);
        if (err === undefined) resolve();
        else reject(err instanceof Error ? err : new Error(String(err)));
      };
      const track = (work: () => Promise<void>): void => {
        active++;
        work().then(
          () => {
            if (--active === 0) end();
          },
          (err: unknown) => end(err),
        );
      };

      const onResult = (url: string, r: VerificationResult): void => {
        this.stats.answered[url] = (this.stats.answered[url] ?? 0) + 1;
        this.learnCatchAll(r);
        emit(r);
        const key = domainKey(r.email);
        const gate = gates.get(key);
        if (gate && (r.catch_all !== null || r.email === gate.scout)) gate.open();
        const reserve = reserves.get(key);
        if (reserve) {
          const owes = (reserve.owed.get(url) ?? 1) - 1;
          reserve.owed.set(url, owes);
          // This node is running out of the domain: it takes the next held-back part, so that nodes
          // which started later or run slower do not leave it idle at the end.
          if (owes <= reserve.part && reserve.left.length > 0 && this.health.get(url)?.ok !== false && !finished) {
            this.stats.reserveParts++;
            const part = reserve.left.splice(0, reserve.part);
            track(() => requestPart(reserve, url, part));
          }
        }
      };

      /** A request with part of a split domain (counted in its reserve), or any other request. */
      const requestPart = (reserve: Reserve | undefined, url: string, list: string[]): Promise<void> => {
        if (!reserve) return request(url, list);
        reserve.inFlight++;
        reserve.owed.set(url, (reserve.owed.get(url) ?? 0) + list.length);
        return request(url, list).finally(() => {
          reserve.inFlight--;
          if (reserve.inFlight === 0 && reserve.left.length > 0 && !finished) {
            const rest = reserve.left.splice(0);
            track(() => dispatch(rest));
          }
        });
      };

      /** The split domains of `list` whose catch-all answer is still awaited (their nodes are to be told it). */
      const pendingFor = (url: string, list: string[]): string[] | undefined => {
        if (gates.size === 0) return undefined;
        const keys = new Set(list.map(domainKey));
        let pending: string[] | undefined;
        for (const [domain, gate] of gates) {
          if (!keys.has(domain) || (url === gate.home && list.includes(gate.scout))) continue; // the request that asks it
          gate.told.add(url);
          (pending ??= []).push(domain);
        }
        return pending;
      };

      const request = async (url: string, list: string[]): Promise<void> => {
        if (finished) return;
        const hints = this.hintsFor(list);
        if (hints) this.stats.hinted++;
        const pending = pendingFor(url, list);
        if (pending) this.stats.pendingShares++;
        this.stats.requests[url] = (this.stats.requests[url] ?? 0) + 1;
        const owed = await this.send(url, list, o, signal, (r) => onResult(url, r), hints, pending);
        if (owed.length === 0) return;
        this.markDown(url);
        this.stats.replanned += owed.length;
        for (const g of gates.values()) if (g.home === url) g.open();
        await dispatch(owed);
      };

      const dispatch = async (list: string[]): Promise<void> => {
        let live = await this.liveNodes(signal);
        if (live.length === 0) live = await this.liveNodes(signal, true); // every daemon remembered down: ask again once now
        for (let round = 1; live.length === 0; round++) {
          if (round >= this.rounds) throw new Error(`no probe daemon could verify ${list.length} address(es) (tried ${this.urls.join(', ')})`);
          await sleep(this.backoffMs, signal);
          live = await this.liveNodes(signal, true);
        }
        const now = new Map<string, string[]>();
        const sendNow = (url: string, emails: string[]): void => {
          const list = now.get(url);
          if (list) for (const e of emails) list.push(e);
          else now.set(url, [...emails]);
        };
        const byDomain = new Map<string, PlannedShare[]>();
        for (const s of planShares(list, live, this.splitMin)) byDomain.set(s.domain, [...(byDomain.get(s.domain) ?? []), s]);
        for (const [domain, shares] of byDomain) {
          const [home, ...rest] = shares;
          if (!home) continue;
          const probing = o.depth !== 'syntax' && o.depth !== 'mx';
          let reserve = reserves.get(domain);
          if (!reserve && rest.length > 0 && probing) {
            // Each share gives up its tail to the domain's reserve (see onResult).
            const cuts = shares.map((s) => Math.floor(s.emails.length * RESERVE_SHARE));
            const total = cuts.reduce((a, b) => a + b, 0);
            if (total >= this.splitMin) {
              const left = shares.flatMap((s, i) => s.emails.splice(s.emails.length - (cuts[i] ?? 0)));
              reserve = { left, part: Math.max(this.splitMin, Math.ceil(left.length / (shares.length * 4))), owed: new Map(), inFlight: 0 };
              reserves.set(domain, reserve);
            }
          }
          const send = (s: PlannedShare): void => {
            if (reserve) {
              const r = reserve;
              track(() => requestPart(r, s.url, s.emails));
            } else sendNow(s.url, s.emails);
          };
          const scout = home.emails[0];
          if (rest.length === 0 || this.knownCatchAll(domain) || !probing || gates.has(domain) || scout === undefined) {
            // Nothing to wait for — or the domain's random mailbox is being asked already (owed work
            // planned again): these requests are sent pending on that answer (pendingFor).
            for (const s of shares) send(s);
            continue;
          }
          // A domain split over nodes: its home share's node asks the random mailbox (in its first
          // sessions, next to the first addresses); every share goes now, the others "catch-all
          // pending", and their nodes are told the answer when it comes — the first result that
          // carries it, or the home share's first address answered without it, the home node's
          // failure or a timeout (then they ask themselves).
          track(
            () =>
              new Promise<void>((done) => {
                const gate: Gate = {
                  home: home.url,
                  scout,
                  told: new Set(),
                  timer: setTimeout(() => gate.open(), this.catchAllWaitMs),
                  open: () => {
                    if (gates.get(domain) === gate) gates.delete(domain);
                    if (gate.timer) clearTimeout(gate.timer);
                    gate.timer = null;
                    const value = this.knownCatchAll(domain)?.value ?? null;
                    for (const url of gate.told) this.tellCatchAll(url, domain, value, signal);
                    gate.told.clear();
                    done();
                  },
                };
                gates.set(domain, gate);
              }),
          );
          for (const s of shares) send(s);
        }
        for (const [url, all] of now) {
          for (let i = 0; i < all.length; i += MAX_BATCH) {
            const chunk = all.slice(i, i + MAX_BATCH);
            track(() => request(url, chunk));
          }
        }
      };

      track(() => dispatch(emails));
    });
  }

  /** Passes a split domain's catch-all answer (null: none learnt) to a node sent part of it "catch-all pending". */
  private tellCatchAll(url: string, domain: string, value: boolean | null, signal: AbortSignal): void {
    this.stats.catchAllAnswers++;
    // A node that does not hear it asks the random mailbox itself after a while: failures only cost that.
    void call(`${url}/v1/catch-all`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domain, catch_all: value }),
      signal: AbortSignal.any([signal, AbortSignal.timeout(this.healthTimeoutMs)]),
    })
      .then(discard)
      .catch(() => undefined);
  }

  /** One request to one daemon; returns the addresses it did not answer. */
  private async send(url: string, emails: string[], o: ProbeVerifyOptions, signal: AbortSignal, emit: (r: VerificationResult) => void, hints?: Record<string, boolean>, pending?: string[]): Promise<string[]> {
    const due = new Map<string, number>();
    for (const e of emails) due.set(e, (due.get(e) ?? 0) + 1);
    const owed = (): string[] => [...due].flatMap(([e, n]) => Array<string>(n).fill(e));
    // A node that accepts the request and then goes silent without closing (hung process, stalled
    // network) must not stall the job: each response and each result line re-arms the idle timer.
    const idle = new AbortController();
    const idleTimer = setTimeout(() => {
      this.stats.idleTimeouts++;
      idle.abort(new Error(`probe ${url} sent nothing for ${this.idleTimeoutMs} ms`));
    }, this.idleTimeoutMs);
    try {
      const res = await call(`${url}/v1/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', accept: 'application/x-ndjson' },
        body: JSON.stringify({ emails, depth: o.depth ?? 'smtp', mode: o.mode ?? 'realtime', ...(hints ? { catch_all: hints } : {}), ...(pending ? { catch_all_pending: pending } : {}) }),
        signal: AbortSignal.any([signal, idle.signal]),
      });
      idleTimer.refresh();
      const status = res.statusCode ?? 0;
      if (status >= 500) {
        discard(res);
        return owed();
      }
      if (status < 200 || status >= 300) {
        const text = await readText(res).catch(() => '');
        const error = (parseJson(text) as { error?: unknown } | null)?.error;
        const reason = typeof error === 'string' ? error : text;
        throw new ProbeRequestError(status, `probe ${url} refused the request (${status}): ${reason}`);
      }
      for await (const line of bodyLines(res)) {
        idleTimer.refresh();
        const result = verificationResultSchema.parse(JSON.parse(line));
        const n = due.get(result.email);
        if (n === undefined) continue;
        if (n <= 1) due.delete(result.email);
        else due.set(result.email, n - 1);
        emit(result);
      }
      return owed();
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof ProbeRequestError || (err as Error).name === 'ZodError') throw err;
      return owed(); // connection refused, reset, cut short, silent too long: the caller plans it again elsewhere
    } finally {
      clearTimeout(idleTimer);
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
