// Domain age from RDAP: GET {base}/domain/{domain}, read the "registration" event. Cached (a day
// for answers, an hour for failures), asked once at a time per domain, with a short timeout so it
// never holds a verdict back for long. Every failure is null: age is a score hint, never a verdict.
// Spoken with node:http(s) rather than fetch: one GET per domain does not need the fetch machinery,
// which cost about a millisecond of CPU per lookup (a probe node asks hundreds).
import http from 'node:http';
import https from 'node:https';

export interface RdapOptions {
  baseUrl: string;
  timeoutMs?: number;
  now?: () => number;
}

const DAY_MS = 86_400_000;
const HIT_TTL_MS = DAY_MS;
const MISS_TTL_MS = 3_600_000;
const MAX_ENTRIES = 50_000;
/** Redirects followed (rdap.org answers with one to the registry's server). */
const MAX_REDIRECTS = 3;
/** A domain object is a few KB; anything much bigger is not one. */
const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Connections kept open per RDAP server and reused: a node that starts on hundreds of domains at
 * once asks them over a few connections instead of opening one per domain (a TCP and, over https, a
 * TLS handshake each, on both sides), and no RDAP server sees a burst of hundreds of connections.
 */
const MAX_SOCKETS_PER_SERVER = 16;
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_SERVER });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_SERVER });

/**
 * GET `url` (http or https), following redirects, within the `signal`. Resolves with the final
 * status and, for a 2xx, the body; rejects on a network error, a body over 1 MB or the signal.
 */
export function getText(url: string, signal: AbortSignal, redirects = MAX_REDIRECTS): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (err) {
      return reject(err instanceof Error ? err : new Error(String(err)));
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return reject(new Error(`unsupported URL scheme ${target.protocol}`));
    const secure = target.protocol === 'https:';
    const get = secure ? https.get : http.get;
    const req = get(target, { headers: { accept: 'application/rdap+json, application/json' }, signal, agent: secure ? httpsAgent : httpAgent }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.resume();
        if (redirects <= 0) return reject(new Error('too many redirects'));
        return getText(new URL(location, target).toString(), signal, redirects - 1).then(resolve, reject);
      }
      if (status < 200 || status >= 300) {
        res.resume();
        return resolve({ status, body: '' });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          req.destroy(new Error('RDAP answer too large'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
      res.on('close', () => reject(new Error('RDAP answer cut short'))); // no-op after 'end'
    });
    req.on('error', reject);
  });
}

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
  private readonly now: () => number;

  constructor(o: RdapOptions) {
    this.base = o.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = o.timeoutMs ?? 1500;
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

  /** Age, null on failure, undefined on 404. The timeout is disarmed once the answer is in. */
  private async ask(domain: string): Promise<number | null | undefined> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error(`RDAP ${domain}: no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    try {
      const res = await getText(`${this.base}/domain/${encodeURIComponent(domain)}`, timeout.signal);
      if (res.status === 404) return undefined;
      if (res.status < 200 || res.status >= 300) return null;
      return registrationAgeDays(JSON.parse(res.body), this.now());
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}
