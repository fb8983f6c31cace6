// What a request Node's HTTP parser refuses gets (a Content-Length that is no number, Content-Length
// with Transfer-Encoding, a broken chunk, headers past the limit, a request line that is no HTTP):
// the same status Node's own answer has, with a JSON body in the dashboard envelope instead of a
// bare status line. No route has seen the request, so there is nothing else to say.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const BY_CODE: Record<string, { status: number; code: 'BAD_INPUT' | 'PAYLOAD_TOO_LARGE'; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'BAD_INPUT', message: 'The request line and headers are larger than this server accepts.' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The chunk extensions of the request body are larger than this server accepts.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'BAD_INPUT', message: 'The request did not arrive in time.' },
};
const NOT_HTTP = { status: 400, code: 'BAD_INPUT', message: 'The request is not valid HTTP/1.1 (its request line, a header or the body framing is malformed).' } as const;

/** The http.Server 'clientError' listener. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // A response already started on this connection, or a peer that is gone: close, as Node does.
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === 'ECONNRESET' || !socket.writable || started) {
    socket.destroy();
    return;
  }
  const answer = (err.code && BY_CODE[err.code]) || NOT_HTTP;
  const body = JSON.stringify({ error: { code: answer.code, message: answer.message } });
  // Closed for good soon after, even if the peer never closes its side (or keeps sending).
  const linger = setTimeout(() => socket.destroy(), 2000);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
  socket.end(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/**
 * The http.Server 'checkExpectation' listener: an Expect other than 100-continue is a 417 (as Node
 * answers it) with a JSON body, and the connection closes (the body, if any, is never read).
 */
export function answerExpectation(_req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify({ error: { code: 'BAD_INPUT', message: 'The Expect header asks for something this server does not do (only 100-continue).' } });
  res.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Content-Type-Options': 'nosniff', Connection: 'close' });
  res.end(body);
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
