// What the client has learnt of domains' catch-all answers (from any node's results), reused for a
// while as hints: a node given one skips its own random-mailbox check for that domain. An answer
// holds for `memoryMs` from when it was first learnt: results that repeat it (those made with the
// hint do) do not renew it, so a domain checked without pause is asked again every period.
import type { VerificationResult } from '../contract';
import { domainKey } from './pick-probe';

const MAX_REMEMBERED_DOMAINS = 10_000;

export class CatchAllMemory {
  /** Domain key → the answer, the domain as the probe writes it (A-label) and until when it holds (monotonic clock). */
  private readonly known = new Map<string, { value: boolean; domain: string; expires: number }>();

  constructor(private readonly memoryMs: number) {}

  get(key: string): { value: boolean; domain: string } | null {
    const known = this.known.get(key);
    if (!known) return null;
    if (known.expires <= performance.now()) {
      this.known.delete(key);
      return null;
    }
    return known;
  }

  learn(r: VerificationResult): void {
    if (r.catch_all === null || r.normalized === null) return;
    const key = domainKey(r.email);
    const known = this.known.get(key);
    const now = performance.now();
    if (known && known.value === r.catch_all && known.expires > now) return; // the same answer again
    this.known.delete(key);
    this.known.set(key, { value: r.catch_all, domain: r.normalized.slice(r.normalized.lastIndexOf('@') + 1), expires: now + this.memoryMs });
    if (this.known.size > MAX_REMEMBERED_DOMAINS) {
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
  }

  /** Hints for the domains of `emails` that are known (domain as the probe writes it → catch-all). */
  hintsFor(emails: string[]): Record<string, boolean> | undefined {
    let hints: Record<string, boolean> | undefined;
    for (const key of new Set(emails.map(domainKey))) {
      const known = this.get(key);
      if (known) (hints ??= {})[known.domain] = known.value;
    }
    return hints;
  }
}
