// Which daemons of PROBE_URLS are live: GET /healthz, remembered for a few seconds; a failed daemon
// is skipped for a cooldown and asked again after it. Also checks, from the same answers, that the
// nodes' fleet RCPT budget adds up (PROBE_URLS no longer than PROBE_FLEET_SIZE, every node agreeing),
// and warns when not: the nodes hold that budget alone, each its share (budget ÷ PROBE_FLEET_SIZE).
// One daemon listed under two names (localhost and 127.0.0.1, a host name and its address) says
// the same node id on /healthz: it is one node, used under the first of its names that answers.
import { z } from 'zod';
import { sleep } from '../misc/sleep';
import { abortError } from '../smtp/semaphore';
import { call, discard, parseJson, readText } from './http';

export interface FleetHealthOptions {
  urls: string[];
  token: string;
  /** Attempts at finding a live daemon before giving up. */
  rounds: number;
  /** Wait between those attempts. */
  backoffMs: number;
  /** How long a failed daemon is skipped before its /healthz is asked again. */
  cooldownMs: number;
  /** /healthz timeout, and how long a healthy answer is trusted. */
  timeoutMs: number;
  ttlMs: number;
  /** Where configuration problems go (each once). */
  warnings: string[];
}

/**
 * When no node answered /healthz in time, they are asked again with this many times the timeout: a
 * node that is only slow to answer (a loaded machine, a new TLS connection over a long link) is used
 * rather than the call failing with "no probe daemon".
 */
const PATIENT_HEALTH_FACTOR = 5;

const healthSchema = z.object({
  /** The daemon process's id (with our token): the same under every name it is reached by. */
  node: z.string().optional(),
  mx_rcpt_budget: z.object({ budget: z.number(), fleet_size: z.number(), window_ms: z.number(), node_share: z.number() }).optional(),
  /** false: the node does not take our token, so it did not say what budget it holds. */
  token_accepted: z.boolean().optional(),
});
type HealthBudget = NonNullable<z.infer<typeof healthSchema>['mx_rcpt_budget']>;

export class FleetHealth {
  /**
   * What each url's last /healthz (or failure) said, and until when. A node skipped for longer than
   * the cooldown (a stalled engine) is asked again after the cooldown all the same (`recheckAt`): a
   * new process there (another node id than `sidelined`, the one that stalled) is used at once; the
   * same one stays skipped until `until`. Times are the monotonic clock's (performance.now): a wall
   * clock stepped back must not keep a node skipped for as long as the step.
   */
  private readonly health = new Map<string, { ok: boolean; until: number; sidelined?: string; recheckAt?: number }>();
  private readonly checking = new Map<string, Promise<void>>();
  /** The fleet RCPT budget each node said it holds a share of (null: none). */
  private readonly budgets = new Map<string, HealthBudget | null>();
  /** The node id each url answered with (with our token). */
  private readonly nodeIds = new Map<string, string>();

  constructor(private readonly o: FleetHealthOptions) {}

  /** The daemons that answer /healthz now (a fresh check for those not known; `fresh` re-checks all). */
  async liveNodes(signal?: AbortSignal, fresh = false, patient = false): Promise<string[]> {
    const now = performance.now();
    const checks = this.o.urls.flatMap((url) => {
      const known = this.health.get(url);
      const recheck = known?.recheckAt !== undefined && known.recheckAt <= now;
      if (!fresh && known && known.until > now && !recheck) return [];
      let check = this.checking.get(url);
      if (!check) {
        // Asked on the fleet's behalf, not the caller's: a caller that gives up (its signal) stops
        // waiting for the answer, and the node's health is still what /healthz says, not "failed".
        check = this.checkHealth(url, patient ? this.o.timeoutMs * PATIENT_HEALTH_FACTOR : this.o.timeoutMs)
          .then((ok) => {
            const before = this.health.get(url);
            // Still the process that stalled (or one that names no id): skipped on until its time is up.
            if (!fresh && before?.recheckAt !== undefined && before.until > performance.now() && (!ok || this.nodeIds.get(url) === before.sidelined)) {
              before.recheckAt = performance.now() + this.o.cooldownMs;
              return;
            }
            this.health.set(url, { ok, until: performance.now() + (ok ? this.o.ttlMs : this.o.cooldownMs) });
          })
          .finally(() => this.checking.delete(url));
        this.checking.set(url, check);
      }
      return [check];
    });
    if (checks.length > 0) await (signal ? untilAborted(Promise.all(checks), signal) : Promise.all(checks));
    this.checkBudgets();
    return this.distinct(this.o.urls.filter((u) => this.health.get(u)?.ok === true));
  }

  /** `live` with each node once: a url whose node answered under an earlier url is left out (said once). */
  private distinct(live: string[]): string[] {
    const first = new Map<string, string>();
    return live.filter((url) => {
      const id = this.nodeIds.get(url);
      if (id === undefined) return true;
      const seen = first.get(id);
      if (seen === undefined) {
        first.set(id, url);
        return true;
      }
      this.warn(`PROBE_URLS names one probe node twice: ${seen} and ${url} are the same probe node; it is used once, as ${seen}`);
      return false;
    });
  }

  /**
   * At least one live daemon: when every one is remembered down they are all asked again at once,
   * then again after a backoff, for `rounds` attempts in all. Throws when none answers.
   */
  async someLive(signal: AbortSignal, addresses: number): Promise<string[]> {
    let live = await this.liveNodes(signal);
    // All remembered down: asked again at once, with patience (a node only slow to answer counts).
    if (live.length === 0) live = await this.liveNodes(signal, true, true);
    for (let round = 1; live.length === 0; round++) {
      if (round >= this.o.rounds) throw new Error(`no probe daemon could verify ${addresses} address(es) (tried ${this.o.urls.join(', ')})`);
      await sleep(this.o.backoffMs, signal);
      live = await this.liveNodes(signal, true, true);
    }
    return live;
  }

  /**
   * A daemon that failed a request: skipped for the cooldown (or `forMs`, when longer; a skip under
   * way is never shortened). One skipped longer than the cooldown is asked again after it, and comes
   * back at once if another process answers there (restarted: a new node id on /healthz).
   */
  markDown(url: string, forMs = 0): void {
    const now = performance.now();
    const until = now + Math.max(this.o.cooldownMs, forMs);
    const id = this.nodeIds.get(url);
    for (const name of this.namesOf(url)) {
      const known = this.health.get(name);
      if (known && !known.ok && known.until >= until) continue;
      const long = until > now + this.o.cooldownMs && id !== undefined;
      this.health.set(name, long ? { ok: false, until, sidelined: id, recheckAt: now + this.o.cooldownMs } : { ok: false, until });
    }
  }

  /** `url` and the other PROBE_URLS entries that answered as the same node. */
  namesOf(url: string): string[] {
    const id = this.nodeIds.get(url);
    return id === undefined ? [url] : this.o.urls.filter((u) => u === url || this.nodeIds.get(u) === id);
  }

  /**
   * The longest a node may rightly keep RCPTs waiting for room in its share of the fleet RCPT budget
   * (its window plus one spacing, as /healthz named them), or 0 when it holds none.
   */
  budgetWaitMs(url: string): number {
    const b = this.budgets.get(url);
    return b ? b.window_ms + b.window_ms / Math.max(1, b.node_share) : 0;
  }

  /** Known to have failed (an unknown daemon is not). */
  isDown(url: string): boolean {
    return this.health.get(url)?.ok === false;
  }

  private async checkHealth(url: string, timeoutMs: number): Promise<boolean> {
    try {
      const res = await call(`${url}/healthz`, { method: 'GET', headers: { authorization: `Bearer ${this.o.token}` }, signal: AbortSignal.timeout(timeoutMs) });
      if (res.statusCode !== 200) {
        discard(res);
        return false;
      }
      const body = healthSchema.safeParse(parseJson(await readText(res)));
      // A node that refused our token said nothing of its budget (its verify requests get the 401 warning).
      if (body.success && body.data.token_accepted === false) this.budgets.delete(url);
      else if (body.success) this.budgets.set(url, body.data.mx_rcpt_budget ?? null);
      // Restarted, or another node now at that name: whatever it says now (nothing: an older daemon).
      if (body.success && body.data.node !== undefined) this.nodeIds.set(url, body.data.node);
      else this.nodeIds.delete(url);
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
    // One node per id: a node listed under two names holds one share.
    const ids = new Set<string>();
    const budgets = [...this.budgets].filter(([url]) => {
      const id = this.nodeIds.get(url);
      if (id === undefined) return true;
      if (ids.has(id)) return false;
      ids.add(id);
      return true;
    });
    const seen = budgets.filter((e): e is [string, HealthBudget] => e[1] !== null);
    const first = seen[0];
    if (!first) return;
    const [, b] = first;
    const aliases = this.o.urls.filter((u) => this.nodeIds.has(u)).length - ids.size;
    const nodes = this.o.urls.length - aliases;
    if (nodes > b.fleet_size) {
      this.warn(`PROBE_URLS lists ${nodes} probe nodes but their fleet RCPT budget (${b.budget} per MX per ${b.window_ms} ms) is shared among PROBE_FLEET_SIZE=${b.fleet_size}: together they may send an MX more than the budget; set PROBE_FLEET_SIZE=${nodes} or more on every node`);
    }
    for (const [url, other] of seen) {
      if (other.budget !== b.budget || other.fleet_size !== b.fleet_size || other.window_ms !== b.window_ms) {
        this.warn(`probe nodes disagree about the fleet RCPT budget: ${first[0]} has ${b.budget} per ${b.window_ms} ms over ${b.fleet_size} nodes, ${url} has ${other.budget} per ${other.window_ms} ms over ${other.fleet_size}; give every node the same PROBE_FLEET_* values`);
      }
    }
    for (const [url, other] of budgets) {
      if (other === null) this.warn(`probe node ${url} holds no share of the fleet RCPT budget that ${first[0]} holds (PROBE_FLEET_MX_RCPT_PER_MINUTE unset there): it is not limited`);
    }
  }

  private warn(message: string): void {
    warnOnce(this.o.warnings, message);
  }
}

/** `p`, or a rejection as soon as `signal` aborts (what `p` does goes on). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const abortReason = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : abortError());

/** Logs a fleet configuration problem and keeps it in `warnings`, once per message. */
export function warnOnce(warnings: string[], message: string): void {
  if (warnings.includes(message)) return;
  warnings.push(message);
  console.warn(`[probe fleet] ${message}`);
}
