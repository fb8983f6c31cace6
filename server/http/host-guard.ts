// The host a request names (Host, or X-Forwarded-Host from a trusted proxy) must be a host name:
// tRPC, trpc-to-openapi and better-auth each build a WHATWG URL from it, and one that is none
// ("a@b", "x y", "[zz]", "localhost:abc", a port past 65535) made that throw, a 500 on each surface.
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { AppError } from '../lib/app-error';
import { sendError, sendProblem } from './send-error';

export const BAD_HOST_MESSAGE = 'The Host header is not a valid host name.';

/** RFC 3986 host[:port]: an IP literal in brackets or a reg-name (no percent-encoding), then an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=-]+)(?::(\d{1,5}))?$/;

/** True for a usable host[:port]; an absent or empty value is left to the routes (HTTP/1.0). */
export function isValidHost(value: string | undefined): boolean {
  if (!value) return true;
  const m = HOST.exec(value);
  if (!m || (m[1] !== undefined && Number(m[1]) > 65535)) return false;
  try {
    new URL(`http://${value}/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * An HTTP/1.1 request without a Host, or with an empty one (RFC 9112 §3.2: a 400; an http URL
 * always has a host). Node's own check answered a bare 400 without a body; surfaces that built a
 * URL from it answered 400 "Invalid URL", an empty 404, or (the direct /v1/validate path) served it.
 * HTTP/1.0 may leave it out.
 */
export function hostMissing(req: IncomingMessage): boolean {
  return req.httpVersion !== '1.0' && !req.headers.host;
}

/** Refuses (400) a request whose host, as Express reads it with TRUST_PROXY, is no host name: problem+json on /v1, the dashboard envelope elsewhere. */
export function hostGuard(docsBase: string) {
  return function refuseBadHost(req: Request, res: Response, next: NextFunction): void {
    if (!hostMissing(req) && isValidHost(req.host)) return next();
    const err = new AppError('BAD_INPUT', BAD_HOST_MESSAGE);
    if (/^\/v1(\/|$)/i.test(req.path)) sendProblem(res, err, docsBase);
    else sendError(res, err);
  };
}
