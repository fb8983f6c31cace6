// Server-side client of the probe fleet (PROBE_URLS): what the server, the CLI and the benches call.
// - Which daemons are live: fleet-health.ts (GET /healthz, remembered; a failed daemon skipped for a
//   cooldown; the fleet RCPT budget checked to add up).
// - How a call's addresses are planned over them, split domains and their one random-mailbox check
//   included, and planned again when a daemon dies mid-stream (SIGKILL, reset, 5xx), refuses our
//   token (401/403), stays silent longer than the idle timeout, or keeps its stream alive with
//   blank lines but sends no result for longer than any legitimate wait (a stalled engine):
//   fleet-call.ts. Every address is answered once.
// - What it has learnt of domains' catch-all answers, passed on as hints: catch-all-memory.ts.
// - The wire (here): one POST /v1/verify per request, its NDJSON stream read over node:http, every
//   line parsed with the contract's zod schema (the server only ever sees validated
//   VerificationResults; a node that sends anything else is treated as failed and its work planned
//   again), and POST /v1/catch-all to a node waiting for a split domain's answer.
// The fleet RCPT budget per MX is held by the nodes themselves (each keeps budget ÷ PROBE_FLEET_SIZE).
import { MAX_ADDRESS_CHARS, verificationResultSchema, type Depth, type VerificationResult } from '../contract';
import { decideBySyntax } from '../syntax/decide';
import { produced } from '../channel';
import { CatchAllMemory } from './catch-all-memory';
import { FleetCall, type FleetCallDeps } from './fleet-call';
import { FleetHealth, warnOnce } from './fleet-health';
import { bodyLines, call, discard, isNdjson, parseJson, ProbeRequestError, ProbeStalledError, readText } from './http';

export { ProbeRequestError, ProbeStalledError } from './http';

/**
 * Longest a node's result stream may go without a result, keep-alive blank lines or not, before the
 * node is taken for stalled: the daemon's greylisting deadline for the mode (15 s real-time, 10 min
 * bulk: addresses that wait it out send nothing meanwhile) plus a margin for a last retry's connect,
 * banner and reply timeouts and a tarpit's slow recipients.
 */
export const STALL_TIMEOUT_MS = { realtime: 5 * 60_000, bulk: 15 * 60_000 } as const;

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
  /**
   * Longest a node's result stream may go without a result while it stays alive (the daemon's
   * keep-alive blank lines re-arm the idle timeout, not this), per mode (default STALL_TIMEOUT_MS;
   * at least twice the fleet RCPT budget window, plus a spacing, that the node names on /healthz).
   * Past it the node's engine is taken for stalled: its request is cut, the node is left out of the
   * rest of the call and skipped for this long, and what it still owed goes to the other nodes once.
   */
  stallTimeoutMs?: { realtime?: number; bulk?: number };
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
  /** Requests cut because their node's stream, alive with keep-alives, brought no result for stallTimeoutMs. */
  stalls: number;
  /** Requests sent "catch-all pending" for a split domain whose random mailbox another node was asking. */
  pendingShares: number;
  /** Catch-all answers passed on to the nodes of those requests (POST /v1/catch-all). */
  catchAllAnswers: number;
  /** Parts of a split domain's reserve handed to a node that was running out of its share. */
  reserveParts: number;
  /** Requests sent again in halves after a 413 (a proxy's body limit in front of the node). */
  splitForSize: number;
  /** Fleet configuration problems seen on /healthz (each also logged once), e.g. more nodes than PROBE_FLEET_SIZE. */
  warnings: string[];
}

export class ProbeClient {
  private readonly token: string;
  private readonly healthTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly stallTimeoutMs: { realtime: number; bulk: number };
  private readonly health: FleetHealth;
  private readonly deps: FleetCallDeps;
  /** What each node's last failed request came to ("answered 500: …"), for the call's error when every node fails. */
  private readonly failures = new Map<string, string>();
  /**
   * When each node last sent a result, on any of this client's streams. A node works its requests
   * first come, first served at each MX address: a request queued behind another for the same mail
   * host hears nothing while the node streams the other's results. That node is busy, not stalled.
   */
  private readonly lastResultAt = new Map<string, number>();
  readonly stats: FleetStats = { requests: {}, answered: {}, replanned: 0, hinted: 0, idleTimeouts: 0, stalls: 0, pendingShares: 0, catchAllAnswers: 0, reserveParts: 0, splitForSize: 0, warnings: [] };

  /** The fleet: each daemon once, in the order given (URL spelling normalised: see probeUrl). */
  readonly urls: string[];

  constructor(o: ProbeClientOptions) {
    const urls = [...new Set(o.urls.map((u) => u.trim()).filter(Boolean).map(probeUrl))];
    if (urls.length === 0) throw new Error('ProbeClient needs at least one url');
    this.urls = urls;
    this.token = o.token;
    this.healthTimeoutMs = o.fleet?.healthTimeoutMs ?? 1_000;
    this.idleTimeoutMs = Math.max(1, o.fleet?.idleTimeoutMs ?? 60_000);
    this.stallTimeoutMs = {
      realtime: Math.max(1, o.fleet?.stallTimeoutMs?.realtime ?? STALL_TIMEOUT_MS.realtime),
      bulk: Math.max(1, o.fleet?.stallTimeoutMs?.bulk ?? STALL_TIMEOUT_MS.bulk),
    };
    this.health = new FleetHealth({
      urls,
      token: o.token,
      rounds: Math.max(1, o.retry?.rounds ?? 2),
      backoffMs: o.retry?.backoffMs ?? 500,
      cooldownMs: o.retry?.cooldownMs ?? 10_000,
      timeoutMs: this.healthTimeoutMs,
      ttlMs: o.fleet?.healthTtlMs ?? 5_000,
      warnings: this.stats.warnings,
    });
    this.deps = {
      health: this.health,
      memory: new CatchAllMemory(o.fleet?.catchAllMemoryMs ?? 600_000),
      stats: this.stats,
      splitMin: Math.max(1, o.fleet?.splitMin ?? 50),
      catchAllWaitMs: o.fleet?.catchAllWaitMs ?? 3_000,
      send: (...args) => this.send(...args),
      tellCatchAll: (...args) => this.tellCatchAll(...args),
      lastFailure: (url) => this.failures.get(url),
      warn: (message) => warnOnce(this.stats.warnings, message),
    };
  }

  /** Results in completion order. Throws when some addresses could not be verified by any daemon. */
  async *verify(emails: string[], o: ProbeVerifyOptions = {}): AsyncGenerator<VerificationResult> {
    if (emails.length === 0) return;
    // An address longer than a daemon takes is answered here, by the same syntax check (it fails it):
    // sent along, it would have the whole request refused.
    if (emails.some((e) => e.length > MAX_ADDRESS_CHARS)) {
      for (const e of emails) if (e.length > MAX_ADDRESS_CHARS) yield syntaxOnlyResult(e, o.depth ?? 'smtp');
      emails = emails.filter((e) => e.length <= MAX_ADDRESS_CHARS);
      if (emails.length === 0) return;
    }
    const stop = new AbortController();
    const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
    // Don't make an early-leaving consumer wait for the cancelled requests to wind down.
    yield* produced<VerificationResult>(stop, (push) => new FleetCall(this.deps, o, signal, push).run(emails), { awaitProducer: false });
  }

  /** The daemons that answer /healthz now (a fresh check for those not known; `fresh` re-checks all). */
  liveNodes(signal?: AbortSignal, fresh = false): Promise<string[]> {
    return this.health.liveNodes(signal, fresh);
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
    /** What the node still owes, with what went wrong remembered for the call's error. */
    const failed = (why: string): string[] => {
      this.failures.set(url, why);
      return owed();
    };
    // A node that accepts the request and then goes silent without closing (hung process, stalled
    // network) must not stall the job: each response and each result line re-arms the idle timer.
    const idle = new AbortController();
    const idleTimer = setTimeout(() => {
      this.stats.idleTimeouts++;
      idle.abort(new Error(`probe ${url} sent nothing for ${this.idleTimeoutMs} ms`));
    }, this.idleTimeoutMs);
    // The idle timer hears keep-alives; this one only results. A node whose engine is stuck while its
    // shell still sends blank lines would otherwise hold the call, and its job, for ever.
    // A node holding a share of a fleet RCPT budget may rightly keep results waiting a whole window.
    const stallMs = Math.max(this.stallTimeoutMs[o.mode === 'bulk' ? 'bulk' : 'realtime'], 2 * this.health.budgetWaitMs(url));
    // Stalled only when the node sent no result on any of this client's streams for that long: one
    // request waiting behind another at the node is re-armed for as long as the node keeps answering.
    let stalled = false;
    const onStall = (): void => {
      const quiet = performance.now() - (this.lastResultAt.get(url) ?? -Infinity);
      if (quiet < stallMs) {
        stallTimer = setTimeout(onStall, stallMs - quiet);
        return;
      }
      stalled = true;
      this.stats.stalls++;
      idle.abort(new Error(`probe ${url} sent no result for ${stallMs} ms`));
    };
    let stallTimer = setTimeout(onStall, stallMs);
    // Every address answered: only the stream's end is left to come (the node winding its sessions
    // down). One that does not come (the engine stuck after its last result, keep-alives going on) is
    // waited for one idle timeout, keep-alives or not, then the stream is left.
    let endTimer: NodeJS.Timeout | undefined;
    try {
      const res = await call(`${url}/v1/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', accept: 'application/x-ndjson' },
        body: JSON.stringify({ emails, depth: o.depth ?? 'smtp', mode: o.mode ?? 'realtime', ...(hints ? { catch_all: hints } : {}), ...(pending ? { catch_all_pending: pending } : {}) }),
        signal: AbortSignal.any([signal, idle.signal]),
      });
      idleTimer.refresh();
      const status = res.statusCode ?? 0;
      // A node that cannot take it now (5xx; 408 or 429 from it or the proxy in front of it): its
      // work goes to the others, and the node is skipped for the cooldown.
      if (status >= 500 || status === 408 || status === 429) {
        const text = await readText(res).catch(() => '');
        const error = (parseJson(text) as { error?: unknown } | null)?.error;
        const reason = (typeof error === 'string' ? error : text).replace(/\s+/g, ' ').trim().slice(0, 200);
        return failed(`answered ${status}${reason ? `: ${reason}` : ''}`);
      }
      // Not a probe daemon's answer (a redirect, no such route or method, a web page with its 200):
      // its body says nothing of ours. FleetCall leaves the node out and gives its work to the others.
      const type = res.headers['content-type'];
      if ((status >= 200 && status < 300 && !isNdjson(type)) || (status >= 300 && status < 400) || status === 404 || status === 405) {
        discard(res);
        const what = status >= 300 && status < 400 ? ` (to ${res.headers.location ?? 'nowhere said'})` : status < 300 ? ` ${type ?? 'without a content type'}` : '';
        throw new ProbeRequestError(status, `probe ${url} answered ${status}${what} to POST /v1/verify: not a probe daemon (a path, a proxy or another service at that PROBE_URLS address?)`);
      }
      if (status < 200 || status >= 300) {
        const text = await readText(res).catch(() => '');
        const error = (parseJson(text) as { error?: unknown } | null)?.error;
        const reason = typeof error === 'string' ? error : text;
        throw new ProbeRequestError(status, `probe ${url} refused the request (${status}): ${reason}`);
      }
      // Any byte re-arms it: a daemon whose addresses wait out greylisting sends blank lines meanwhile.
      for await (const line of bodyLines(res, () => idleTimer.refresh())) {
        const parsed = verificationResultSchema.safeParse(parseJson(line));
        if (!parsed.success) {
          // Not a result of ours (another service at that address, a daemon of another version, a
          // line cut short): the node is treated as failed, and what it owed goes to the others.
          warnOnce(this.stats.warnings, `probe ${url} answered a line that is not a verification result: its work goes to the other probe nodes`);
          return failed('answered a line that is not a verification result');
        }
        const result = parsed.data;
        const n = due.get(result.email);
        if (n === undefined) continue;
        if (n <= 1) due.delete(result.email);
        else due.set(result.email, n - 1);
        this.lastResultAt.set(url, performance.now());
        stallTimer.refresh();
        emit(result);
        if (due.size === 0 && !endTimer) {
          clearTimeout(stallTimer);
          clearTimeout(idleTimer);
          endTimer = setTimeout(() => idle.abort(new Error(`probe ${url} answered everything but did not end its stream`)), this.idleTimeoutMs);
        }
      }
      if (stalled) throw new ProbeStalledError(url, stallMs, owed());
      return due.size === 0 ? [] : failed(`ended its result stream with ${due.size} address(es) unanswered`);
    } catch (err) {
      if (signal.aborted) throw err;
      if (stalled) throw err instanceof ProbeStalledError ? err : new ProbeStalledError(url, stallMs, owed());
      if (err instanceof ProbeRequestError) throw err;
      // Connection refused, reset, cut short, silent too long: the caller plans it again elsewhere.
      return due.size === 0 ? [] : failed(`failed: ${(err as Error).message}`);
    } finally {
      clearTimeout(idleTimer);
      clearTimeout(stallTimer);
      clearTimeout(endTimer);
    }
  }
}

/**
 * One PROBE_URLS entry as the client writes it: an http(s) URL, scheme and host lower case, the
 * default port and trailing slashes dropped, so one daemon spelt two ways is one node (not two
 * shares of the fleet budget, nor two rendezvous choices). Anything else is refused at once, by name:
 * "probe1:8025" would otherwise only ever fail its /healthz, and every call say no daemon is live.
 */
export function probeUrl(raw: string): string {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`probe URL "${raw}" is not an http:// or https:// URL of a probe daemon (e.g. http://probe-1:8025)`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  // The daemon's endpoint pasted for its address: every /healthz would go to ".../v1/verify/healthz".
  const endpoint = /\/(v1\/verify|v1\/catch-all|healthz|metrics)$/.exec(path);
  if (endpoint) {
    throw new Error(`probe URL "${raw}" names the probe daemon's endpoint ${endpoint[0]}: give its base URL (${url.origin}${path.slice(0, endpoint.index)})`);
  }
  return `${url.origin}${path}`;
}

/** The syntax check's result for an address it decides alone (one too long to send). */
function syntaxOnlyResult(email: string, depth: Depth): VerificationResult {
  const d = decideBySyntax(email, depth);
  if (!d.decided) throw new Error('an address longer than a daemon takes passed the syntax check');
  return d.result;
}
