// Catch-all for a domain probe: the random mailbox asked at each address that answers for real
// ones, and an "accepted" trusted only from an address that refused it (asked again at one of the
// same preference that did, when it came from one that takes everyone); a fleet peer's answer or an
// earlier check's stands in where known.
import { RetryPolicy } from './retry-policy';
import { newAsk, type Ask, type MailboxOutcome } from './types';

export abstract class CatchAllBook extends RetryPolicy {
  /** The first random-mailbox asks: one pinned to each address the recipients will start on. */
  protected askRandomEverywhere(): void {
    const probe = newAsk('', false, -1);
    probe.tier = this.asks.find((a) => !a.random)?.tier ?? 0;
    for (const ip of this.candidates(probe)) this.askRandomAt(ip);
  }

  /** Asks the random mailbox at `ip` (once per address). */
  protected override askRandomAt(ip: string): void {
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
  protected catchAllAt(ip: string | null): boolean | null | undefined {
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
  protected domainCatchAll(): boolean | null {
    const values = [...this.randomAt.values(), ...(this.p.knownCatchAllAt?.values() ?? [])];
    if (values.includes(true) || this.p.knownCatchAll === true || this.peerValue === true) return true;
    if (values.includes(false) || this.p.knownCatchAll === false || this.peerValue === false) return false;
    return null;
  }

  /** Emits waiting "accepted" answers whose address's random-mailbox answer is in; asks it where missing. */
  protected flushWaiting(): void {
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
  protected knowingPeer(ip: string | null): string | 'pending' | null {
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
  protected reask(w: { outcome: MailboxOutcome; ask: Ask }, ip: string): void {
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

  protected emit(address: string, outcome: MailboxOutcome, catchAll: boolean | null): void {
    if (outcome.finding === 'accepted') {
      const random = (outcome.mxIp !== null ? this.randomReplyAt.get(outcome.mxIp) : undefined) ?? this.randomReplyAt.values().next().value;
      if (random) outcome.replies = [...outcome.replies, random];
    }
    this.p.onSettled(address, outcome, catchAll);
  }
}
