// The shapes a domain probe works with: what it is given (targets, context, params), what it
// reports (outcomes, the catch-all finding), and its own bookkeeping per recipient (Ask) and per
// session in progress (Flight), with the few pure helpers that read them.
import type { SmtpReply } from '../../contract';
import type { SmtpFinding } from '../../score';
import type { PipeliningFallback } from '../pipelining-fallback';
import type { Politeness } from '../politeness';
import type { SessionPool } from '../session-pool';

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
  /**
   * IPs that demanded STARTTLS (530 to MAIL in plain text) without offering it in EHLO: STARTTLS is
   * sent there anyway, as real MTAs do (optional).
   */
  tlsDemandedIps?: Set<string>;
  /** Addresses that answered a pipelined group out of step: one command at a time there, for a while (optional). */
  pipeliningFallback?: PipeliningFallback;
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

export interface Ask {
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
export interface Flight {
  ip: string;
  parts: { asks: Ask[] }[];
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
export interface Closing {
  reply: SmtpReply;
  index: number;
}

/** What the whole (possibly shared) session showed, beyond one domain's share of it. */
export interface SessionFacts {
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

export const isFinalClass = (cls: string): cls is SmtpFinding =>
  cls === 'accepted' || cls === 'mailbox_not_found' || cls === 'mailbox_disabled' || cls === 'mailbox_full' || cls === 'policy_block';

/** A reply at the greeting (banner, EHLO, HELO): about the server or us, not about any recipient. */
export function atGreeting(reply: SmtpReply | null): boolean {
  return reply?.stage === 'banner' || reply?.stage === 'ehlo' || reply?.stage === 'helo';
}

/** Targets grouped by MX preference, best first. */
export function preferenceTiers(targets: Target[]): Target[][] {
  const priorities = [...new Set(targets.map((t) => t.priority))].sort((a, b) => a - b);
  return priorities.map((prio) => targets.filter((t) => t.priority === prio));
}

export function newAsk(address: string, random: boolean, seq: number): Ask {
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
