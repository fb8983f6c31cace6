// One DNS cache shared by every check (MX, host addresses, DNSBL): answers are kept for their TTL
// (MX answers, which Node reports without a TTL, for a fixed 5 minutes), failures briefly, and a
// question already in flight is never asked twice. A SERVFAIL is asked again after a short pause
// while the question's budget lasts (often a resolver's first answer for a name it has not resolved
// yet). At most 64 questions are out at once: a node that starts on hundreds of domains together
// would otherwise send their questions in one burst, and the answers overflow its UDP socket's receive buffer faster than it reads them (each lost
// answer costs a c-ares retry, a third of the DNS budget later).
import { promises as dnsPromises } from 'node:dns';
import { Semaphore } from '../smtp/semaphore';

export type DnsErrorKind = 'nxdomain' | 'nodata' | 'servfail' | 'timeout' | 'refused' | 'other';

export type DnsAnswer<T> = { ok: true; records: T[] } | { ok: false; kind: DnsErrorKind; message: string };

export interface MxRecord {
  exchange: string;
  priority: number;
}

export interface DnsOptions {
  servers?: string[];
  timeoutMs: number;
  /** Upper bound on cached entries; the oldest are dropped first. */
  maxEntries?: number;
  now?: () => number;
}

const MX_TTL_MS = 300_000;
const MAX_TTL_MS = 3_600_000;
const MIN_TTL_MS = 1_000;
const NEGATIVE_TTL_MS = 60_000; // NXDOMAIN / NODATA
const ERROR_TTL_MS = 5_000; // SERVFAIL / timeout: ask again soon
/** Pauses before a SERVFAIL'd question is asked again (each only while the question's budget, timeoutMs, lasts). */
const SERVFAIL_PAUSES_MS = [250, 750];
/** Questions out at once (the rest wait their turn: see QUESTION_PRIORITY, then in the order asked). */
export const MAX_QUERIES_IN_FLIGHT = 64;
/**
 * Which waiting questions go out first. A domain's route is an MX question and then the addresses
 * of its MX hosts: an address question means a domain is halfway, and it goes before the MX
 * questions of domains not started yet. Otherwise a batch of hundreds of domains would have every
 * route wait until all their MX questions were answered, and no session could start before then.
 */
const QUESTION_PRIORITY: Readonly<Record<string, number>> = { A: 1, AAAA: 1 };
/** Added for a real-time check's questions: someone is waiting on it, so it overtakes any bulk work. */
const URGENT_PRIORITY = 2;

function questionPriority(type: string, urgent: boolean): number {
  return (QUESTION_PRIORITY[type] ?? 0) + (urgent ? URGENT_PRIORITY : 0);
}

interface Entry {
  expires: number; // Infinity while in flight
  answer: Promise<DnsAnswer<unknown>>;
  /** While the question waits for a slot: moves it up (a real-time check now waits for it too). */
  raise?: (priority: number) => void;
}

/** Maps c-ares error codes to the kinds the verdict cares about. */
export function dnsErrorKind(code: string | undefined): DnsErrorKind {
  switch (code) {
    case 'ENOTFOUND':
      return 'nxdomain';
    case 'ENODATA':
      return 'nodata';
    case 'ETIMEOUT':
      return 'timeout';
    case 'ESERVFAIL':
      return 'servfail';
    case 'EREFUSED':
    case 'ECONNREFUSED':
      return 'refused';
    default:
      return 'other';
  }
}

export class DnsCache {
  private readonly resolver: dnsPromises.Resolver;
  private readonly entries = new Map<string, Entry>();
  private readonly timeoutMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly inFlight = new Semaphore(MAX_QUERIES_IN_FLIGHT);
  queries = 0;

  constructor(o: DnsOptions) {
    this.timeoutMs = o.timeoutMs;
    this.maxEntries = o.maxEntries ?? 100_000;
    this.now = o.now ?? Date.now;
    // Two tries inside the overall budget; c-ares backs off between them.
    this.resolver = new dnsPromises.Resolver({ timeout: Math.max(20, Math.floor(o.timeoutMs / 3)), tries: 2 });
    if (o.servers && o.servers.length > 0) this.resolver.setServers(o.servers);
  }

  /** `urgent`: a real-time check is waiting for it (it goes ahead of bulk questions still waiting). */
  mx(name: string, urgent = false): Promise<DnsAnswer<MxRecord>> {
    return this.cached('MX', name, urgent, async () => {
      const records = await this.resolver.resolveMx(name);
      return { records, ttlMs: MX_TTL_MS };
    });
  }

  a(name: string, urgent = false): Promise<DnsAnswer<string>> {
    return this.cached('A', name, urgent, async () => {
      const records = await this.resolver.resolve4(name, { ttl: true });
      return { records: records.map((r) => r.address), ttlMs: minTtlMs(records) };
    });
  }

  aaaa(name: string, urgent = false): Promise<DnsAnswer<string>> {
    return this.cached('AAAA', name, urgent, async () => {
      const records = await this.resolver.resolve6(name, { ttl: true });
      return { records: records.map((r) => r.address), ttlMs: minTtlMs(records) };
    });
  }

  /** TXT records, each joined from its character-strings (domain-ownership checks). */
  txt(name: string): Promise<DnsAnswer<string>> {
    return this.cached('TXT', name, false, async () => {
      const records = await this.resolver.resolveTxt(name);
      return { records: records.map((chunks) => chunks.join('')), ttlMs: MX_TTL_MS };
    });
  }

  /** CNAME targets of a name. `urgent`: for a real-time check. */
  cname(name: string, urgent = false): Promise<DnsAnswer<string>> {
    return this.cached('CNAME', name, urgent, async () => {
      const records = await this.resolver.resolveCname(name);
      return { records, ttlMs: MX_TTL_MS };
    });
  }

  close(): void {
    this.resolver.cancel();
    this.entries.clear();
  }

  private cached<T>(type: string, name: string, urgent: boolean, ask: () => Promise<{ records: T[]; ttlMs: number }>): Promise<DnsAnswer<T>> {
    const key = `${type} ${name.toLowerCase()}`;
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) {
      // A bulk batch's question still waiting for a slot: a real-time check sharing it must not wait at bulk priority.
      if (urgent) hit.raise?.(questionPriority(type, true));
      return hit.answer as Promise<DnsAnswer<T>>;
    }
    if (hit) this.entries.delete(key);
    const entry: Entry = { expires: Infinity, answer: Promise.resolve({ ok: false, kind: 'other', message: '' }) };
    const answer = this.ask(type, name, urgent, ask, entry).then((result) => {
      entry.expires = this.now() + result.ttlMs;
      return result.answer;
    });
    entry.answer = answer;
    this.entries.set(key, entry);
    this.evict();
    return answer;
  }

  private async ask<T>(type: string, name: string, urgent: boolean, ask: () => Promise<{ records: T[]; ttlMs: number }>, entry: Entry): Promise<{ answer: DnsAnswer<T>; ttlMs: number }> {
    this.queries++;
    const started = this.now();
    for (let attempt = 0; ; attempt++) {
      const result = await this.askOnce(type, name, urgent, ask, entry);
      // A SERVFAIL is often a resolver's first answer for a name it has not resolved yet (its upstream
      // was slow, it gave up and keeps resolving): the same question moments later is answered. Asked
      // again while the question's budget lasts, a domain is not unknown for one cold answer.
      const pause = SERVFAIL_PAUSES_MS[attempt];
      if (result.answer.ok || result.answer.kind !== 'servfail' || pause === undefined || this.now() - started + pause > this.timeoutMs) return result;
      await new Promise((r) => setTimeout(r, pause));
    }
  }

  private async askOnce<T>(type: string, name: string, urgent: boolean, ask: () => Promise<{ records: T[]; ttlMs: number }>, entry: Entry): Promise<{ answer: DnsAnswer<T>; ttlMs: number }> {
    const place = this.inFlight.queue(questionPriority(type, urgent));
    entry.raise = place.raise;
    await place.granted; // the timeout counts from when the question goes out
    entry.raise = undefined;
    let timer: NodeJS.Timeout | undefined;
    const guard = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`${type} ${name}: timed out`), { code: 'ETIMEOUT' })), this.timeoutMs + 100);
    });
    try {
      const { records, ttlMs } = await Promise.race([ask(), guard]);
      return { answer: { ok: true, records }, ttlMs };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const kind = dnsErrorKind(code);
      const ttlMs = kind === 'nxdomain' || kind === 'nodata' ? NEGATIVE_TTL_MS : ERROR_TTL_MS;
      return { answer: { ok: false, kind, message: `${type} ${name}: ${code ?? (err as Error).message}` }, ttlMs };
    } finally {
      clearTimeout(timer);
      this.inFlight.release();
    }
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      this.entries.delete(oldest.value);
    }
  }
}

function minTtlMs(records: { ttl: number }[]): number {
  if (records.length === 0) return NEGATIVE_TTL_MS;
  const ttl = Math.min(...records.map((r) => r.ttl)) * 1000;
  return Math.max(MIN_TTL_MS, Math.min(MAX_TTL_MS, ttl));
}
