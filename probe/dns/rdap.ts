// Domain age from RDAP: GET {base}/domain/{domain}, read the "registration" event; for a sub-domain
// the registry does not know (404), its registrable domain (Public Suffix List: mail.acme.co.uk →
// acme.co.uk). Cached (a day for answers, an hour for failures), asked once at a time per domain, with
// a short timeout so it never holds a verdict back for long. Every failure is null: age is a score
// hint, never a verdict. A "not now" (429, 5xx) is not a failure of the domain: it is kept only until
// the server's Retry-After (a minute without one), and a server that asked us to slow down (429, or
// Retry-After) is not asked again until then; requests wait for one of a server's 16 places in our
// own queue (not the agent's), so the pause is checked right before each one is sent.
// Spoken with node:http(s) rather than fetch: one GET per domain does not need the fetch machinery,
// which cost about a millisecond of CPU per lookup (a probe node asks hundreds).
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import { isBlockedAddress } from '../net-guard';
import { Semaphore } from '../smtp/semaphore';
import { registrableDomain } from './registrable-domain';

export interface RdapOptions {
  baseUrl: string;
  timeoutMs?: number;
  now?: () => number;
  /** A redirect to another server may lead to private or loopback addresses (tests, private deployments). */
  allowPrivateNetworks?: boolean;
}

const DAY_MS = 86_400_000;
const HIT_TTL_MS = DAY_MS;
const MISS_TTL_MS = 3_600_000;
/** How long a 429/5xx without Retry-After keeps the server paused and the domain's age unknown. */
const RETRY_LATER_MS = 60_000;
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

/** dns.lookup that hands the connection only public addresses (a name resolving inside fails). */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { family: options.family, hints: options.hints, all: true }, (err, addresses) => {
    const open = err ? [] : addresses.filter((a) => !isBlockedAddress(a.address));
    if (err || open.length === 0) {
      const refused = err ?? Object.assign(new Error(`RDAP redirect to a non-public address (${hostname})`), { code: 'EADDRNOTAVAIL' });
      return callback(refused, options.all ? [] : '', 0);
    }
    if (options.all) return callback(null, open);
    callback(null, open[0]!.address, open[0]!.family);
  });
};

/** The same, for servers a redirect led to: their connections are made through publicOnlyLookup. */
const publicHttpAgent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_SERVER, lookup: publicOnlyLookup });
const publicHttpsAgent = new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_SERVER, lookup: publicOnlyLookup });

/**
 * Requests per RDAP server (origin) are queued here, at most MAX_SOCKETS_PER_SERVER on the wire,
 * rather than in the agent's socket queue: a request is checked against the server's pause when its
 * turn comes, so once a server answered 429 the requests still waiting are never sent (the agent
 * would have sent every one of them).
 */
const serverSlots = new Map<string, Semaphore>();

function slotsOf(origin: string): Semaphore {
  let slots = serverSlots.get(origin);
  if (!slots) serverSlots.set(origin, (slots = new Semaphore(MAX_SOCKETS_PER_SERVER)));
  return slots;
}

export interface TextResponse {
  status: number;
  /** The body of a 2xx, else ''. */
  body: string;
  /** The URL that answered (after redirects). */
  url: string;
  retryAfter: string | undefined;
}

/** Thrown instead of asking a server that asked us to wait (`paused`). */
export class PausedServerError extends Error {
  constructor(readonly origin: string) {
    super(`RDAP server ${origin} asked us to wait`);
  }
}

/** Where a redirect may lead: the operator's own RDAP server is trusted wherever it is; any other only on public addresses. */
export interface RedirectGuard {
  trustedOrigin: string;
  allowPrivateNetworks: boolean;
}

/**
 * GET `url` (http or https), following redirects, within the `signal`. Resolves with the final
 * status and, for a 2xx, the body; rejects on a network error, a body over 1 MB or the signal, and
 * with PausedServerError instead of asking a server `paused` refuses. At most
 * MAX_SOCKETS_PER_SERVER requests per server are out at once; `paused` is asked when a request's
 * turn comes, right before it is sent. A redirect away from `guard.trustedOrigin` is followed only to
 * public addresses (checked on the addresses connected to, so a name that resolves inside is refused).
 */
export async function getText(
  url: string,
  signal: AbortSignal,
  paused: (origin: string) => boolean = () => false,
  redirects = MAX_REDIRECTS,
  guard?: RedirectGuard,
): Promise<TextResponse> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`unsupported URL scheme ${target.protocol}`);
  const guarded = guard !== undefined && target.origin !== guard.trustedOrigin && !guard.allowPrivateNetworks;
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (guarded && net.isIP(literal) !== 0 && isBlockedAddress(literal)) throw new Error(`RDAP redirect to a non-public address (${target.host})`);
  if (paused(target.origin)) throw new PausedServerError(target.origin);
  const slots = slotsOf(target.origin);
  await slots.acquire(signal);
  if (paused(target.origin)) {
    slots.release();
    throw new PausedServerError(target.origin);
  }
  let answer: TextResponse | { redirect: string };
  try {
    answer = await send(target, signal, guarded);
  } finally {
    // The place is handed on only after the caller has seen this answer (a 429 pauses the server
    // before the next request's turn), as a macrotask: every promise reaction runs first.
    setImmediate(() => slots.release());
  }
  if (!('redirect' in answer)) return answer;
  if (redirects <= 0) throw new Error('too many redirects');
  return getText(answer.redirect, signal, paused, redirects - 1, guard);
}


/** One GET, on a place taken for its server: the answer, or where it redirects to. `publicOnly`: connected only to public addresses. */
function send(target: URL, signal: AbortSignal, publicOnly: boolean): Promise<TextResponse | { redirect: string }> {
  return new Promise((resolve, reject) => {
    const secure = target.protocol === 'https:';
    const get = secure ? https.get : http.get;
    const agent = secure ? (publicOnly ? publicHttpsAgent : httpsAgent) : publicOnly ? publicHttpAgent : httpAgent;
    const req = get(target, { headers: { accept: 'application/rdap+json, application/json' }, signal, agent }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.resume();
        return resolve({ redirect: new URL(location, target).toString() });
      }
      const answered = { status, url: target.href, retryAfter: res.headers['retry-after'] };
      if (status < 200 || status >= 300) {
        res.resume();
        return resolve({ ...answered, body: '' });
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
      res.on('end', () => resolve({ ...answered, body: Buffer.concat(chunks).toString('utf8') }));
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

/** Milliseconds a Retry-After header (seconds or an HTTP date) asks for, within a second and an hour. */
export function retryAfterMs(header: string | undefined, now: number): number {
  const value = header?.trim() ?? '';
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isNaN(ms) ? RETRY_LATER_MS : Math.min(MISS_TTL_MS, Math.max(1000, ms));
}

/** What one RDAP question gave: an age (null: none to be had), "no such domain", or "ask again at `until`". */
type Asked = { kind: 'age'; age: number | null } | { kind: 'not_found' } | { kind: 'later'; until: number };

export class Rdap {
  private readonly cache = new Map<string, { expires: number; value: Promise<number | null> }>();
  /** RDAP server (origin) → when it may be asked again (it answered 429 or sent Retry-After). */
  private readonly pausedUntil = new Map<string, number>();
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly guard: RedirectGuard;

  constructor(o: RdapOptions) {
    this.base = o.baseUrl.replace(/\/+$/, '');
    this.guard = { trustedOrigin: new URL(this.base).origin, allowPrivateNetworks: o.allowPrivateNetworks === true };
    this.timeoutMs = o.timeoutMs ?? 1500;
    this.now = o.now ?? Date.now;
  }

  ageDays(domain: string): Promise<number | null> {
    const key = domain.toLowerCase();
    const hit = this.cache.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    const entry = { expires: Infinity, value: Promise.resolve<number | null>(null) };
    entry.value = this.lookup(key).then((asked) => {
      if (asked.kind === 'later') {
        entry.expires = asked.until;
        return null;
      }
      const age = asked.kind === 'age' ? asked.age : null;
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

  private async lookup(domain: string): Promise<Asked> {
    const first = await this.ask(domain);
    if (first.kind !== 'not_found') return first;
    // 404 for a sub-domain: ask for the name its owner registered (never a public suffix like co.uk).
    const registrable = registrableDomain(domain);
    return registrable === null || registrable === domain ? first : this.ask(registrable);
  }

  private paused(origin: string): boolean {
    return (this.pausedUntil.get(origin) ?? 0) > this.now();
  }

  /** One question; the timeout is disarmed once the answer is in. */
  private async ask(domain: string): Promise<Asked> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error(`RDAP ${domain}: no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    try {
      const res = await getText(`${this.base}/domain/${encodeURIComponent(domain)}`, timeout.signal, (origin) => this.paused(origin), MAX_REDIRECTS, this.guard);
      if (res.status === 404) return { kind: 'not_found' };
      if (res.status === 429 || res.status >= 500) {
        const until = this.now() + retryAfterMs(res.retryAfter, this.now());
        if (res.status === 429 || res.retryAfter !== undefined) this.pausedUntil.set(new URL(res.url).origin, until);
        return { kind: 'later', until };
      }
      if (res.status < 200 || res.status >= 300) return { kind: 'age', age: null };
      return { kind: 'age', age: registrationAgeDays(JSON.parse(res.body), this.now()) };
    } catch (err) {
      if (err instanceof PausedServerError) return { kind: 'later', until: this.pausedUntil.get(err.origin) ?? this.now() };
      return { kind: 'age', age: null };
    } finally {
      clearTimeout(timer);
    }
  }
}
