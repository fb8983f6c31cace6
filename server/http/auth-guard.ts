// The guard in front of better-auth's handler: a separate middleware so other concerns (body
// limits, headers) can sit beside it without touching the allowlist.
//  - Only the routes in server/auth/auth-routes.ts reach better-auth, spelled exactly (no trailing
//    slash); anything else answers 404 before better-auth sees it (an upgrade that adds routes adds
//    nothing reachable), or 405 with Allow when the path is listed under other methods.
//  - The client IP better-auth rate-limits on is the one Express resolved with the same
//    TRUST_PROXY setting as everything else (req.ip), passed in a header of our own that a client
//    cannot set: any incoming copy is dropped first, so a spoofed X-Forwarded-For buys no fresh
//    budget and a proxy does not put everyone in one bucket. Likewise the scheme (X-Forwarded-Proto).
import type { NextFunction, Request, Response } from 'express';
import { allowedAuthMethods, CLIENT_HOST_HEADER, CLIENT_IP_HEADER, isAllowedAuthRoute, RECEIVED_AT_HEADER } from '../auth/auth-routes';

export function authAllowlistGuard(basePath = '/api/auth') {
  return function authGuard(req: Request, res: Response, next: NextFunction): void {
    const fullPath = req.originalUrl.split('?')[0] ?? '';
    // Express matched the mount in any case; better-auth routes only its own spelling (it answered
    // /API/AUTH/… with an empty 404).
    if (!fullPath.startsWith(basePath)) {
      res.status(404).json({ code: 'NOT_FOUND', message: 'Not found' });
      return;
    }
    const pathname = fullPath.slice(basePath.length) || '/';
    // HEAD is GET without a body: better-auth routes no HEAD, so it is handed the GET (Node leaves the body out).
    const head = req.method === 'HEAD';
    if (head) req.method = 'GET';
    // A trailing slash: better-auth routes none of its paths with one (it answered an empty 404).
    if (pathname.length > 1 && pathname.endsWith('/')) {
      res.status(404).json({ code: 'NOT_FOUND', message: 'Not found' });
      return;
    }
    if (!isAllowedAuthRoute(req.method, pathname)) {
      // A listed path asked with another method: a 405 naming the ones it takes (RFC 9110 §15.5.6).
      const allow = allowedAuthMethods(pathname);
      if (allow.length > 0) {
        const method = req.method === 'GET' && head ? 'HEAD' : req.method;
        res.setHeader('Allow', allow.join(', '));
        res.status(405).json({ code: 'METHOD_NOT_ALLOWED', message: `This route takes ${allow.join(' or ')}, not ${method}.` });
        return;
      }
      res.status(404).json({ code: 'NOT_FOUND', message: 'Not found' });
      return;
    }
    // HEAD is safe (RFC 9110 §9.2.1), but the GET of a verification link verifies the address and
    // may sign in: a mail scanner or link checker that probes the link with HEAD did that for the
    // address's owner, activating an account someone else may have signed up. It is answered here,
    // with nothing changed; opening the link (GET) does the work.
    if (head && HEAD_WITHOUT_EFFECT.has(pathname)) {
      res.status(200).end();
      return;
    }
    // better-auth's Node adapter builds its Request from req.headers: drop any client-sent copy
    // of our header, then add Express's answer.
    delete req.headers[CLIENT_IP_HEADER];
    if (req.ip) req.headers[CLIENT_IP_HEADER] = req.ip;
    // Likewise the host (white-label: mails sent and origins trusted on a verified custom domain).
    delete req.headers[CLIENT_HOST_HEADER];
    if (req.hostname) req.headers[CLIENT_HOST_HEADER] = req.hostname;
    // better-auth's Node adapter builds its request URL from X-Forwarded-Proto, whoever sent it (a
    // client's 'x y' was a 500, 'http://evil' an empty 404): it gets the scheme Express decided
    // (the socket's, or a trusted proxy's), and only http or https.
    req.headers['x-forwarded-proto'] = req.protocol === 'https' ? 'https' : 'http';
    // And when the request arrived (sign-up answers are padded to a floor from then: auth.ts).
    req.headers[RECEIVED_AT_HEADER] = String(performance.now());
    // "Trust this device" is not offered (auth.ts): a trust cookie a browser still holds would let
    // the password alone sign in, so better-auth never sees one.
    const cookie = req.headers.cookie;
    if (cookie && TRUST_DEVICE_COOKIE.test(cookie)) {
      req.headers.cookie = cookie.split(';').filter((pair) => !TRUST_DEVICE_COOKIE.test(pair)).join(';');
    }
    next();
  };
}

/** GET routes whose answer changes something (verify-email: the address, a session): a HEAD of them runs nothing. */
const HEAD_WITHOUT_EFFECT = new Set(['/verify-email']);

/** better-auth's two-factor trust cookie (`better-auth.trust_device`; `__Host-` prefixed over https, `__Secure-` before). */
const TRUST_DEVICE_COOKIE = /(?:^|;)\s*(?:__Secure-|__Host-)?better-auth\.trust_device\s*=/i;
