// Session slots for a domain probe: which addresses get a session now (enough for the ready
// recipients, up to the per-IP cap), what each session carries (pinned retries first, the random
// mailbox last, other domains on the same address filling the rest), and running it, with the
// head-start timer and the facts about the whole session that its domains' answers depend on.
import type { SmtpReply } from '../../contract';
import { classifyReply, saysTooManyInvalid } from '../reply-codes';
import { runSession, type SessionResult } from '../session';
import { CatchAllBook } from './catch-all-book';
import type { Ask, Flight, Target } from './types';

/** Added to the priority of real-time checks: they overtake any bulk work waiting for a slot. */
const URGENT_BOOST = 1e9;

export abstract class SessionSlots extends CatchAllBook {
  /**
   * Starts workers for addresses with ready recipients; arms a timer for the next delayed retry.
   * The scan stops early once every live address has enough ready recipients for all the
   * connections it may open (a big domain is not walked whole after every session); a later pump
   * that gets to the end arms the timer.
   */
  protected override pump(): void {
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

  protected async worker(ip: string): Promise<void> {
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
        const parts: { probe: SessionSlots; asks: Ask[]; target: Target }[] = [{ probe: this, asks: batch, target }];
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
          forceStartTls: this.p.ctx.tlsDemandedIps?.has(ip) ?? false,
          pipelining: this.p.ctx.pipeliningFallback?.allows(ip) ?? true,
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
  protected priority(ip: string): number {
    const ips = (this.tiers[0] ?? []).filter((t) => !this.dead.has(t.ip)).length || 1;
    const limit = this.p.ctx.politeness.rcptLimit(ip);
    const rounds = Math.ceil(this.unsettled / (limit * ips));
    return rounds * this.p.ctx.politeness.typicalSessionMs(ip) + (this.p.urgent ? URGENT_BOOST : 0);
  }

  /** Takes up to `limit` ready recipients that may use `ip`: pinned ones first (the random mailbox goes last in the batch). */
  protected take(ip: string, limit: number): Ask[] {
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
}
