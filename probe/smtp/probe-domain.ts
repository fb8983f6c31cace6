// Asks one domain's mail servers about many mailboxes at once. Recipients are packed into as few
// sessions as the per-session limit allows (plus one random mailbox for catch-all), sessions run in
// parallel up to the per-IP connection cap, and each mailbox is settled as soon as its answer is
// final: permanent replies at once; greylisting retried on the schedule against the same IP with
// the same MAIL FROM; 452 continued in a new session with a lower limit; 421 backed off; a dead or
// silent server falls through to the next MX.
import type { SmtpReply } from '../contract';
import type { SmtpFinding } from '../score';
import { catchAllFromFinding } from './catch-all';
import type { Politeness } from './politeness';
import { classifyReply } from './reply-codes';
import { busyBackoffMs } from './retry-schedule';
import { runSession, type SessionResult } from './session';
import { abortError } from './semaphore';

export interface Target {
  host: string;
  ip: string;
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
}

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
  knownCatchAll: boolean | null;
  ctx: SmtpContext;
  deadlineMs: number;
  retryDelaysMs: number[];
  signal?: AbortSignal;
  onSettled: (address: string, outcome: MailboxOutcome, catchAll: boolean | null) => void;
}

interface Ask {
  address: string;
  random: boolean;
  target: number;
  notBefore: number;
  retries: number;
  greylistRetries: number;
  busyCount: number;
  silentCount: number;
  settled: boolean;
  inFlight: boolean;
}

const isFinalClass = (cls: string): cls is SmtpFinding =>
  cls === 'accepted' || cls === 'mailbox_not_found' || cls === 'mailbox_disabled' || cls === 'mailbox_full' || cls === 'policy_block';

/** Probes the addresses; resolves with the catch-all finding once every address is settled. */
export function probeDomain(p: DomainProbeParams): Promise<{ catchAll: boolean | null }> {
  return new DomainProbe(p).run();
}

class DomainProbe {
  private readonly asks: Ask[];
  private readonly start = Date.now();
  private readonly dead = new Set<string>();
  private readonly workers = new Map<number, number>();
  private catchAll: boolean | null;
  private randomSettled: boolean;
  private randomReply: SmtpReply | null = null;
  private readonly waitingAccepted: { address: string; outcome: MailboxOutcome }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private unsettled: number;
  private finish!: (v: { catchAll: boolean | null }) => void;
  private fail!: (e: Error) => void;
  private done = false;

  constructor(private readonly p: DomainProbeParams) {
    const mk = (address: string, random: boolean): Ask => ({
      address,
      random,
      target: 0,
      notBefore: 0,
      retries: 0,
      greylistRetries: 0,
      busyCount: 0,
      silentCount: 0,
      settled: false,
      inFlight: false,
    });
    this.asks = [...(p.randomAddress ? [mk(p.randomAddress, true)] : []), ...p.addresses.map((a) => mk(a, false))];
    this.unsettled = this.asks.length;
    this.catchAll = p.knownCatchAll;
    this.randomSettled = p.randomAddress === null;
  }

  run(): Promise<{ catchAll: boolean | null }> {
    return new Promise((resolve, reject) => {
      this.finish = resolve;
      this.fail = reject;
      if (this.p.signal?.aborted) return this.abort();
      this.p.signal?.addEventListener('abort', this.abort, { once: true });
      this.skipDeadTargets();
      this.checkDone();
      this.pump();
    });
  }

  private readonly abort = (): void => {
    if (this.done) return;
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.fail(abortError());
  };

  /** Starts workers for targets with ready recipients; arms a timer for the next delayed retry. */
  private pump(): void {
    if (this.done) return;
    const now = Date.now();
    let nextAt = Infinity;
    const readyPerTarget = new Map<number, number>();
    for (const a of this.asks) {
      if (a.settled || a.inFlight) continue;
      if (a.notBefore <= now) readyPerTarget.set(a.target, (readyPerTarget.get(a.target) ?? 0) + 1);
      else nextAt = Math.min(nextAt, a.notBefore);
    }
    for (const [t, ready] of readyPerTarget) {
      const target = this.p.targets[t];
      if (!target) continue;
      const limit = this.p.ctx.politeness.rcptLimit(target.ip);
      const want = Math.min(this.p.ctx.maxConnectionsPerIp, Math.ceil(ready / limit));
      for (let w = this.workers.get(t) ?? 0; w < want; w++) void this.worker(t);
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (nextAt < Infinity) this.timer = setTimeout(() => this.pump(), Math.max(0, nextAt - now));
  }

  private async worker(t: number): Promise<void> {
    const target = this.p.targets[t];
    if (!target) return;
    this.workers.set(t, (this.workers.get(t) ?? 0) + 1);
    try {
      while (!this.done) {
        const release = await this.p.ctx.politeness.acquire(target.ip, this.p.signal);
        const batch = this.done ? [] : this.take(t, this.p.ctx.politeness.rcptLimit(target.ip));
        if (batch.length === 0) {
          release();
          break;
        }
        const res = await runSession({
          ip: target.ip,
          port: this.p.ctx.port,
          host: target.host,
          heloName: this.p.ctx.heloName,
          mailFrom: this.p.ctx.mailFrom,
          rcpts: batch.map((a) => a.address),
          startTls: !this.p.ctx.noTlsIps.has(target.ip),
          connectTimeoutMs: this.p.ctx.connectTimeoutMs,
          bannerTimeoutMs: this.p.ctx.bannerTimeoutMs,
          replyTimeoutMs: this.p.ctx.replyTimeoutMs,
          signal: this.p.signal,
          onRcptsSent: (n) => this.p.ctx.politeness.countRcpts(n),
          onClosed: release,
        });
        for (const a of batch) a.inFlight = false;
        if (!this.done) this.handle(res, batch, t);
      }
    } catch (err) {
      if (!this.done && (err as Error).name !== 'AbortError') {
        this.done = true;
        this.fail(err as Error);
      }
    } finally {
      this.workers.set(t, (this.workers.get(t) ?? 1) - 1);
      if (!this.done) this.pump();
    }
  }

  /** Takes up to `limit` ready recipients for target t, the random mailbox first. */
  private take(t: number, limit: number): Ask[] {
    const now = Date.now();
    const batch: Ask[] = [];
    for (const a of this.asks) {
      if (batch.length >= limit) break;
      if (a.settled || a.inFlight || a.target !== t || a.notBefore > now) continue;
      a.inFlight = true;
      batch.push(a);
    }
    return batch;
  }

  private handle(res: SessionResult, batch: Ask[], t: number): void {
    const target = this.p.targets[t] ?? { host: '', ip: '' };
    const evidence = (reply: SmtpReply | null): SmtpReply[] => [...res.transcript, ...(reply && !res.transcript.includes(reply) ? [reply] : [])];
    switch (res.outcome) {
      case 'aborted':
        return;
      case 'unreachable':
        this.markDead(target.ip, res.detail ?? 'unreachable');
        break;
      case 'tls_failed':
        this.p.ctx.noTlsIps.add(target.ip);
        for (const a of batch) this.requeue(a, 0, true);
        break;
      case 'busy':
        this.p.ctx.politeness.lowerConnectionCap(target.ip);
        for (const a of batch) this.busy(a, res.decisive, evidence(res.decisive), t);
        break;
      case 'temp_fail':
        for (const a of batch) this.temporary(a, evidence(res.decisive), t, res.detail);
        break;
      case 'refused': {
        const stage = res.decisive?.stage ?? '';
        const next = this.nextTarget(t);
        if ((stage === 'banner' || stage === 'ehlo' || stage === 'helo') && next !== null && this.p.targets[next]?.ip !== target.ip) {
          for (const a of batch) {
            a.target = next;
            this.requeue(a, 0, true);
          }
        } else {
          for (const a of batch) this.settle(a, 'policy_block', evidence(res.decisive), t, res.detail);
        }
        break;
      }
      case 'ok':
        this.handleRcpts(res, batch, t, evidence);
        break;
    }
    this.pump();
  }

  private handleRcpts(res: SessionResult, batch: Ask[], t: number, evidence: (r: SmtpReply | null) => SmtpReply[]): void {
    const target = this.p.targets[t] ?? { host: '', ip: '' };
    let limitLowered = false;
    const closing = res.rcptReplies.find((r) => r !== null && r.code === 421) ?? null;
    batch.forEach((a, i) => {
      const reply = res.rcptReplies[i] ?? null;
      if (reply === null && closing) return this.busy(a, closing, evidence(closing), t);
      if (reply === null) {
        a.silentCount++;
        if (a.silentCount >= 2) this.moveOn(a, t, res.detail ?? 'no reply to RCPT');
        else this.requeue(a, 0, true);
        return;
      }
      const cls = classifyReply(reply);
      if (isFinalClass(cls)) return this.settle(a, cls, evidence(reply), t, null);
      if (cls === 'too_many_recipients') {
        if (!limitLowered) {
          this.p.ctx.politeness.lowerRcptLimit(target.ip, Math.max(1, i));
          limitLowered = true;
        }
        return this.requeue(a, 0, false);
      }
      if (cls === 'service_closing') return this.busy(a, reply, evidence(reply), t);
      return this.temporary(a, evidence(reply), t, null);
    });
  }

  private requeue(a: Ask, delayMs: number, countRetry: boolean): void {
    a.notBefore = Date.now() + delayMs;
    if (countRetry) a.retries++;
  }

  /** A 421: back off and retry on a new connection; a server that never lets us past its banner is unreachable. */
  private busy(a: Ask, reply: SmtpReply | null, replies: SmtpReply[], t: number): void {
    a.busyCount++;
    const atBanner = reply?.stage === 'banner';
    const next = this.nextTarget(t);
    if (atBanner && next !== null && this.p.targets[next]?.ip !== this.p.targets[t]?.ip) {
      a.target = next;
      return this.requeue(a, 0, true);
    }
    const delay = busyBackoffMs(a.busyCount);
    if (Date.now() + delay - this.start > this.p.deadlineMs) {
      const why = `server busy (421) until the deadline${reply ? `: ${reply.text}` : ''}`;
      return this.settle(a, atBanner ? 'smtp_unreachable' : 'greylisted', replies, t, why);
    }
    this.requeue(a, delay, true);
  }

  /** A 4xx: retry on the schedule against the same IP, or settle as greylisted at the deadline. */
  private temporary(a: Ask, replies: SmtpReply[], t: number, detail: string | null): void {
    const delay = this.p.retryDelaysMs[a.greylistRetries];
    if (delay === undefined || Date.now() + delay - this.start > this.p.deadlineMs) {
      return this.settle(a, 'greylisted', replies, t, detail ?? `temporary failure not cleared after ${a.greylistRetries} retries`);
    }
    a.greylistRetries++;
    this.requeue(a, delay, true);
  }

  private nextTarget(t: number): number | null {
    for (let i = t + 1; i < this.p.targets.length; i++) {
      const ip = this.p.targets[i]?.ip;
      if (ip !== undefined && !this.dead.has(ip)) return i;
    }
    return null;
  }

  private skipDeadTargets(): void {
    for (const a of this.asks) {
      if (this.dead.has(this.p.targets[a.target]?.ip ?? '')) this.moveOn(a, a.target, 'unreachable');
    }
  }

  /** Moves one recipient to the next live MX, or settles it as unreachable. */
  private moveOn(a: Ask, t: number, detail: string): void {
    const next = this.nextTarget(t);
    if (next === null) return this.settle(a, 'smtp_unreachable', [], t, detail);
    a.target = next;
    a.silentCount = 0;
    this.requeue(a, 0, true);
  }

  /** The MX address could not be reached: every recipient waiting for it moves on. */
  private markDead(ip: string, detail: string): void {
    this.dead.add(ip);
    for (const a of this.asks) {
      if (a.settled || a.inFlight) continue;
      if (this.p.targets[a.target]?.ip === ip) this.moveOn(a, a.target, detail);
    }
  }

  private settle(a: Ask, finding: SmtpFinding, replies: SmtpReply[], t: number, detail: string | null): void {
    if (a.settled) return;
    a.settled = true;
    this.unsettled--;
    const target = this.p.targets[t];
    const outcome: MailboxOutcome = {
      finding,
      mxHost: target?.host ?? null,
      mxIp: target?.ip ?? null,
      replies,
      retries: a.retries,
      detail,
    };
    if (a.random) {
      this.randomSettled = true;
      this.catchAll = catchAllFromFinding(finding);
      const last = replies[replies.length - 1];
      this.randomReply = last && last.stage === 'rcpt' ? { ...last, stage: 'rcpt_random' } : null;
      for (const w of this.waitingAccepted.splice(0)) this.emit(w.address, w.outcome);
    } else if (finding === 'accepted' && !this.randomSettled) {
      this.waitingAccepted.push({ address: a.address, outcome });
    } else {
      this.emit(a.address, outcome);
    }
    this.checkDone();
  }

  private emit(address: string, outcome: MailboxOutcome): void {
    if (outcome.finding === 'accepted' && this.randomReply) outcome.replies = [...outcome.replies, this.randomReply];
    this.p.onSettled(address, outcome, this.catchAll);
  }

  private checkDone(): void {
    if (this.done || this.unsettled > 0) return;
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.p.signal?.removeEventListener('abort', this.abort);
    this.finish({ catchAll: this.catchAll });
  }
}
