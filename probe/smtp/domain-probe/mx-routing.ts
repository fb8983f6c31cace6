// MX routing for a domain probe: which addresses a recipient may use now (its preference first,
// RFC 5321 5.1; dead, avoided and slow addresses last), falling through to the next preference,
// and the head start: a server slow to greet lets its recipients be asked at another address in
// parallel, and the race that makes is closed once the other session has answered them all.
import { ProbeState } from './state';
import type { Ask, Flight, Target } from './types';

export abstract class MxRouting extends ProbeState {
  /**
   * Addresses that were unreachable a moment ago (for any domain) are not waited on first: they
   * are used last, like slow ones (any other address of any preference goes first), and are
   * still tried when every other address has failed.
   */
  protected putRecentlyUnreachableLast(): void {
    const memory = this.p.ctx.unreachableUntil;
    if (!memory) return;
    const now = Date.now();
    for (const ip of this.byIp.keys()) if ((memory.get(ip) ?? 0) > now) this.slow.add(ip);
  }

  /**
   * Addresses an ask may use now: its pin, or the live, not-avoided addresses of its tier; of those,
   * the ones that greeted in time, else those of the next preference that did, else the slow ones.
   */
  protected candidates(a: Ask): readonly string[] {
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
  protected usable(a: Ask, tier: number): readonly string[] {
    const ips = this.tierIps[tier] ?? [];
    if (this.dead.size === 0 && a.avoid.size === 0) return ips;
    return ips.filter((ip) => !this.dead.has(ip) && !a.avoid.has(ip));
  }

  /**
   * A session to `flight.ip` has not greeted within the head start: its recipients that have
   * another address to try are released to be asked there in parallel. A lone server is waited for.
   */
  protected onSlow(flight: Flight, asks: Ask[]): void {
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
  protected sweepRaces(): void {
    for (const f of this.races) {
      if (f.done) this.races.delete(f);
      else if (f.parts.every((part) => part.asks.every((a) => a.settled))) {
        this.races.delete(f);
        f.cancel.abort();
      }
    }
  }

  /**
   * The ask is still being asked at an address more preferred than `target` whose server has begun
   * its greeting (alive, like postscreen pausing after "220-"), or, with `connected`, has only taken
   * the connection so far (it may yet greet, like sendmail's greet_pause, or never).
   */
  protected morePreferredInFlight(a: Ask, target: Target, connected: boolean): boolean {
    for (const f of this.open) {
      if (f.done || !(f.heard || (connected && f.connected)) || !a.at.has(f.ip)) continue;
      if ((this.byIp.get(f.ip)?.priority ?? Infinity) < target.priority && f.parts.some((part) => part.asks.includes(a))) return true;
    }
    return false;
  }

  /**
   * Stops an ask from using `ip` again: it moves to another live address of its tier, or to the
   * next tier. Returns false when no address is left to try.
   */
  protected avoid(a: Ask, ip: string): boolean {
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

  /** The address could not be reached: every recipient that would use it looks elsewhere. */
  protected markDead(ip: string, detail: string): void {
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
}
