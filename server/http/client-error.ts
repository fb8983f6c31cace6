// What a request Node's HTTP parser refuses gets (a Content-Length that is no number, Content-Length
// with Transfer-Encoding, a broken chunk, headers past the limit, a request line that is no HTTP), and
// a request too slow to arrive (slow-client.ts): the same status Node's own answer has, with a JSON
// body instead of a bare status line, in the envelope of the surface it was for — problem+json on
// /v1, the dashboard's elsewhere (client-error.ts refusalBody). No route has seen the request, so
// there is nothing else to say.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_JSON, problemDetails } from './send-error';

const BY_CODE: Record<string, { status: number; code: 'BAD_INPUT' | 'PAYLOAD_TOO_LARGE'; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'BAD_INPUT', message: 'The request line and headers are larger than this server accepts.' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The chunk extensions of the request body are larger than this server accepts.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'BAD_INPUT', message: 'The request did not arrive in time.' },
};
const NOT_HTTP = { status: 400, code: 'BAD_INPUT', message: 'The request is not valid HTTP/1.1 (its request line, a header or the body framing is malformed).' } as const;

/** A request target (origin or absolute form) on the public API. */
const V1_TARGET = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)?\/v1(?:[/?#]|$)/i;
/** The request line at the start of the bytes the parser refused: its target. */
const REQUEST_LINE = /^[A-Za-z]+ (\S+) HTTP\//;
/** The method at the start of the refused bytes (the request line may be cut short by the very byte refused). */
const REQUEST_METHOD = /^([A-Za-z]+) /;

/**
 * Whether the refused request was a HEAD (the request Node has read, else the refused bytes' first
 * word): its answer then has no body (RFC 9110 §9.3.2), or the JSON would be read as the next answer.
 */
function isHead(err: Error & { rawPacket?: unknown }, socket: Duplex): boolean {
  const incoming = (socket as Duplex & { parser?: { incoming?: IncomingMessage | null } | null }).parser?.incoming;
  if (incoming && !incoming.complete && incoming.method) return incoming.method === 'HEAD';
  return Buffer.isBuffer(err.rawPacket) && REQUEST_METHOD.exec(err.rawPacket.subarray(0, 16).toString('latin1'))?.[1] === 'HEAD';
}

type Surface = 'v1' | 'dashboard' | 'unknown';

/**
 * Which surface a refused request was for: the target when known (given by the caller, the
 * request whose headers Node has read, or the request line at the start of the refused bytes),
 * else unknown (headers that never ended: Node keeps a partial request line to itself).
 */
function surfaceOf(err: Error & { rawPacket?: unknown }, socket: Duplex, target: string | undefined): Surface {
  let url = target;
  if (url === undefined) {
    // The request whose headers Node has read and whose body is still owed; its target as sent (a
    // router mounted on a path, Express's /v1, cuts req.url down to the rest).
    const incoming = (socket as Duplex & { parser?: { incoming?: (IncomingMessage & { originalUrl?: string }) | null } | null }).parser?.incoming;
    if (incoming && !incoming.complete) url = incoming.originalUrl ?? incoming.url;
  }
  if (url === undefined && Buffer.isBuffer(err.rawPacket)) url = REQUEST_LINE.exec(err.rawPacket.subarray(0, 8192).toString('latin1'))?.[1];
  if (url === undefined) return 'unknown';
  return V1_TARGET.test(url) ? 'v1' : 'dashboard';
}

/**
 * The body of an edge refusal: problem+json on /v1 (its envelope, RFC 9457), the dashboard envelope
 * elsewhere. For a request whose target was never read, problem details that carry the dashboard's
 * `error` member too, so either kind of client reads it.
 */
function refusalBody(surface: Surface, status: number, code: string, message: string, docsBase: string): { type: string; body: string } {
  const dashboard = { error: { code, message } };
  if (surface === 'dashboard') return { type: 'application/json; charset=utf-8', body: JSON.stringify(dashboard) };
  const problem = problemDetails(status, { code, message }, docsBase);
  return { type: PROBLEM_JSON, body: JSON.stringify(surface === 'v1' ? problem : { ...problem, ...dashboard }) };
}

export type ClientErrorAnswer = (err: Error & { code?: string; rawPacket?: unknown }, socket: Duplex, target?: string) => void;

/**
 * The http.Server 'clientError' listener (and the body-idle watcher's answer, slow-client.ts, which
 * knows the request's target): `docsBase` is the app's origin, for the problem type's link.
 */
export function clientErrorAnswer(docsBase: string): ClientErrorAnswer {
  return (err, socket, target) => {
    // A response already started on this connection, or a peer that is gone: close, as Node does.
    const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (err.code === 'ECONNRESET' || !socket.writable || started) {
      socket.destroy();
      return;
    }
    const answer = (err.code && BY_CODE[err.code]) || NOT_HTTP;
    const { type, body } = refusalBody(surfaceOf(err, socket, target), answer.status, answer.code, answer.message, docsBase);
    // Closed for good soon after, even if the peer never closes its side (or keeps sending).
    const linger = setTimeout(() => socket.destroy(), 2000);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        `Content-Type: ${type}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        (isHead(err, socket) ? '' : body),
    );
  };
}

/**
 * The http.Server 'checkExpectation' listener: an Expect other than 100-continue is a 417 (as Node
 * answers it) with a JSON body, and the connection closes (the body, if any, is never read).
 */
export function expectationAnswer(docsBase: string): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const message = 'The Expect header asks for something this server does not do (only 100-continue).';
    const { type, body } = refusalBody(V1_TARGET.test(req.url ?? '') ? 'v1' : 'dashboard', 417, 'BAD_INPUT', message, docsBase);
    res.writeHead(417, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': randomUUID(), 'X-Content-Type-Options': 'nosniff', Connection: 'close' });
    res.end(body);
  };
}

/**
 * The http.Server 'connect' listener: CONNECT asks for a tunnel, which this server never opens. Node
 * hands such a request to this event instead of a route, and closed the connection without an answer
 * when nothing listened; now it is a 405 with a JSON body, and the connection closes.
 */
export function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  const body = JSON.stringify({ error: { code: 'METHOD_NOT_ALLOWED', message: 'This server opens no tunnels (CONNECT).' } });
  socket.end(
    'HTTP/1.1 405 Method Not Allowed\r\n' +
      'Allow: GET, HEAD, POST, OPTIONS\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
  const linger = setTimeout(() => socket.destroy(), 2000);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}
