// Asks one domain's mail servers about many mailboxes at once. Recipients are packed into as few
// sessions as the per-session limit allows (plus one random mailbox for catch-all); sessions are
// spread over the MX addresses of the best preference (RFC 5321 5.1) and run in parallel up to the
// per-IP connection cap. Each mailbox is settled as soon as its answer is final: permanent replies
// at once; greylisting retried on the schedule against the same IP with the same MAIL FROM; 452
// continued in a new session with a lower limit; 421 backed off; a dead, silent or busy (4xx at
// the greeting) server falls through to another address of the same preference, then to the next preference.
// No dead time before the next MX: a session whose server has not greeted within the head start
// lets its recipients be asked at the next address too, in parallel; the first final answer wins
// (a less-preferred address's refusal only once a more-preferred one that has begun greeting has
// failed: a backup MX may refuse what it cannot check) and the other session is closed (QUIT if
// greeted, else disconnected). A lone slow server is still waited for up to the banner timeout. An
// "accepted" is trusted only from an address that refused the random mailbox itself (asked there in
// the same session): a backup MX that accepts everything is caught as catch-all, and its "accepted"
// waits for a more-preferred server that took our connection, up to its banner timeout, whose answer
// decides (a slow greeter behind a store-and-forward backup); so do the refusals of a backup that
// has not shown it knows the recipients (accepting one, refusing another).
import type { SmtpReply } from '../contract';
import type { SmtpFinding } from '../score';
import { catchAllFromFinding, randomLocalPart } from './catch-all';
import type { Politeness } from './politeness';
import { classifyReply, saysTooManyInvalid, temporarilyRefusesUs } from './reply-codes';
import { busyBackoffMs } from './retry-schedule';
import { runSession, type SessionResult } from './session';
import type { SessionPool } from './session-pool';
import { abortError } from './semaphore';

/** The last greylisting retry goes out this long before the deadline (at most 10% of it). */
const LAST_RETRY_MARGIN_MS = 5_000;
const SMTPUTF8_DETAIL = 'the mail server does not offer SMTPUTF8 (RFC 6531): an address with a non-ASCII local part cannot be sent to or checked there';
/** Retries after a 421 greeting before the address counts as unreachable. */
const MAX_BUSY_RETRIES = 4;
/**
 * Sessions at one address that the server hung up on before answering any recipient, beyond those
 * that answered some, after which a hang-up is no longer blamed on the recipient awaited alone: a
 * server whose recipient check is broken would otherwise be reconnected to twice per address.
 */
const FREE_HANGUPS = 8;
/** Added to the priority of real-time checks: they overtake any bulk work waiting for a slot. */
const URGENT_BOOST = 1e9;

export interface Target {
  host: string;
  ip: string;
  /** MX preference: addresses of equal preference share the load; higher numbers are fallbacks. */
  priority: number;
}

export interface SmtpContext {
  politeness: Politeness;
  port: number;
  heloName: string;
  mailFrom: string;
  connectTimeoutMs: number;
  bannerTimeoutMs: number;
  replyTimeoutMs: number;
  maxConnectionsPerIp: number;
  /** IPs whose TLS handshake failed: talk to them in plain text. */
  noTlsIps: Set<string>;
  /** IPs that answered a pipelined group out of step: one command at a time there (optional). */
  noPipeliningIps?: Set<string>;
  /** Lets domains on the same mail server address share sessions (optional). */
  pool?: SessionPool<unknown>;
  /** Addresses found unreachable recently (ip → until when), tried last by later checks (optional). */
  unreachableUntil?: Map<string, number>;
  /**
   * How long a server may take to connect and greet before the next MX address is tried in
   * parallel (ms; 0 or unset: only after the timeouts).
   */
  headStartMs?: number;
}

/** How long an unreachable mail server address is tried last. */
export const UNREACHABLE_MEMORY_MS = 300_000;

export interface MailboxOutcome {
  finding: SmtpFinding;
  mxHost: string | null;
  mxIp: string | null;
  replies: SmtpReply[];
  retries: number;
  detail: string | null;
}

export interface DomainProbeParams {
  targets: Target[];
  /** Distinct RCPT addresses. */
  addresses: string[];
  /** The random mailbox to ask for catch-all, or null when catch-all is already known. */
  randomAddress: string | null;
  /**
   * Catch-all already known for the domain (a fleet peer's answer): true trusts no "accepted"; false
   * holds at the domain's most-preferred addresses, where the peer asked.
   */
  knownCatchAll: boolean | null;
  /**
   * What the random mailbox said at these addresses in an earlier check (this node's cache): each
   * answer holds at its own address only, and is not asked again there.
   */
  knownCatchAllAt?: ReadonlyMap<string, boolean>;
  /**
   * A fleet peer is asking the domain's random mailbox right now: its answer, when it comes (null:
   * it learnt nothing). Meanwhile no random mailbox is asked here and "accepted" answers wait; after a
   * null the random mailbox is asked here as usual. Resolves, never rejects.
   */
  peerCatchAll?: Promise<boolean | null>;
  ctx: SmtpContext;
  deadlineMs: number;
  retryDelaysMs: number[];
  /** Real-time checks (someone is waiting) go before bulk work when slots are scarce. */
  urgent?: boolean;
  signal?: AbortSignal;
  onSettled: (address: string, outcome: MailboxOutcome, catchAll: boolean | null) => void;
}

interface Ask {
  address: string;
  random: boolean;
  /** Position in DomainProbe.asks (the order recipients are taken in). */
  seq: number;
  /** Preference tier (index into the sorted distinct priorities) whose addresses may serve this ask. */
  tier: number;
  /** Greylisted and 421'd asks go back to the address that answered them. */
  pin: string | null;
  /** Addresses this ask must not use again (silent, refused at the greeting). */
  avoid: Set<string>;
  notBefore: number;
  retries: number;
  greylistRetries: number;
  busyCount: number;
  silentCount: number;
  settled: boolean;
  /** Sessions this ask is in right now (two while an MX race is on). */
  flights: number;
  /** Addresses of those sessions. */
  at: Set<string>;
  /** Its session's server is slow to greet: another address may ask it in parallel. */
  released: boolean;
  /** The last greylisting retry before the deadline was made. */
  lastChance: boolean;
  /** A 421 came after the greeting (to MAIL or RCPT): the server let us in, then was busy. */
  busyAfterGreeting: boolean;
  /**
   * A refusal from a less-preferred address during an MX race, held while a more-preferred one that
   * has begun greeting is still asked: it stands only if that one gives no answer (the ask would go
   * back where it was refused).
   */
  held: { finding: SmtpFinding; replies: SmtpReply[]; target: Target } | null;
  /**
   * A 5xx at the greeting or to our MAIL FROM from an address whose equal-preference peers are still
   * to be asked (RFC 5321 5.1: any of them may take the mail): the ask goes on to those, and the
   * refusal is its answer when none of them lets us in. Never handed to a less-preferred address.
   */
  refusal: { replies: SmtpReply[]; target: Target; detail: string | null } | null;
  /**
   * Accepted by an address that accepts the random mailbox too, and asked again at an address of the
   * same preference that refused it (one that knows the recipients): that answer, kept in case the
   * second ask gets no final answer.
   */
  reasked: { replies: SmtpReply[]; target: Target; detail: string | null } | null;
  /** A server of its preference that greeted would not answer for it: no less-preferred address is asked. */
  stayInTier: boolean;
}

/** One session in progress, as the head start and the race see it. */
interface Flight {
  ip: string;
  parts: { probe: DomainProbe; asks: Ask[] }[];
  cancel: AbortController;
  /** The server has begun its greeting (sent anything): alive, however slow. */
  heard: boolean;
  /** The server took the connection: it may yet greet, up to the banner timeout. */
  connected: boolean;
  greeted: boolean;
  done: boolean;
}

/** What a probe of one domain found about catch-all. */
export interface DomainProbeResult {
  /** true when any address accepted the random mailbox, false when one refused it, else null. */
  catchAll: boolean | null;
  /** Per MX address that answered the random mailbox: accepted (true), refused (false), undetermined (null). */
  catchAllByIp: Map<string, boolean | null>;
}

/** A 421 in the middle of the RCPTs of a session, and its position in the session. */
interface Closing {
  reply: SmtpReply;
  index: number;
}

/** What the whole (possibly shared) session showed, beyond one domain's share of it. */
interface SessionFacts {
  closing: Closing | null;
  /** RCPT replies received in the session. */
  answered: number;
  /** Recipients (session-wide index) from here on were held back by the fleet RCPT budget, never sent. */
  heldFrom: number;
  /** Session-wide index of the first "too many recipients" (452) reply; -1: none. */
  firstTooMany: number;
  /** Session-wide index of the recipient whose reply timed out (SessionResult.stalledAt); -1: none. */
  stalledAt: number;
  /** Unreachable, but the server is alive: the connection was turned away (its limit per client). */
  turnedAway: boolean;
}

const isFinalClass = (cls: string): cls is SmtpFinding =>
  cls === 'accepted' || cls === 'mailbox_not_found' || cls === 'mailbox_disabled' || cls === 'mailbox_full' || cls === 'policy_block';

/** Probes the addresses; resolves with the catch-all finding once every address is settled. */
export function probeDomain(p: DomainProbeParams): Promise<DomainProbeResult> {
  return new DomainProbe(p).run();
}

/** A reply at the greeting (banner, EHLO, HELO): about the server or us, not about any recipient. */
function atGreeting(reply: SmtpReply | null): boolean {
  return reply?.stage === 'banner' || reply?.stage === 'ehlo' || reply?.stage === 'helo';
}

/** Targets grouped by MX preference, best first. */
export function preferenceTiers(targets: Target[]): Target[][] {
  const priorities = [...new Set(targets.map((t) => t.priority))].sort((a, b) => a - b);
  return priorities.map((prio) => targets.filter((t) => t.priority === prio));
}

class DomainProbe {
  private readonly asks: Ask[];
  private readonly tiers: Target[][];
  /** The addresses of each tier (what an ask may use while nothing is dead, avoided or slow). */
  private readonly tierIps: string[][];
  /** asks[0 .. head) are all settled: scans start at head. */
  private head = 0;
  /** Unsettled asks with a pin, which `take` serves first. */
  private readonly pinned = new Set<Ask>();
  /** Mailboxes (not random-mailbox asks) not settled yet. */
  private openMailboxes: number;
  private readonly byIp = new Map<string, Target>();
  private readonly start = Date.now();
  private readonly dead = new Set<string>();
  /** Addresses that greeted one of this domain's sessions: a connection dropped there is turned away, not a dead server. */
  private readonly greetedAt = new Set<string>();
  private readonly workers = new Map<string, number>();
  /** Per address: sessions hung up on before any recipient was answered, and sessions that answered some. */
  private readonly hangUps = new Map<string, { silent: number; answered: number }>();
  /**
   * Addresses that did not greet within the head start, or were found unreachable a moment ago:
   * others go first while there are any.
   */
  private readonly slow = new Set<string>();
  /** Sessions racing another session for the same recipients. */
  private readonly races = new Set<Flight>();
  /** Sessions in progress that carry this domain's recipients. */
  private readonly open = new Set<Flight>();
  /** The random mailbox's answer per MX address (see DomainProbeResult). */
  private readonly randomAt = new Map<string, boolean | null>();
  /** Addresses that accepted one of our real recipients and refused another: they know the recipients. */
  private readonly discerning = new Set<string>();
  private readonly randomReplyAt = new Map<string, SmtpReply>();
  /** Random-mailbox asks pinned to an address, by address ('*': the first, unpinned one). */
  private readonly randomAsks = new Map<string, Ask>();
  /** "accepted" answers waiting for the random mailbox's answer at the address that gave them. */
  private readonly waitingAccepted: { address: string; outcome: MailboxOutcome; ip: string | null; ask: Ask }[] = [];
  /** The random mailbox asked where an answer needs one (the given one, or a new one when catch-all was known). */
  private readonly spareRandom: string | null;
  /** While a peer's catch-all answer is awaited (peerCatchAll), nothing that needs it is decided. */
  private peerWaiting = false;
  /** The peer's answer once in: a domain-wide catch-all like knownCatchAll (null: it learnt nothing). */
  private peerValue: boolean | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unsettled: number;
  private finish!: (v: DomainProbeResult) => void;
  private fail!: (e: Error) => void;
  private done = false;

  constructor(private readonly p: DomainProbeParams) {
    this.tiers = preferenceTiers(p.targets);
    this.tierIps = this.tiers.map((tier) => tier.map((t) => t.ip));
    for (const t of p.targets) if (!this.byIp.has(t.ip)) this.byIp.set(t.ip, t);
    this.asks = p.addresses.map((a, i) => newAsk(a, false, i));
    this.unsettled = this.asks.length;
    this.openMailboxes = this.asks.length;
    const first = p.addresses[0];
    this.spareRandom = p.randomAddress ?? (first !== undefined ? `${randomLocalPart()}@${domainOf(first)}` : null);
  }

  run(): Promise<DomainProbeResult> {
    return new Promise((resolve, reject) => {
      this.finish = resolve;
      this.fail = reject;
      if (this.p.signal?.aborted) return this.abort();
      this.p.signal?.addEventListener('abort', this.abort, { once: true });
      this.pool?.join(this.byIp.keys(), this);
      this.putRecentlyUnreachableLast();
      if (this.p.peerCatchAll) {
        this.peerWaiting = true;
        void this.p.peerCatchAll.then(this.onPeerAnswer);
      }
      if (this.p.randomAddress !== null && this.asks.length > 0) this.askRandomEverywhere();
      if (this.tiers.length === 0) {
        for (const a of this.asks) this.settle(a, 'smtp_unreachable', [], null, 'no mail server address to try');
      }
      this.checkDone();
      this.pump();
    });
  }

  /** The peer's catch-all answer: the "accepted" answers held for it are decided (or their random mailbox asked here). */
  private readonly onPeerAnswer = (value: boolean | null): void => {
    if (this.done) return;
    this.peerWaiting = false;
    this.peerValue = value;
    this.flushWaiting();
    this.checkDone();
  };

  private readonly abort = (): void => {
    if (this.done) return;
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.pool?.leave(this.byIp.keys(), this);
    this.fail(abortError());
  };

  /**
   * Addresses that were unreachable a moment ago (for any domain) are not waited on first: they
   * are used last, like slow ones (any other address of any preference goes first), and are
   * still tried when every other address has failed.
   */
  private putRecentlyUnreachableLast(): void {
    const memory = this.p.ctx.unreachableUntil;
    if (!memory) return;
    const now = Date.now();
    for (const ip of this.byIp.keys()) if ((memory.get(ip) ?? 0) > now) this.slow.add(ip);
  }

  private get pool(): SessionPool<DomainProbe> | undefined {
    return this.p.ctx.pool as SessionPool<DomainProbe> | undefined;
  }

  /**
   * Addresses an ask may use now: its pin, or the live, not-avoided addresses of its tier; of those,
   * the ones that greeted in time, else those of the next preference that did, else the slow ones.
   */
  private candidates(a: Ask): readonly string[] {
    if (a.pin !== null) return [a.pin];
    const here = this.usable(a, a.tier);
    // Refused by one server of its preference: only that preference's other servers may answer.
    if (this.slow.size === 0 || a.refusal || a.stayInTier) return here;
    const fast = here.filter((ip) => !this.slow.has(ip));
    if (fast.length > 0) return fast;
    for (let t = a.tier + 1; t < this.tiers.length; t++) {
      const next = this.usable(a, t).filter((ip) => !this.slow.has(ip));
      if (next.length > 0) return next;
    }
    return here;
  }

  /** The live addresses of a tier the ask has not been told to avoid (the shared tier list when that is all of them). */
  private usable(a: Ask, tier: number): readonly string[] {
    const ips = this.tierIps[tier] ?? [];
    if (this.dead.size === 0 && a.avoid.size === 0) return ips;
    return ips.filter((ip) => !this.dead.has(ip) && !a.avoid.has(ip));
  }

  /** Moves `head` past the settled asks at the front. */
  private skipSettled(): void {
    while (this.head < this.asks.length && this.asks[this.head]?.settled) this.head++;
  }

  private setPin(a: Ask, ip: string | null): void {
    a.pin = ip;
    if (ip === null) this.pinned.delete(a);
    else this.pinned.add(a);
  }

  /** The ask is waiting for a session (not settled, not delayed, not in one unless released from a slow one). */
  private ready(a: Ask, now: number): boolean {
    return !a.settled && a.notBefore <= now && (a.flights === 0 || a.released);
  }

  /**
   * Starts workers for addresses with ready recipients; arms a timer for the next delayed retry.
   * The scan stops early once every live address has enough ready recipients for all the
   * connections it may open (a big domain is not walked whole after every session); a later pump
   * that gets to the end arms the timer.
   */
  private pump(): void {
    if (this.done) return;
    const now = Date.now();
    let nextAt = Infinity;
    const demand = new Map<string, number>(); // ip → recipients it could take now (shared ones split evenly)
    const limits = new Map<string, number>();
    const limitOf = (ip: string): number => {
      let limit = limits.get(ip);
      if (limit === undefined) limits.set(ip, (limit = this.p.ctx.politeness.rcptLimit(ip)));
      return limit;
    };
    const maxConn = this.p.ctx.maxConnectionsPerIp;
    let live = 0;
    for (const ip of this.byIp.keys()) if (!this.dead.has(ip)) live++;
    let saturated = 0;
    let complete = true;
    this.skipSettled();
    for (let i = this.head; i < this.asks.length; i++) {
      const a = this.asks[i] as Ask;
      if (a.settled || (a.flights > 0 && !a.released)) continue;
      if (a.pin !== null && a.flights === 0 && this.dead.has(a.pin)) {
        // Pinned to an address found dead since (no worker will serve it): elsewhere, or unreachable.
        const pin = a.pin;
        if (this.avoid(a, pin)) this.requeue(a, 0, true);
        else this.settle(a, 'smtp_unreachable', [], this.byIp.get(pin) ?? null, 'the mail server stopped answering');
        if (this.done) return;
        continue;
      }
      const held = a.held;
      if (held && a.flights === 0 && this.candidates(a).includes(held.target.ip)) {
        // The more-preferred address gave no answer and the ask would go where it was answered: that stands.
        this.settle(a, held.finding, held.replies, held.target, null);
        if (this.done) return;
        continue;
      }
      if (a.notBefore > now) {
        nextAt = Math.min(nextAt, a.notBefore);
        continue;
      }
      const all = this.candidates(a);
      const ips = a.at.size === 0 ? all : all.filter((ip) => !a.at.has(ip));
      for (const ip of ips) {
        const before = demand.get(ip) ?? 0;
        const after = before + 1 / ips.length;
        demand.set(ip, after);
        const full = maxConn * limitOf(ip);
        if (before < full && after >= full) saturated++;
      }
      if (live > 0 && saturated >= live) {
        complete = false;
        break;
      }
    }
    for (const [ip, n] of demand) {
      const limit = limitOf(ip);
      const want = Math.min(maxConn, Math.ceil(n / limit - 1e-9));
      for (let w = this.workers.get(ip) ?? 0; w < want; w++) void this.worker(ip);
    }
    if (!complete) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (nextAt < Infinity) this.timer = setTimeout(() => this.pump(), Math.max(0, nextAt - now));
  }

  private async worker(ip: string): Promise<void> {
    const target = this.byIp.get(ip);
    if (!target) return;
    this.workers.set(ip, (this.workers.get(ip) ?? 0) + 1);
    try {
      while (!this.done && !this.dead.has(ip)) {
        // The server said it is too busy and the pause before the next connection ends past the
        // deadline: what would wait for it gets its answer now (elsewhere, or busy until the deadline).
        const quiet = this.p.ctx.politeness.quietFor(ip);
        if (quiet > 0 && Date.now() + quiet - this.start > this.p.deadlineMs) {
          this.busyToTheDeadline(ip, target);
          break;
        }
        // With a fleet RCPT budget, connect only once there is room to send (no idle sessions).
        await this.p.ctx.politeness.rcptRoom(ip, this.p.signal, this.priority(ip));
        const release = await this.p.ctx.politeness.acquire(ip, this.p.signal, this.priority(ip));
        const limit = this.p.ctx.politeness.rcptLimit(ip);
        const batch = this.done || this.dead.has(ip) ? [] : this.take(ip, limit);
        if (batch.length === 0) {
          release();
          break;
        }
        // Fill the session with other domains' recipients for the same server address.
        const parts: { probe: DomainProbe; asks: Ask[]; target: Target }[] = [{ probe: this, asks: batch, target }];
        let room = limit - batch.length;
        for (const other of this.pool?.others(ip, this) ?? []) {
          if (room <= 0) break;
          const t = other.byIp.get(ip);
          if (!t || other.done || other.dead.has(ip)) continue;
          const asks = other.take(ip, room);
          if (asks.length === 0) continue;
          parts.push({ probe: other, asks, target: t });
          room -= asks.length;
        }
        const all = parts.flatMap((part) => part.asks);
        const flight: Flight = { ip, parts, cancel: new AbortController(), heard: false, connected: false, greeted: false, done: false };
        // A recipient asked elsewhere too (its first server is slow): this session races that one.
        if (all.some((a) => a.flights > 1)) for (const part of parts) part.probe.races.add(flight);
        for (const part of parts) part.probe.open.add(flight);
        const headStart = this.p.ctx.headStartMs ?? 0;
        const slowTimer =
          headStart > 0
            ? setTimeout(() => {
                if (flight.greeted || flight.done) return;
                for (const part of parts) part.probe.onSlow(flight, part.asks);
              }, headStart)
            : null;
        const startedAt = Date.now();
        release.use();
        const res = await runSession({
          ip,
          port: this.p.ctx.port,
          host: target.host,
          heloName: this.p.ctx.heloName,
          mailFrom: this.p.ctx.mailFrom,
          localAddress: this.p.ctx.politeness.sourceFor(ip),
          rcpts: all.map((a) => a.address),
          startTls: !this.p.ctx.noTlsIps.has(ip),
          pipelining: !this.p.ctx.noPipeliningIps?.has(ip),
          connectTimeoutMs: this.p.ctx.connectTimeoutMs,
          bannerTimeoutMs: this.p.ctx.bannerTimeoutMs,
          replyTimeoutMs: this.p.ctx.replyTimeoutMs,
          signal: this.p.signal,
          cancel: flight.cancel.signal,
          onConnected: () => {
            flight.connected = true;
          },
          onHeard: () => {
            flight.heard = true;
          },
          onGreeted: () => {
            flight.greeted = true;
            this.p.ctx.politeness.greeted(ip);
            for (const part of parts) part.probe.greetedAt.add(ip);
          },
          onRcptsSent: (n) => this.p.ctx.politeness.countRcpts(n),
          onClosed: release,
          takeRcpts: (n, signal) => this.p.ctx.politeness.takeRcpts(ip, n, signal, this.priority(ip)),
        });
        flight.done = true;
        if (slowTimer) clearTimeout(slowTimer);
        if (res.outcome !== 'aborted') this.p.ctx.politeness.observeSession(ip, Date.now() - startedAt);
        const closingAt = res.rcptReplies.findIndex((r) => r !== null && r.code === 421);
        const closing = closingAt >= 0 ? { reply: res.rcptReplies[closingAt] as SmtpReply, index: closingAt } : null;
        // Told "too busy" before any recipient (421 at the greeting, MAIL or the first RCPT), or turned
        // away while our other sessions there are answered: one connection fewer, and for every
        // domain this node sends there, a pause before the next connection (once per session).
        // Not let in while the server greets our other sessions, for this domain or any other on the
        // same address (or, dropped at once, while others are open there): its limit per client
        // (a connection closed, reset or left silent instead of a 421), not a dead server.
        const politeness = this.p.ctx.politeness;
        const turnedAway =
          res.outcome === 'unreachable' &&
          (parts.some((part) => part.probe.greetedAt.has(ip)) || politeness.greetedSince(ip, startedAt) || (res.droppedBeforeGreeting && politeness.openSessions(ip) > 1));
        if (res.outcome === 'busy' || closingAt === 0 || turnedAway) this.p.ctx.politeness.backOff(ip);
        else if (res.outcome === 'ok') this.p.ctx.politeness.welcomed(ip);
        // A session that answered some recipients and then went quiet or hung up: its limit.
        const heldFrom = all.length - res.heldBack;
        // Recipients not sent for want of SMTPUTF8 count as answered here: they are no sign of a limit.
        const answered = res.rcptReplies.filter((r, i) => r !== null || (i < heldFrom && res.needsSmtpUtf8[i])).length;
        // A recipient limit (452), or, after the first recipient, a refusal for the unknown ones seen
        // so far in the session (anti-harvesting): the rest go again in sessions that stay under it.
        const firstTooMany = res.rcptReplies.findIndex((r, i) => r !== null && (classifyReply(r) === 'too_many_recipients' || (i > 0 && saysTooManyInvalid(r))));
        const stalledAt = res.stalledAt ?? -1;
        if (!closing && res.outcome === 'ok' && answered > 0 && answered < heldFrom) this.p.ctx.politeness.lowerRcptLimit(ip, answered);
        let offset = 0;
        for (const part of parts) {
          for (const a of part.asks) {
            a.flights--;
            a.at.delete(ip);
            if (a.flights === 0) a.released = false;
          }
          part.probe.races.delete(flight);
          part.probe.open.delete(flight);
          const share: SessionResult = { ...res, rcptReplies: res.rcptReplies.slice(offset, offset + part.asks.length), needsSmtpUtf8: res.needsSmtpUtf8.slice(offset, offset + part.asks.length) };
          if (!part.probe.done) part.probe.handle(share, part.asks, part.target, offset, { closing, answered, heldFrom, firstTooMany, stalledAt, turnedAway });
          offset += part.asks.length;
        }
        for (const part of parts) part.probe.sweepRaces();
      }
    } catch (err) {
      if (!this.done && (err as Error).name !== 'AbortError') {
        this.done = true;
        this.fail(err as Error);
      }
    } finally {
      this.workers.set(ip, (this.workers.get(ip) ?? 1) - 1);
      if (!this.done) this.pump();
    }
  }

  /**
   * The domain's remaining critical path, as its scheduling priority: rounds of sessions still
   * needed per usable address, times how long a session to this server typically takes.
   */
  private priority(ip: string): number {
    const ips = (this.tiers[0] ?? []).filter((t) => !this.dead.has(t.ip)).length || 1;
    const limit = this.p.ctx.politeness.rcptLimit(ip);
    const rounds = Math.ceil(this.unsettled / (limit * ips));
    return rounds * this.p.ctx.politeness.typicalSessionMs(ip) + (this.p.urgent ? URGENT_BOOST : 0);
  }

  /**
   * A session to `flight.ip` has not greeted within the head start: its recipients that have
   * another address to try are released to be asked there in parallel. A lone server is waited for.
   */
  private onSlow(flight: Flight, asks: Ask[]): void {
    if (this.done) return;
    this.slow.add(flight.ip);
    let released = false;
    for (const a of asks) {
      if (a.settled || a.flights === 0) continue;
      if (this.candidates(a).some((ip) => !a.at.has(ip))) {
        a.released = true;
        released = true;
      }
    }
    if (!released) return;
    // Where they go, the random mailbox goes in the same session: an "accepted" there is then known
    // at once to be trusted, or to wait for this slow server (a backup that takes everyone).
    for (const a of asks) if (a.released) for (const ip of this.candidates(a)) if (!a.at.has(ip)) this.askRandomAt(ip);
    this.races.add(flight);
    this.pump();
  }

  /** Closes racing sessions whose every recipient was answered by the other session. */
  private sweepRaces(): void {
    for (const f of this.races) {
      if (f.done) this.races.delete(f);
      else if (f.parts.every((part) => part.asks.every((a) => a.settled))) {
        this.races.delete(f);
        f.cancel.abort();
      }
    }
  }

  /** Takes up to `limit` ready recipients that may use `ip`: pinned ones first (the random mailbox goes last in the batch). */
  private take(ip: string, limit: number): Ask[] {
    const now = Date.now();
    const batch: Ask[] = [];
    const add = (a: Ask): void => {
      a.flights++;
      a.at.add(ip);
      a.released = false;
      batch.push(a);
    };
    if (this.pinned.size > 0) {
      const here: Ask[] = [];
      for (const a of this.pinned) {
        if (a.settled) this.pinned.delete(a);
        else if (a.pin === ip && this.ready(a, now) && !a.at.has(ip)) here.push(a);
      }
      here.sort((x, y) => x.seq - y.seq);
      for (const a of here.slice(0, limit)) add(a);
    }
    this.skipSettled();
    for (let i = this.head; i < this.asks.length && batch.length < limit; i++) {
      const a = this.asks[i] as Ask;
      if (a.pin !== null || !this.ready(a, now) || a.at.has(ip) || !this.candidates(a).includes(ip)) continue;
      add(a);
    }
    // Taken first so that it has a place, asked last: a server that answers unknown recipients
    // slowly (a tarpit) or turns a session away after one must not hold up the real mailboxes.
    const random = batch.findIndex((a) => a.random);
    if (random >= 0 && random < batch.length - 1) batch.push(...batch.splice(random, 1));
    return batch;
  }

  /** Handles this domain's share of a session (its recipients start at `offset` in the session). */
  private handle(res: SessionResult, all: Ask[], target: Target, offset: number, session: SessionFacts): void {
    const evidence = (reply: SmtpReply | null): SmtpReply[] => [...res.transcript, ...(reply && !res.transcript.includes(reply) ? [reply] : [])];
    // Recipients still being asked in a racing session wait for that one unless this answer is final.
    const batch = all.filter((a) => !a.settled && a.flights === 0);
    // It answered: an address marked dead after another connection failed is alive after all, so the
    // recipients this session pins to it (4xx, 421) have somewhere to go.
    if (res.outcome !== 'unreachable' && res.outcome !== 'aborted') this.dead.delete(target.ip);
    const noPipelining = this.p.ctx.noPipeliningIps;
    // MAIL's reply came, then not one RCPT reply of the group (none in time, or QUIT's 221 in their
    // place), and no hang-up: the server may have lost the pipelined commands (it reads one command per
    // TCP segment and drops the rest, or keeps only the first and the last).
    const groupLost = res.outcome === 'ok' && !res.hungUp && session.answered === 0;
    if (res.pipelining && noPipelining && (res.outOfStep || groupLost)) {
      // Its replies to a pipelined group did not match the commands (answers out of order, or more
      // than asked for), or never came: asked again at once, one command at a time, which such a
      // server answers in step (also this session's other domains, and sessions pipelined before).
      noPipelining.add(target.ip);
      for (const a of batch) this.requeue(a, 0, false);
      this.pump();
      return;
    }
    switch (res.outcome) {
      case 'aborted':
        // Aborted by the domain that owned the session (another batch): ask again.
        for (const a of batch) this.requeue(a, 0, false);
        break;
      case 'unreachable':
        if (session.turnedAway) {
          // The server answers our other sessions: this connection was turned away (its limit per
          // client; the worker lowered the cap), and these recipients go again.
          for (const a of batch) this.turnedAway(a, res, target);
          break;
        }
        this.p.ctx.unreachableUntil?.set(target.ip, Date.now() + UNREACHABLE_MEMORY_MS);
        this.markDead(target.ip, res.detail ?? 'unreachable');
        break;
      case 'tls_failed':
        this.p.ctx.noTlsIps.add(target.ip);
        for (const a of batch) this.requeue(a, 0, true);
        break;
      case 'busy':
        for (const a of batch) this.busy(a, res.decisive, evidence(res.decisive), target);
        break;
      case 'temp_fail':
        // At the greeting: another address may take us now (RFC 5321 5.1); else retried here on the
        // schedule, like greylisting at MAIL or RCPT.
        for (const a of batch) {
          if (atGreeting(res.decisive) && this.avoid(a, target.ip)) this.requeue(a, 0, true);
          else this.temporary(a, evidence(res.decisive), target, res.detail);
        }
        break;
      case 'refused':
        // A 5xx at the greeting (554 5.7.1 … blocked) or to our MAIL FROM: a policy refusal, which the
        // verdict table puts before anything a backup could say. A server of the same preference still
        // to be asked may take the mail instead (RFC 5321 5.1: equal preference, any order; Postfix
        // skips a server that greets with 5xx): its answer decides; the refusal stands if none lets us in.
        for (const a of batch) {
          a.refusal ??= { replies: evidence(res.decisive), target, detail: res.detail };
          const tier = this.tiers.findIndex((t) => t.some((x) => x.ip === target.ip));
          a.avoid.add(target.ip);
          if (tier === a.tier && a.pin === null && this.usable(a, tier).length > 0) this.requeue(a, 0, true);
          else this.settle(a, 'policy_block', a.refusal.replies, a.refusal.target, a.refusal.detail);
        }
        break;
      case 'ok':
        this.p.ctx.unreachableUntil?.delete(target.ip);
        this.handleRcpts(res, all, target, evidence, offset, session);
        break;
    }
    this.pump();
  }

  private handleRcpts(res: SessionResult, batch: Ask[], target: Target, evidence: (r: SmtpReply | null) => SmtpReply[], offset: number, session: SessionFacts): void {
    let limitLowered = false;
    const { closing } = session;
    // A hang-up at a recipient (an anti-harvesting drop at an unknown one) is blamed on it alone, so
    // the recipients it never read are asked again; unless this server hangs up on sessions far more
    // often than it answers them (its recipient check is broken): then, as before, on every one.
    const hangUps = this.hangUps.get(target.ip) ?? { silent: 0, answered: 0 };
    this.hangUps.set(target.ip, hangUps);
    if (session.answered > 0) hangUps.answered++;
    else if (res.hungUp) hangUps.silent++;
    const blameAwaitedOnly = session.stalledAt >= 0 && (!res.hungUp || hangUps.silent <= FREE_HANGUPS + 2 * hangUps.answered);
    // A 421 after some recipients were answered: the server's real per-session limit. Continue in
    // new sessions that stay under it, at once (like 452), instead of backing off.
    if (closing && closing.index > 0) this.p.ctx.politeness.lowerRcptLimit(target.ip, closing.index);
    // The random mailbox (asked last) is read first: what the server said about it is known before
    // the real mailboxes of the same session are settled (their catch-all flag).
    const order = batch.map((_, i) => i);
    const random = batch.findIndex((a) => a.random);
    if (random > 0) order.unshift(...order.splice(random, 1));
    // What each reply says, read once.
    const classes = batch.map((_, i) => {
      const r = res.rcptReplies[i];
      return r ? classifyReply(r) : null;
    });
    // Accepting one real recipient and refusing another, the server shows it knows them: its
    // refusals are answers even while a more-preferred server is still to greet.
    if (!this.discerning.has(target.ip)) {
      const real = classes.filter((c, i) => c !== null && !batch[i]?.random);
      if (real.includes('accepted') && real.some((c) => c !== 'accepted' && c !== null && isFinalClass(c))) this.discerning.add(target.ip);
    }
    order.forEach((i) => {
      const a = batch[i] as Ask;
      const reply = res.rcptReplies[i] ?? null;
      if (a.settled) return;
      if (res.needsSmtpUtf8[i]) {
        // Not sent: its UTF-8 local part needs SMTPUTF8, which this server does not offer (RFC 6531).
        // Another address of the domain may offer it; where none does, the mailbox cannot be checked.
        if (a.flights > 0) return;
        if (this.avoid(a, target.ip)) return this.requeue(a, 0, false);
        return this.settle(a, 'smtputf8_unsupported', res.transcript, target, SMTPUTF8_DETAIL);
      }
      if (offset + i >= session.heldFrom) {
        // Never sent (the fleet budget had room for fewer): asked again in another session, no retry counted.
        if (a.flights === 0) this.requeue(a, 0, false);
        return;
      }
      if (a.flights > 0) {
        // Also in flight at another address (an MX race): only a final answer here counts. Held while
        // a more-preferred address is asked, till that one answers or fails (the first MX that greets
        // decides): a refusal from a less-preferred address (a backup MX may refuse everyone it cannot
        // check) while that one has begun greeting, or has only taken our connection so far unless
        // this one has shown it knows the recipients; an "accepted" from an address that accepted
        // the random mailbox too (a backup that stores and forwards for everyone says nothing of the
        // mailbox) while that one has taken our connection. Each up to its banner timeout.
        const cls = closing && offset + i >= closing.index ? null : (classes[i] ?? null);
        if (!cls || !isFinalClass(cls)) return;
        const hold =
          cls === 'accepted'
            ? this.catchAllAt(target.ip) === true && this.morePreferredInFlight(a, target, true)
            : this.morePreferredInFlight(a, target, !this.discerning.has(target.ip));
        if (hold) a.held = { finding: cls, replies: evidence(reply), target };
        else this.settle(a, cls, evidence(reply), target, null);
        return;
      }
      if (closing && offset + i >= closing.index) {
        if (closing.index > 0) return this.requeue(a, 0, false);
        return this.busy(a, closing.reply, evidence(closing.reply), target);
      }
      if (reply === null) {
        // Replies come in order: a recipient behind the one whose reply timed out was not ignored,
        // only left unanswered; nor was one cut short after others were answered. Asked again.
        const ignored = blameAwaitedOnly ? offset + i === session.stalledAt : session.answered === 0;
        if (!ignored) return this.requeue(a, 0, true);
        a.silentCount++;
        // Asked once more here only when that attempt, at worst another reply timeout, ends before the
        // deadline: a real-time check is not kept waiting past it for the same silence.
        const timeLeft = this.p.deadlineMs - (Date.now() - this.start);
        if (a.silentCount < 2 && timeLeft >= this.p.ctx.replyTimeoutMs) return this.requeue(a, 0, true);
        // This server greeted and took our MAIL, then would not answer for this recipient: another of
        // its preference may be asked, never a less-preferred one (the first server that greets
        // decides; a backup may refuse what it cannot check, "User unknown in relay recipient table").
        a.stayInTier = true;
        if (this.avoid(a, target.ip)) return this.requeue(a, 0, true);
        return this.settle(a, 'smtp_unreachable', evidence(null), target, res.detail ?? 'no reply to RCPT');
      }
      const cls = classes[i] ?? classifyReply(reply);
      const poisoned = session.firstTooMany > 0 && offset + i >= session.firstTooMany && saysTooManyInvalid(reply);
      if (isFinalClass(cls) && !poisoned) return this.settle(a, cls, evidence(reply), target, null);
      if (cls === 'too_many_recipients' || poisoned) {
        // Refused from the session's first recipient on: not a per-session count we can stay under
        // ("452 Too many recipients received this hour"), so back off like any 4xx, to the deadline.
        if (session.firstTooMany === 0) return this.temporary(a, evidence(reply), target, null);
        if (!limitLowered) {
          this.p.ctx.politeness.lowerRcptLimit(target.ip, Math.max(1, session.firstTooMany));
          limitLowered = true;
        }
        return this.requeue(a, 0, false);
      }
      return this.temporary(a, evidence(reply), target, null);
    });
  }

  /**
   * The ask is still being asked at an address more preferred than `target` whose server has begun
   * its greeting (alive, like postscreen pausing after "220-"), or, with `connected`, has only taken
   * the connection so far (it may yet greet, like sendmail's greet_pause, or never).
   */
  private morePreferredInFlight(a: Ask, target: Target, connected: boolean): boolean {
    for (const f of this.open) {
      if (f.done || !(f.heard || (connected && f.connected)) || !a.at.has(f.ip)) continue;
      if ((this.byIp.get(f.ip)?.priority ?? Infinity) < target.priority && f.parts.some((part) => part.asks.includes(a))) return true;
    }
    return false;
  }

  private requeue(a: Ask, delayMs: number, countRetry: boolean): void {
    a.notBefore = Date.now() + delayMs;
    if (countRetry) a.retries++;
  }

  /**
   * Stops an ask from using `ip` again: it moves to another live address of its tier, or to the
   * next tier. Returns false when no address is left to try.
   */
  private avoid(a: Ask, ip: string): boolean {
    a.avoid.add(ip);
    this.setPin(a, null);
    a.silentCount = 0;
    while (a.tier < this.tiers.length) {
      if (this.candidates(a).length > 0) return true;
      if (a.refusal || a.stayInTier) return false; // answered for (or refused) at its preference: never handed to a less-preferred address
      a.tier++;
    }
    return false;
  }

  /**
   * `ip` will not take a connection before the deadline (it answered 421): every recipient waiting
   * for it goes to another address, or is answered "busy until the deadline". None is left counting
   * on `ip`, so no worker for it starts again.
   */
  private busyToTheDeadline(ip: string, target: Target): void {
    for (const a of this.asks) {
      if (a.settled || a.flights > 0) continue;
      if (!this.candidates(a).includes(ip)) continue;
      if (this.avoid(a, ip)) this.requeue(a, 0, false);
      // Never let past the greeting (421 there until the deadline): unreachable (SCORING row 7); let in
      // and then told busy (421 to MAIL or RCPT): a temporary failure not cleared, greylisted.
      else if (a.busyAfterGreeting) this.settle(a, 'greylisted', [], target, 'server busy (421) until the deadline');
      else this.settle(a, 'smtp_unreachable', [], target, 'every attempt refused at the greeting (421) until the deadline');
      if (this.done) return;
    }
  }

  /**
   * A connection turned away by a server that answers others. Not let in at all (over its limit per
   * client, a silent 421): asked again after a pause, as after a 421 at the greeting. Lost after its
   * greeting: asked again once. Then elsewhere, then unreachable.
   */
  private turnedAway(a: Ask, res: SessionResult, target: Target): void {
    if (res.transcript.length === 0) {
      a.busyCount++;
      const delay = busyBackoffMs(a.busyCount);
      if (a.busyCount <= MAX_BUSY_RETRIES && Date.now() + delay - this.start <= this.p.deadlineMs) return this.requeue(a, delay, true);
    } else if (++a.silentCount < 2) return this.requeue(a, 0, true);
    if (this.avoid(a, target.ip)) return this.requeue(a, 0, true);
    this.settle(a, 'smtp_unreachable', res.transcript, target, res.detail ?? 'connection turned away');
  }

  /** A 421: back off and retry on a new connection; a server that never lets us past its greeting is unreachable. */
  private busy(a: Ask, reply: SmtpReply | null, replies: SmtpReply[], target: Target): void {
    a.busyCount++;
    if (!atGreeting(reply)) a.busyAfterGreeting = true;
    const delay = busyBackoffMs(a.busyCount);
    const pastDeadline = Date.now() + delay - this.start > this.p.deadlineMs;
    if (atGreeting(reply) && (a.busyCount > MAX_BUSY_RETRIES || pastDeadline)) {
      // Another address of the same or a lower preference may let us in.
      if (this.avoid(a, target.ip)) return this.requeue(a, 0, true);
      return this.settle(a, 'smtp_unreachable', replies, target, `every attempt refused at the greeting (421)${reply ? `: ${reply.text}` : ''}`);
    }
    if (pastDeadline) return this.settle(a, 'greylisted', replies, target, `server busy (421) until the deadline${reply ? `: ${reply.text}` : ''}`);
    this.setPin(a, target.ip);
    this.requeue(a, delay, true);
  }

  /**
   * A 4xx: retry on the schedule against the same address. When the schedule runs out (or its next
   * wait would pass the deadline) while time is left, one last retry goes out just before the
   * deadline, so a greylisting window anywhere inside the deadline is still waited out. Then greylisted.
   */
  private temporary(a: Ask, replies: SmtpReply[], target: Target, detail: string | null): void {
    let delay = this.p.retryDelaysMs[a.greylistRetries];
    const left = this.p.deadlineMs - (Date.now() - this.start);
    if (delay === undefined || delay > left) {
      const lastTry = left - Math.min(LAST_RETRY_MARGIN_MS, this.p.deadlineMs * 0.1);
      const minGap = this.p.retryDelaysMs[0] ?? LAST_RETRY_MARGIN_MS;
      if (a.lastChance || lastTry < minGap) {
        // Still refused for something about us (our client, sender, a blocklist): a policy refusal.
        const last = replies[replies.length - 1];
        if (last && temporarilyRefusesUs(last)) return this.settle(a, 'policy_block', replies, target, detail);
        return this.settle(a, 'greylisted', replies, target, detail ?? `temporary failure not cleared after ${a.greylistRetries} retries`);
      }
      a.lastChance = true;
      delay = lastTry;
    }
    a.greylistRetries++;
    this.setPin(a, target.ip);
    this.requeue(a, delay, true);
  }

  /** The address could not be reached: every recipient that would use it looks elsewhere. */
  private markDead(ip: string, detail: string): void {
    this.dead.add(ip);
    const target = this.byIp.get(ip) ?? null;
    for (const a of this.asks) {
      if (a.settled || a.flights > 0) continue;
      if (a.pin === ip || (a.pin === null && this.candidates(a).length === 0)) {
        if (this.avoid(a, ip)) this.requeue(a, 0, true);
        else this.settle(a, 'smtp_unreachable', [], target, detail);
      }
    }
  }

  private settle(a: Ask, finding: SmtpFinding, replies: SmtpReply[], target: Target | null, detail: string | null): void {
    if (a.settled) return;
    // Refused by one server of its preference, and its peers could not be reached: that refusal is the answer.
    if (finding === 'smtp_unreachable' && a.refusal) ({ finding, replies, target, detail } = { finding: 'policy_block', ...a.refusal });
    // Asked again where the recipients are known, and no final answer there: the first "accepted" stands.
    if (a.reasked && finding !== 'accepted' && finding !== 'mailbox_not_found' && finding !== 'mailbox_disabled' && finding !== 'mailbox_full') {
      ({ finding, replies, target, detail } = { finding: 'accepted', ...a.reasked });
    }
    a.settled = true;
    this.unsettled--;
    if (!a.random) this.openMailboxes--;
    this.pinned.delete(a);
    const outcome: MailboxOutcome = {
      finding,
      mxHost: target?.host ?? null,
      mxIp: target?.ip ?? null,
      replies,
      retries: a.retries,
      detail,
    };
    if (a.random) {
      if (target) {
        this.randomAt.set(target.ip, catchAllFromFinding(finding));
        const last = replies[replies.length - 1];
        if (last && last.stage === 'rcpt') this.randomReplyAt.set(target.ip, { ...last, stage: 'rcpt_random' });
      }
      this.flushWaiting();
    } else if (finding === 'accepted') {
      const known = this.catchAllAt(outcome.mxIp);
      if (known !== undefined && !(known === true && a.reasked === null && this.knowingPeer(outcome.mxIp) !== null)) this.emit(a.address, outcome, known);
      else {
        this.waitingAccepted.push({ address: a.address, outcome, ip: outcome.mxIp, ask: a });
        this.flushWaiting();
      }
    } else {
      this.emit(a.address, outcome, this.domainCatchAll());
    }
    this.checkDone();
  }

  /** The first random-mailbox asks: one pinned to each address the recipients will start on. */
  private askRandomEverywhere(): void {
    const probe = newAsk('', false, -1);
    probe.tier = this.asks.find((a) => !a.random)?.tier ?? 0;
    for (const ip of this.candidates(probe)) this.askRandomAt(ip);
  }

  /** Asks the random mailbox at `ip` (once per address). */
  private askRandomAt(ip: string): void {
    if (this.randomAsks.has(ip) || this.spareRandom === null || this.dead.has(ip) || this.p.knownCatchAllAt?.has(ip)) return;
    const a = newAsk(this.spareRandom, true, this.asks.length);
    this.setPin(a, ip);
    a.tier = Math.max(0, this.tiers.findIndex((tier) => tier.some((t) => t.ip === ip)));
    this.asks.push(a);
    this.randomAsks.set(ip, a);
    this.unsettled++;
  }

  /**
   * What the random mailbox said at `ip`: an "accepted" from there is trusted only when that same
   * address refused it. undefined: not known yet (ask it there).
   */
  private catchAllAt(ip: string | null): boolean | null | undefined {
    if (this.p.knownCatchAll === true || this.peerValue === true) return true;
    if (ip !== null && this.randomAt.has(ip)) return this.randomAt.get(ip) ?? null;
    const earlier = ip !== null ? this.p.knownCatchAllAt?.get(ip) : undefined;
    if (earlier !== undefined) return earlier;
    // A "not catch-all" from elsewhere (a fleet peer's hint or late answer, no address listed) holds at
    // the domain's most-preferred addresses, where the peer asked; an "accepted" from a backup MX
    // (one that may take everyone, store and forward) has the random mailbox asked there too.
    const primary = ip === null || (this.tierIps[0]?.includes(ip) ?? false);
    if ((this.p.knownCatchAll === false || this.peerValue === false) && primary) return false;
    return undefined;
  }

  /** The domain's catch-all as far as known: any address accepting the random mailbox makes it true. */
  private domainCatchAll(): boolean | null {
    const values = [...this.randomAt.values(), ...(this.p.knownCatchAllAt?.values() ?? [])];
    if (values.includes(true) || this.p.knownCatchAll === true || this.peerValue === true) return true;
    if (values.includes(false) || this.p.knownCatchAll === false || this.peerValue === false) return false;
    return null;
  }

  /** Emits waiting "accepted" answers whose address's random-mailbox answer is in; asks it where missing. */
  private flushWaiting(): void {
    if (this.peerWaiting) return; // the peer's answer decides them, or says to ask here
    const keep: typeof this.waitingAccepted = [];
    let asked = false;
    for (const w of this.waitingAccepted.splice(0)) {
      const known = this.catchAllAt(w.ip);
      if (known === true && w.ask.reasked === null) {
        // Accepted where everyone is: another address of the same preference that knows the
        // recipients (it refused the random mailbox) is asked instead; one still to say is waited for.
        const peer = this.knowingPeer(w.ip);
        if (peer === 'pending') {
          keep.push(w);
          continue;
        }
        if (peer !== null) {
          this.reask(w, peer);
          asked = true;
          continue;
        }
      }
      if (known !== undefined) {
        this.emit(w.address, w.outcome, known);
        continue;
      }
      const pending = w.ip !== null ? this.randomAsks.get(w.ip) : undefined;
      if (pending && !pending.settled) {
        keep.push(w);
      } else if (w.ip !== null && !pending && this.spareRandom !== null && !this.dead.has(w.ip)) {
        this.askRandomAt(w.ip);
        asked = true;
        keep.push(w);
      } else {
        // The random mailbox could not be asked there: only a catch-all found elsewhere counts.
        this.emit(w.address, w.outcome, this.domainCatchAll() === true ? true : null);
      }
    }
    this.waitingAccepted.push(...keep);
    if (asked) this.pump();
  }

  /**
   * An address of the same preference as `ip` that refused the random mailbox (it knows the
   * recipients), 'pending' while one's random-mailbox answer is still to come, else null.
   */
  private knowingPeer(ip: string | null): string | 'pending' | null {
    const tier = ip === null ? undefined : this.tiers.find((t) => t.some((x) => x.ip === ip));
    let pending = false;
    for (const t of tier ?? []) {
      if (t.ip === ip || this.dead.has(t.ip)) continue;
      const known = this.catchAllAt(t.ip);
      if (known === false) return t.ip;
      const random = this.randomAsks.get(t.ip);
      if (known === undefined && random && !random.settled) pending = true;
    }
    return pending ? 'pending' : null;
  }

  /** Asks a settled "accepted" again at `ip` (see Ask.reasked). */
  private reask(w: { outcome: MailboxOutcome; ask: Ask }, ip: string): void {
    const a = w.ask;
    const target = (w.outcome.mxIp !== null ? this.byIp.get(w.outcome.mxIp) : undefined) ?? null;
    if (!target) return this.emit(a.address, w.outcome, true);
    a.reasked = { replies: w.outcome.replies, target, detail: w.outcome.detail };
    a.settled = false;
    this.unsettled++;
    this.openMailboxes++;
    a.tier = Math.max(0, this.tiers.findIndex((tier) => tier.some((t) => t.ip === ip)));
    this.setPin(a, ip);
    this.requeue(a, 0, false);
    this.head = Math.min(this.head, a.seq);
  }

  private emit(address: string, outcome: MailboxOutcome, catchAll: boolean | null): void {
    if (outcome.finding === 'accepted') {
      const random = (outcome.mxIp !== null ? this.randomReplyAt.get(outcome.mxIp) : undefined) ?? this.randomReplyAt.values().next().value;
      if (random) outcome.replies = [...outcome.replies, random];
    }
    this.p.onSettled(address, outcome, catchAll);
  }

  private checkDone(): void {
    if (this.done) return;
    if (this.peerWaiting && this.waitingAccepted.length > 0) return;
    if (this.unsettled > 0) {
      // Every mailbox is answered: a random-mailbox ask still out (at a slow or dead address) is moot.
      if (this.waitingAccepted.length > 0 || this.openMailboxes > 0) return;
      for (const a of this.asks) {
        if (a.settled) continue;
        a.settled = true;
        this.unsettled--;
      }
      this.pinned.clear();
    }
    for (const w of this.waitingAccepted.splice(0)) this.emit(w.address, w.outcome, this.domainCatchAll() === true ? true : null);
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    // Sessions left with nothing but answered recipients are closed now (QUIT if greeted).
    for (const f of this.open) if (f.parts.every((part) => part.asks.every((a) => a.settled))) f.cancel.abort();
    this.open.clear();
    this.races.clear();
    this.pool?.leave(this.byIp.keys(), this);
    this.p.signal?.removeEventListener('abort', this.abort);
    this.finish({ catchAll: this.domainCatchAll(), catchAllByIp: new Map(this.randomAt) });
  }
}

function newAsk(address: string, random: boolean, seq: number): Ask {
  return {
    address,
    random,
    seq,
    tier: 0,
    pin: null,
    avoid: new Set(),
    notBefore: 0,
    retries: 0,
    greylistRetries: 0,
    busyCount: 0,
    silentCount: 0,
    settled: false,
    flights: 0,
    at: new Set(),
    released: false,
    lastChance: false,
    busyAfterGreeting: false,
    held: null,
    refusal: null,
    reasked: null,
    stayInTier: false,
  };
}

/** The domain part of an address. */
function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}
