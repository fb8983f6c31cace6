// Retries for a domain probe: greylisting (4xx) retried on the schedule against the same address
// with one last try just before the deadline, 421 backed off on a new connection, a connection
// turned away asked again after a pause; each ends elsewhere or in its honest answer.
import type { SmtpReply } from '../../contract';
import { temporarilyRefusesUs } from '../reply-codes';
import { busyBackoffMs } from '../retry-schedule';
import type { SessionResult } from '../session';
import { MxRouting } from './mx-routing';
import { atGreeting, type Ask, type Target } from './types';

/** The last greylisting retry goes out this long before the deadline (at most 10% of it). */
const LAST_RETRY_MARGIN_MS = 5_000;
/** Retries after a 421 greeting before the address counts as unreachable. */
const MAX_BUSY_RETRIES = 4;

export abstract class RetryPolicy extends MxRouting {
  /**
   * `ip` will not take a connection before the deadline (it answered 421): every recipient waiting
   * for it goes to another address, or is answered "busy until the deadline". None is left counting
   * on `ip`, so no worker for it starts again.
   */
  protected busyToTheDeadline(ip: string, target: Target): void {
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
  protected turnedAway(a: Ask, res: SessionResult, target: Target): void {
    if (res.transcript.length === 0) {
      a.busyCount++;
      const delay = busyBackoffMs(a.busyCount);
      if (a.busyCount <= MAX_BUSY_RETRIES && Date.now() + delay - this.start <= this.p.deadlineMs) return this.requeue(a, delay, true);
    } else if (++a.silentCount < 2) return this.requeue(a, 0, true);
    if (this.avoid(a, target.ip)) return this.requeue(a, 0, true);
    this.settle(a, 'smtp_unreachable', res.transcript, target, res.detail ?? 'connection turned away');
  }

  /** A 421: back off and retry on a new connection; a server that never lets us past its greeting is unreachable. */
  protected busy(a: Ask, reply: SmtpReply | null, replies: SmtpReply[], target: Target): void {
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
  protected temporary(a: Ask, replies: SmtpReply[], target: Target, detail: string | null): void {
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
}
