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
import { catchAllFromFinding } from './catch-all';
import { SessionAnswers } from './domain-probe/session-answers';
import type { DomainProbeParams, DomainProbeResult, MailboxOutcome, Ask, Target } from './domain-probe/types';
import { abortError } from './semaphore';

/** Probes the addresses; resolves with the catch-all finding once every address is settled. */
export function probeDomain(p: DomainProbeParams): Promise<DomainProbeResult> {
  return new DomainProbe(p).run();
}

/** A domain's probe: its run, and each recipient's answer as it settles (the layers below do the rest). */
class DomainProbe extends SessionAnswers {
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

  protected override settle(a: Ask, finding: SmtpFinding, replies: SmtpReply[], target: Target | null, detail: string | null): void {
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

  protected checkDone(): void {
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
