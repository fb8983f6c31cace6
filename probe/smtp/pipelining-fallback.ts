// Which MX addresses are asked one command at a time although they offer PIPELINING: a server whose
// replies to a pipelined group did not add up (out of step, or the group lost) falls back, for a
// while. The fallback expires (one bad session, or a fault since fixed, must not slow that server for
// the rest of the node's life); a server that breaks a pipelined group again once it has expired falls
// back for twice as long each time (so a server that always breaks costs one pipelined session per
// window, never a loop), and a pipelined session it answers in step forgets its record.

/** How long the first fallback at an address lasts. */
export const PIPELINING_FALLBACK_MS = 15 * 60_000;
/** The longest a fallback lasts, however often the server broke pipelining. */
export const PIPELINING_FALLBACK_MAX_MS = 24 * 3_600_000;
/** Addresses remembered at most (the oldest record goes first). */
const MAX_ADDRESSES = 50_000;

export class PipeliningFallback {
  /** ip → until when it is asked one command at a time, and how many fallbacks led there. */
  private readonly byIp = new Map<string, { until: number; strikes: number }>();

  constructor(
    private readonly firstMs = PIPELINING_FALLBACK_MS,
    private readonly maxMs = PIPELINING_FALLBACK_MAX_MS,
  ) {}

  /** A session to `ip` may pipeline (when the server offers it). */
  allows(ip: string): boolean {
    const e = this.byIp.get(ip);
    return e === undefined || e.until <= Date.now();
  }

  /**
   * The server at `ip` broke a pipelined group: one command at a time there for a while. Sessions
   * pipelined before the fallback began that break too do not lengthen it; a break after it expired does.
   */
  fellBack(ip: string): void {
    const now = Date.now();
    const e = this.byIp.get(ip);
    if (e && e.until > now) return;
    const strikes = (e?.strikes ?? 0) + 1;
    this.byIp.delete(ip);
    this.byIp.set(ip, { until: now + Math.min(this.maxMs, this.firstMs * 2 ** (strikes - 1)), strikes });
    if (this.byIp.size > MAX_ADDRESSES) {
      const oldest = this.byIp.keys().next();
      if (!oldest.done) this.byIp.delete(oldest.value);
    }
  }

  /** A pipelined group at `ip` was answered in step: its past fallbacks are forgotten. */
  inStep(ip: string): void {
    const e = this.byIp.get(ip);
    if (e && e.until <= Date.now()) this.byIp.delete(ip);
  }
}
