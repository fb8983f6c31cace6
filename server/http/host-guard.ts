// The host a request names (Host, or X-Forwarded-Host from a trusted proxy) must be a host name:
// tRPC, trpc-to-openapi and better-auth each build a WHATWG URL from it, and one that is none
// ("a@b", "x y", "[zz]", "localhost:abc", a port past 65535) made that throw, a 500 on each surface.
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { AppError } from '../lib/app-error';
import { sendError, sendProblem } from './send-error';

export const BAD_HOST_MESSAGE = 'The Host header is not a valid host name.';
export const BAD_TARGET_MESSAGE = 'The request target is not a valid http(s) URL.';

/** Set on a request whose absolute-form target is no usable http(s) URL: the host guard refuses it. */
const BAD_TARGET = Symbol('mailvet.badTarget');
type MarkedRequest = IncomingMessage & { [BAD_TARGET]?: true };

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
 * A target in absolute form (`GET http://host/path HTTP/1.1`, RFC 9112 §3.2.2): the host is the
 * target's and Host is ignored. Each surface read it its own way (tRPC and better-auth build a URL
 * from Host + req.url: `http://a@b/…` was a 500, better-auth's guard answered its routes 404, the
 * rest served them under Host), so it is rewritten here to the origin form with the target's host
 * in Host. False (and the request marked for the host guard's 400) for a target that is no
 * http(s) URL with a usable host and no credentials; origin form, `*` and anything else pass as sent.
 */
export function toOriginForm(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s.exec(url);
  if (!m) return true;
  const [, scheme, authority, rest] = m as unknown as [string, string, string, string];
  const path = rest.startsWith('/') ? rest : `/${rest}`;
  req.url = path;
  if (!/^https?$/i.test(scheme) || !authority || authority.includes('@') || !isValidHost(authority)) {
    (req as MarkedRequest)[BAD_TARGET] = true;
    return false;
  }
  req.headers.host = authority;
  return true;
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

/** Refuses (400) a request marked by toOriginForm, or whose host, as Express reads it with TRUST_PROXY, is no host name: problem+json on /v1, the dashboard envelope elsewhere. */
export function hostGuard(docsBase: string) {
  return function refuseBadHost(req: Request, res: Response, next: NextFunction): void {
    const badTarget = (req as MarkedRequest)[BAD_TARGET] === true;
    if (!badTarget && !hostMissing(req) && isValidHost(req.host)) return next();
    const err = new AppError('BAD_INPUT', badTarget ? BAD_TARGET_MESSAGE : BAD_HOST_MESSAGE);
    if (/^\/v1(\/|$)/i.test(req.path)) sendProblem(res, err, docsBase);
    else sendError(res, err);
  };
}
