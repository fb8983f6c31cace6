// Session answers for a domain probe: what a session's outcome and each RCPT reply mean for its
// recipients: settled at once when final, asked again (elsewhere, later, one command at a time,
// under a lower recipient limit) when the server's answer says nothing about the mailbox yet.
import type { SmtpReply } from '../../contract';
import { classifyReply, saysTooManyInvalid } from '../reply-codes';
import type { SessionResult } from '../session';
import { SessionSlots } from './session-slots';
import { atGreeting, isFinalClass, UNREACHABLE_MEMORY_MS, type Ask, type SessionFacts, type Target } from './types';

const SMTPUTF8_DETAIL = 'the mail server does not offer SMTPUTF8 (RFC 6531): an address with a non-ASCII local part cannot be sent to or checked there';
/**
 * Sessions at one address that the server hung up on before answering any recipient, beyond those
 * that answered some, after which a hang-up is no longer blamed on the recipient awaited alone: a
 * server whose recipient check is broken would otherwise be reconnected to twice per address.
 */
const FREE_HANGUPS = 8;

export abstract class SessionAnswers extends SessionSlots {
  /** Handles this domain's share of a session (its recipients start at `offset` in the session). */
  protected override handle(res: SessionResult, all: Ask[], target: Target, offset: number, session: SessionFacts): void {
    const evidence = (reply: SmtpReply | null): SmtpReply[] => [...res.transcript, ...(reply && !res.transcript.includes(reply) ? [reply] : [])];
    // Recipients still being asked in a racing session wait for that one unless this answer is final.
    const batch = all.filter((a) => !a.settled && a.flights === 0);
    // It answered: an address marked dead after another connection failed is alive after all, so the
    // recipients this session pins to it (4xx, 421) have somewhere to go.
    if (res.outcome !== 'unreachable' && res.outcome !== 'aborted') this.dead.delete(target.ip);
    const fallback = this.p.ctx.pipeliningFallback;
    // MAIL's reply came, then not one RCPT reply of the group (none in time, or QUIT's 221 in their
    // place), and no hang-up: the server may have lost the pipelined commands (it reads one command per
    // TCP segment and drops the rest, or keeps only the first and the last).
    const groupLost = res.outcome === 'ok' && !res.hungUp && session.answered === 0;
    if (res.pipelining && fallback && (res.outOfStep || groupLost)) {
      // Its replies to a pipelined group did not match the commands (answers out of order, or more
      // than asked for), or never came: asked again at once, one command at a time, which such a
      // server answers in step (also this session's other domains, and sessions pipelined before).
      // For a while only (pipelining-fallback.ts): longer each time it breaks a group again.
      fallback.fellBack(target.ip);
      for (const a of batch) this.requeue(a, 0, false);
      this.pump();
      return;
    }
    if (res.pipelining && res.outcome === 'ok' && session.answered > 0) fallback?.inStep(target.ip);
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
      case 'refused': {
        // RFC 3207 section 4: "530 5.7.0 Must issue a STARTTLS command first" to MAIL in plain text
        // asks for STARTTLS, whether EHLO listed it or not (real MTAs send it anyway): asked again at
        // once over TLS. Refused so after STARTTLS was sent (or TLS fails there), the refusal stands as below.
        const tlsDemanded = this.p.ctx.tlsDemandedIps;
        if (tlsDemanded && demandsStartTls(res) && !this.p.ctx.noTlsIps.has(target.ip)) {
          tlsDemanded.add(target.ip);
          for (const a of batch) this.requeue(a, 0, false);
          break;
        }
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
      }
      case 'ok':
        this.p.ctx.unreachableUntil?.delete(target.ip);
        this.handleRcpts(res, all, target, evidence, offset, session);
        break;
    }
    this.pump();
  }

  protected handleRcpts(res: SessionResult, batch: Ask[], target: Target, evidence: (r: SmtpReply | null) => SmtpReply[], offset: number, session: SessionFacts): void {
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
}

/** MAIL was refused in plain text for want of TLS ("530 5.7.0 Must issue a STARTTLS command first"), and STARTTLS was not sent. */
function demandsStartTls(res: SessionResult): boolean {
  const r = res.decisive;
  const startTlsSent = res.transcript.some((t) => t.stage === 'starttls');
  return !res.tls && !startTlsSent && r !== null && r.stage === 'mail' && r.code === 530 && /\bTLS\b|STARTTLS/i.test(r.text);
}
