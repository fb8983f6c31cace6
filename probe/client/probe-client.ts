// Server-side client of the probe daemons (PROBE_URLS). Each domain is hashed to one daemon
// (pick-probe.ts); when a daemon is down (connection refused, 5xx, a stream cut short) the
// addresses it still owed go to each domain's next choice. Every NDJSON line is parsed with the
// contract's zod schema: the server only ever sees validated VerificationResults.
import { MAX_BATCH, verificationResultSchema, type Depth, type VerificationResult } from '../contract';
import { Channel } from '../channel';
import { domainKey, probeOrder } from './pick-probe';

export interface ProbeClientRetry {
  /** Full passes over the urls before giving up (default 2). */
  rounds?: number;
  /** Wait between passes (default 500 ms). */
  backoffMs?: number;
  /** How long a failed daemon is tried last by later calls (default 10 s). */
  cooldownMs?: number;
}

export interface ProbeClientOptions {
  urls: string[];
  token: string;
  fetch?: typeof fetch;
  retry?: ProbeClientRetry;
}

export interface ProbeVerifyOptions {
  depth?: Depth;
  mode?: 'realtime' | 'bulk';
  signal?: AbortSignal;
}

/** A daemon could not serve the request: try the next one. */
class ProbeUnavailable extends Error {}

/** A request the daemons refuse (400/401/413): retrying elsewhere would not help. */
export class ProbeRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProbeRequestError';
  }
}

export class ProbeClient {
  private readonly urls: string[];
  private readonly token: string;
  private readonly fetchImpl: typeof fetch;
  private readonly rounds: number;
  private readonly backoffMs: number;
  private readonly cooldownMs: number;
  private readonly downUntil = new Map<string, number>();

  constructor(o: ProbeClientOptions) {
    this.urls = o.urls.map((u) => u.trim().replace(/\/+$/, '')).filter(Boolean);
    if (this.urls.length === 0) throw new Error('ProbeClient needs at least one url');
    this.token = o.token;
    this.fetchImpl = o.fetch ?? fetch;
    this.rounds = o.retry?.rounds ?? 2;
    this.backoffMs = o.retry?.backoffMs ?? 500;
    this.cooldownMs = o.retry?.cooldownMs ?? 10_000;
  }

  /** Results in completion order. Throws when some addresses could not be verified by any daemon. */
  async *verify(emails: string[], o: ProbeVerifyOptions = {}): AsyncGenerator<VerificationResult> {
    if (emails.length === 0) return;
    const stop = new AbortController();
    const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
    const out = new Channel<VerificationResult>();
    const work = this.distribute(emails, o, signal, (r) => out.push(r)).then(
      () => out.end(),
      (e: unknown) => out.end(e),
    );
    try {
      for await (const r of out) yield r;
    } finally {
      stop.abort();
      // Don't make an early-leaving consumer wait for the cancelled requests to wind down.
      void work;
    }
  }

  /** Sends each address to its domain's first live daemon, failing over until all are answered. */
  private async distribute(emails: string[], o: ProbeVerifyOptions, signal: AbortSignal, emit: (r: VerificationResult) => void): Promise<void> {
    let remaining = emails;
    for (let round = 0; round < this.rounds && remaining.length > 0; round++) {
      if (round > 0) await sleep(this.backoffMs, signal);
      const failed = new Set<string>();
      while (remaining.length > 0) {
        const groups = this.group(remaining, failed);
        if (groups.size === 0) break;
        const leftovers = await Promise.all(
          [...groups].map(async ([url, list]) => {
            const owed = await this.sendAll(url, list, o, signal, emit);
            if (owed.length > 0) {
              failed.add(url);
              this.downUntil.set(url, Date.now() + this.cooldownMs);
            }
            return owed;
          }),
        );
        remaining = leftovers.flat();
      }
    }
    if (remaining.length > 0) throw new Error(`no probe daemon could verify ${remaining.length} address(es) (tried ${this.urls.join(', ')})`);
  }

  /** url → addresses, by each domain's rendezvous order, skipping daemons that failed in this pass. */
  private group(emails: string[], failed: Set<string>): Map<string, string[]> {
    const now = Date.now();
    const orderCache = new Map<string, string | null>();
    const groups = new Map<string, string[]>();
    for (const email of emails) {
      const key = domainKey(email);
      let url = orderCache.get(key);
      if (url === undefined) {
        const order = probeOrder(key, this.urls).filter((u) => !failed.has(u));
        const healthy = order.filter((u) => (this.downUntil.get(u) ?? 0) <= now);
        url = healthy[0] ?? order[0] ?? null;
        orderCache.set(key, url);
      }
      if (url === null) continue;
      groups.set(url, [...(groups.get(url) ?? []), email]);
    }
    return groups;
  }

  /** Streams one daemon's share in chunks of MAX_BATCH; returns the addresses it did not answer. */
  private async sendAll(url: string, emails: string[], o: ProbeVerifyOptions, signal: AbortSignal, emit: (r: VerificationResult) => void): Promise<string[]> {
    const owed: string[] = [];
    for (let i = 0; i < emails.length; i += MAX_BATCH) {
      const chunk = emails.slice(i, i + MAX_BATCH);
      if (owed.length > 0) {
        owed.push(...chunk);
        continue;
      }
      owed.push(...(await this.send(url, chunk, o, signal, emit)));
    }
    return owed;
  }

  private async send(url: string, emails: string[], o: ProbeVerifyOptions, signal: AbortSignal, emit: (r: VerificationResult) => void): Promise<string[]> {
    const due = new Map<string, number>();
    for (const e of emails) due.set(e, (due.get(e) ?? 0) + 1);
    const owed = (): string[] => [...due].flatMap(([e, n]) => Array<string>(n).fill(e));
    try {
      const res = await this.fetchImpl(`${url}/v1/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', accept: 'application/x-ndjson' },
        body: JSON.stringify({ emails, depth: o.depth ?? 'smtp', mode: o.mode ?? 'realtime' }),
        signal,
      });
      if (res.status >= 500) throw new ProbeUnavailable(`${url}: HTTP ${res.status}`);
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        let reason = text;
        try {
          reason = (JSON.parse(text) as { error?: string }).error ?? text;
        } catch {
          // not JSON: keep the text
        }
        throw new ProbeRequestError(res.status, `probe ${url} refused the request (${res.status}): ${reason}`);
      }
      if (!res.body) throw new ProbeUnavailable(`${url}: empty response`);
      for await (const line of ndjsonLines(res.body)) {
        const result = verificationResultSchema.parse(JSON.parse(line));
        const n = due.get(result.email);
        if (n === undefined) continue;
        if (n <= 1) due.delete(result.email);
        else due.set(result.email, n - 1);
        emit(result);
      }
      return owed();
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof ProbeRequestError || (err as Error).name === 'ZodError') throw err;
      return owed(); // connection refused, reset, 5xx: the caller fails over
    }
  }
}

/** Splits a byte stream into non-empty text lines. */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) yield line;
    }
  }
  buffer += decoder.decode();
  if (buffer.trim()) yield buffer.trim();
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
