// How long a client may take to send its request. Node's defaults let one hold a socket for minutes
// (headers 60 s, checked every 30 s; the whole request 300 s; a body that stops short of its
// Content-Length waited all of that), so a handful of slow or stalled clients could keep sockets
// and request state busy. The limits are those of common front ends (nginx's client_header_timeout
// and client_body_timeout are 60 s; these are tighter, as an API's clients are programs):
//  - the request line and headers within 20 s;
//  - while a body is owed, no more than 20 s without a byte of it (a body cut short, a stalled upload);
//  - the whole request, body included, within 120 s (a 14 MB body needs ~1 Mbit/s; a drip of a byte
//    every few seconds ends here).
// Each answers 408 with a JSON body in its surface's envelope (client-error.ts) and closes the connection; once a response has
// begun, the connection is only closed.
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import type { ClientErrorAnswer } from './client-error';

export interface HttpTimeouts {
  /** Request line and headers, from the first byte. */
  headersMs: number;
  /** Longest silence while the body is still owed. */
  bodyIdleMs: number;
  /** The whole request, headers and body. */
  requestMs: number;
  /**
   * How long an idle kept-alive connection stays open for the client's next request. Longer than
   * the clients' own idle limits (Node's agents drop a free socket after 5 s, Node's server default
   * is also 5 s): when the server closes first, a client that sends its next request at that moment
   * gets ECONNRESET. 65 s, as load balancers expect of their targets (nginx keeps 75 s).
   */
  keepAliveMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 20_000, bodyIdleMs: 20_000, requestMs: 120_000, keepAliveMs: 65_000 };

/** http.createServer's options for these limits (Node checks headers and whole requests itself, every `connectionsCheckingInterval`). */
export function serverTimeoutOptions(t: HttpTimeouts): ServerOptions {
  return {
    headersTimeout: t.headersMs,
    requestTimeout: t.requestMs,
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(Math.min(t.headersMs, t.requestMs) / 4))),
  };
}

const REQUEST_TIMEOUT = Object.assign(new Error('The request body stopped arriving.'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });

/** True when the request announces body bytes (a Content-Length above 0, or chunked). */
function owesBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && !/^0+$/.test(length);
}

/**
 * Watches a request's body: no byte for `idleMs` while it is owed → a 408 (or, if the response has
 * begun, the connection closed). The socket's idle timer counts the bytes the HTTP parser reads even
 * when no one reads the body yet; it is stopped once the body has arrived, and after the response
 * Node's keep-alive timer takes the socket over.
 */
export function watchBodyIdle(req: IncomingMessage, res: ServerResponse, idleMs: number, answer: ClientErrorAnswer): void {
  if (!owesBody(req) || req.complete) return;
  const socket = req.socket;
  const onTimeout = () => {
    // Node's socket timeout handler asks the response's listeners first (so it does not destroy the socket itself).
    if (req.complete) {
      socket.setTimeout(0);
      return;
    }
    // The target as sent: a router mounted on a path (Express's /v1) has cut req.url down to the rest.
    answer(REQUEST_TIMEOUT, socket, (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url);
  };
  res.on('timeout', onTimeout);
  socket.setTimeout(idleMs);
  req.once('end', () => {
    res.off('timeout', onTimeout);
    if (!res.writableEnded) socket.setTimeout(0);
  });
}
