// A domain probe's state: its recipients in the order they are taken (with the pins that send
// retries back to one address), its MX addresses by preference, what each address has shown, the
// sessions in progress and the catch-all answers so far. The layers above add one concern each:
// MX routing (mx-routing.ts), retries (retry-policy.ts), catch-all (catch-all-book.ts), session
// slots (session-slots.ts), session answers (session-answers.ts), and the run itself (../probe-domain.ts).
import type { SmtpReply } from '../../contract';
import type { SmtpFinding } from '../../score';
import { randomLocalPart } from '../catch-all';
import type { SessionResult } from '../session';
import type { SessionPool } from '../session-pool';
import { newAsk, preferenceTiers, type Ask, type DomainProbeParams, type DomainProbeResult, type Flight, type MailboxOutcome, type SessionFacts, type Target } from './types';

export abstract class ProbeState {
  protected readonly asks: Ask[];
  protected readonly tiers: Target[][];
  /** The addresses of each tier (what an ask may use while nothing is dead, avoided or slow). */
  protected readonly tierIps: string[][];
  /** asks[0 .. head) are all settled: scans start at head. */
  protected head = 0;
  /** Unsettled asks with a pin, which `take` serves first. */
  protected readonly pinned = new Set<Ask>();
  /** Mailboxes (not random-mailbox asks) not settled yet. */
  protected openMailboxes: number;
  protected readonly byIp = new Map<string, Target>();
  protected readonly start = Date.now();
  protected readonly dead = new Set<string>();
  /** Addresses that greeted one of this domain's sessions: a connection dropped there is turned away, not a dead server. */
  protected readonly greetedAt = new Set<string>();
  protected readonly workers = new Map<string, number>();
  /** Per address: sessions hung up on before any recipient was answered, and sessions that answered some. */
  protected readonly hangUps = new Map<string, { silent: number; answered: number }>();
  /**
   * Addresses that did not greet within the head start, or were found unreachable a moment ago:
   * others go first while there are any.
   */
  protected readonly slow = new Set<string>();
  /** Sessions racing another session for the same recipients. */
  protected readonly races = new Set<Flight>();
  /** Sessions in progress that carry this domain's recipients. */
  protected readonly open = new Set<Flight>();
  /** The random mailbox's answer per MX address (see DomainProbeResult). */
  protected readonly randomAt = new Map<string, boolean | null>();
  /** Addresses that accepted one of our real recipients and refused another: they know the recipients. */
  protected readonly discerning = new Set<string>();
  protected readonly randomReplyAt = new Map<string, SmtpReply>();
  /** Random-mailbox asks pinned to an address, by address ('*': the first, unpinned one). */
  protected readonly randomAsks = new Map<string, Ask>();
  /** "accepted" answers waiting for the random mailbox's answer at the address that gave them. */
  protected readonly waitingAccepted: { address: string; outcome: MailboxOutcome; ip: string | null; ask: Ask }[] = [];
  /** The random mailbox asked where an answer needs one (the given one, or a new one when catch-all was known). */
  protected readonly spareRandom: string | null;
  /** While a peer's catch-all answer is awaited (peerCatchAll), nothing that needs it is decided. */
  protected peerWaiting = false;
  /** The peer's answer once in: a domain-wide catch-all like knownCatchAll (null: it learnt nothing). */
  protected peerValue: boolean | null = null;
  protected timer: NodeJS.Timeout | null = null;
  protected unsettled: number;
  protected finish!: (v: DomainProbeResult) => void;
  protected fail!: (e: Error) => void;
  protected done = false;

  constructor(protected readonly p: DomainProbeParams) {
    this.tiers = preferenceTiers(p.targets);
    this.tierIps = this.tiers.map((tier) => tier.map((t) => t.ip));
    for (const t of p.targets) if (!this.byIp.has(t.ip)) this.byIp.set(t.ip, t);
    this.asks = p.addresses.map((a, i) => newAsk(a, false, i));
    this.unsettled = this.asks.length;
    this.openMailboxes = this.asks.length;
    const first = p.addresses[0];
    this.spareRandom = p.randomAddress ?? (first !== undefined ? `${randomLocalPart()}@${domainOf(first)}` : null);
  }

  protected get pool(): SessionPool<this> | undefined {
    return this.p.ctx.pool as SessionPool<this> | undefined;
  }

  /** Moves `head` past the settled asks at the front. */
  protected skipSettled(): void {
    while (this.head < this.asks.length && this.asks[this.head]?.settled) this.head++;
  }

  protected setPin(a: Ask, ip: string | null): void {
    a.pin = ip;
    if (ip === null) this.pinned.delete(a);
    else this.pinned.add(a);
  }

  /** The ask is waiting for a session (not settled, not delayed, not in one unless released from a slow one). */
  protected ready(a: Ask, now: number): boolean {
    return !a.settled && a.notBefore <= now && (a.flights === 0 || a.released);
  }

  protected requeue(a: Ask, delayMs: number, countRetry: boolean): void {
    a.notBefore = Date.now() + delayMs;
    if (countRetry) a.retries++;
  }

  /** Settles the ask with its answer (see DomainProbe). */
  protected abstract settle(a: Ask, finding: SmtpFinding, replies: SmtpReply[], target: Target | null, detail: string | null): void;

  /** Starts the sessions that ready recipients need (see SessionSlots). */
  protected abstract pump(): void;

  /** Asks the random mailbox at `ip` (see CatchAllBook). */
  protected abstract askRandomAt(ip: string): void;

  /** Handles this domain's share of a session (see SessionAnswers). */
  protected abstract handle(res: SessionResult, all: Ask[], target: Target, offset: number, session: SessionFacts): void;
}

/** The domain part of an address. */
function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}
