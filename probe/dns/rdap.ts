// Domain age from RDAP: GET {base}/domain/{domain}, read the "registration" event. Cached (a day
// for answers, an hour for failures), asked once at a time per domain, with a short timeout so it
// never holds a verdict back for long. Every failure is null: age is a score hint, never a verdict.
export interface RdapOptions {
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

const DAY_MS = 86_400_000;
const HIT_TTL_MS = DAY_MS;
const MISS_TTL_MS = 3_600_000;
const MAX_ENTRIES = 50_000;

interface RdapEvent {
  eventAction?: unknown;
  eventDate?: unknown;
}

/** Days since the "registration" event of an RDAP domain object, or null. */
export function registrationAgeDays(body: unknown, now: number): number | null {
  const events = (body as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) return null;
  const reg = (events as RdapEvent[]).find((e) => e?.eventAction === 'registration');
  if (typeof reg?.eventDate !== 'string') return null;
  const at = Date.parse(reg.eventDate);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.floor((now - at) / DAY_MS));
}

export class Rdap {
  private readonly cache = new Map<string, { expires: number; value: Promise<number | null> }>();
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;

  constructor(o: RdapOptions) {
    this.base = o.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = o.timeoutMs ?? 1500;
    this.fetchImpl = o.fetch ?? fetch;
    this.now = o.now ?? Date.now;
  }

  ageDays(domain: string): Promise<number | null> {
    const key = domain.toLowerCase();
    const hit = this.cache.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    const entry = { expires: Infinity, value: Promise.resolve<number | null>(null) };
    entry.value = this.lookup(key).then((age) => {
      entry.expires = this.now() + (age === null ? MISS_TTL_MS : HIT_TTL_MS);
      return age;
    });
    this.cache.set(key, entry);
    if (this.cache.size > MAX_ENTRIES) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    return entry.value;
  }

  private async lookup(domain: string): Promise<number | null> {
    const first = await this.ask(domain);
    if (first !== undefined) return first;
    // 404 for a sub-domain: ask for the registrable part (last two labels).
    const labels = domain.split('.');
    return labels.length > 2 ? ((await this.ask(labels.slice(-2).join('.'))) ?? null) : null;
  }

  /**
   * Age, null on failure, undefined on 404. The timeout is disarmed once the answer is read: a
   * timeout signal left to fire after a finished request still runs the HTTP client's abort path.
   */
  private async ask(domain: string): Promise<number | null | undefined> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error(`RDAP ${domain}: no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    try {
      const res = await this.fetchImpl(`${this.base}/domain/${encodeURIComponent(domain)}`, {
        headers: { accept: 'application/rdap+json, application/json' },
        signal: timeout.signal,
      });
      if (res.status === 404) {
        await res.body?.cancel().catch(() => undefined);
        return undefined;
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        return null;
      }
      return registrationAgeDays(await res.json(), this.now());
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}
