// The client's HTTP to the probe daemons, spoken with node:http(s) over keep-alive agents. A result
// stream is read as text chunks and cut into lines: fetch's web streams (a promise, a reader step and
// a TextDecoder call per chunk) cost the client more CPU than parsing the results themselves.
import http from 'node:http';
import https from 'node:https';

const httpAgent = new http.Agent({ keepAlive: true });
const httpsAgent = new https.Agent({ keepAlive: true });

/** A body bigger than this is not a daemon's error message or health answer. */
const MAX_TEXT_BYTES = 1024 * 1024;

export interface CallOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/**
 * Sends the request; resolves with the response once its head is in (its body not read yet). The
 * signal cuts the request and its response until the response is over, and nothing after: a
 * keep-alive socket handed back to the agent is never destroyed by a late abort.
 */
export function call(url: string, o: CallOptions): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (o.signal.aborted) return reject(abortReason(o.signal));
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const headers = o.body === undefined ? o.headers : { ...o.headers, 'content-length': String(Buffer.byteLength(o.body)) };
    const req = (secure ? https : http).request(target, { method: o.method, headers, agent: secure ? httpsAgent : httpAgent }, (res) => {
      // Readers (bodyLines, readText) see a cut response as an error of their own; a response only
      // drained (discard) must not throw one nobody listens to.
      res.on('error', () => undefined);
      // At 'end' the agent has the socket back (it listened first): from then on an abort must not
      // reach it through this request, or it would destroy a pooled socket that no request owns.
      res.once('end', stopListening);
      res.once('close', stopListening);
      resolve(res);
    });
    // Destroyed without an error: an error would be emitted on the socket too, and a socket the
    // client has already detached from the request has nobody listening for it.
    const onAbort = (): void => {
      reject(abortReason(o.signal)); // no-op once the response is in: its readers see it cut
      req.destroy();
    };
    function stopListening(): void {
      o.signal.removeEventListener('abort', onAbort);
    }
    o.signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => {
      stopListening();
      reject(err);
    });
    req.end(o.body);
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('request aborted');
}

/**
 * A request a daemon refuses with a 4xx. 400 says the request itself is wrong (no other node would
 * take it either); 413 is a proxy's body limit (FleetCall sends that node the request in halves);
 * 401 and 403 say this node does not take our token (FleetCall gives its work to the nodes that do). 408 and 429 ("not now") are no refusal: like a 5xx, the node is failed over.
 * A redirect, 404, 405 or a 2xx that is no result stream is no daemon's answer at all (`notADaemon`):
 * FleetCall gives that node's work to the others too.
 */
export class ProbeRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProbeRequestError';
  }

  /** The node refused who we are, not what we asked. */
  get refusedUs(): boolean {
    return this.status === 401 || this.status === 403;
  }

  /**
   * What answered is not a probe daemon's /v1/verify (a path or a proxy in PROBE_URLS, another
   * service on the port): a daemon never redirects, always has the route, takes POST, and streams
   * NDJSON with its 200.
   */
  get notADaemon(): boolean {
    return (this.status >= 200 && this.status < 400) || this.status === 404 || this.status === 405;
  }
}

/**
 * A node whose result stream stayed open (its keep-alive blank lines kept coming) but brought no
 * result for longer than any legitimate wait: its engine is stalled. FleetCall leaves the node out of
 * the rest of the call and plans `owed` (what it had not answered) on the other nodes.
 */
export class ProbeStalledError extends Error {
  constructor(
    readonly url: string,
    readonly waitedMs: number,
    readonly owed: string[],
  ) {
    super(`probe ${url} kept its result stream open but sent no result for ${waitedMs} ms (its engine is stalled)`);
    this.name = 'ProbeStalledError';
  }
}

/** The media type a daemon streams its results in. */
export function isNdjson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/x-ndjson';
}

/** The whole body as text (at most 1 MB). */
export async function readText(res: http.IncomingMessage): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  for await (const chunk of res as AsyncIterable<string>) {
    text += chunk;
    if (text.length > MAX_TEXT_BYTES) {
      res.destroy();
      throw new Error('probe answer too large');
    }
  }
  return text;
}

/** A body read with readText as JSON; null when it is not JSON (a proxy's error page, a cut body). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Reads the body to its end without keeping it, so the connection can be reused. */
export function discard(res: http.IncomingMessage): void {
  res.resume();
}

/**
 * Longest line a result stream may have (characters). A result is far smaller (its evidence keeps at
 * most a few replies of 8192 characters, its MX hosts what one DNS answer can hold); a body with no
 * line end past this (a proxy's or another service's stream at that URL) is no result stream, and
 * must not fill the client's memory: the stream fails, and what the node owed is planned again.
 */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

/**
 * The body's non-empty lines (NDJSON), as they arrive. `onChunk` hears of every piece of the body,
 * blank lines (a daemon's heartbeat) included. Throws (the response cut) on a line over MAX_LINE_CHARS.
 */
export async function* bodyLines(res: http.IncomingMessage, onChunk?: () => void): AsyncGenerator<string> {
  res.setEncoding('utf8');
  // The unfinished line so far, in pieces: each chunk is searched for line ends once, never the
  // whole unfinished line again (a long one would cost its length squared).
  let partial: string[] = [];
  let partialChars = 0;
  for await (const chunk of res as AsyncIterable<string>) {
    onChunk?.();
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf('\n', start)) >= 0) {
      const piece = chunk.slice(start, nl);
      const line = (partial.length > 0 ? partial.join('') + piece : piece).trim();
      partial = [];
      partialChars = 0;
      start = nl + 1;
      if (line) yield line;
    }
    if (start < chunk.length) {
      partial.push(start === 0 ? chunk : chunk.slice(start));
      partialChars += chunk.length - start;
      if (partialChars > MAX_LINE_CHARS) {
        res.destroy();
        throw new Error(`probe answered a line longer than ${MAX_LINE_CHARS} characters: not a result stream`);
      }
    }
  }
  const rest = partial.join('').trim();
  if (rest) yield rest;
}
