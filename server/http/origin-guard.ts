// Cookie-authenticated changes come from the app's own pages only. The session cookie is SameSite=Lax:
// a page on another host of the same site (a sibling subdomain of the app, or of a tenant's custom
// domain) still gets it sent with a POST, and a "simple" one (text/plain, no preflight) reached the
// raw-body routes (CSV upload, branding logo), which read any bytes: an upload or a new logo in the
// victim's account. better-auth checks its own routes (/api/auth); this guard checks the others.
//  - GET/HEAD/OPTIONS and requests without a cookie pass (they change nothing, or carry no session:
//    the Razorpay webhook, /v1 with its API key), except the dashboard API's reads (/api/trpc): some
//    do work a page of another site must not start in a victim's browser (the API Keys page's first
//    read creates the webhook signing secret and shows it that once), and only the app's own pages call them.
//  - With an Origin header: it must be exactly (scheme, host and port) the app's configured origin
//    (BASE_URL), or the origin of the request's own host under the app's scheme (the verified
//    custom domain it was served on, the app behind a proxy that keeps Host).
//  - Without one: a browser's Sec-Fetch-Site must not say another site made the request.
import type { NextFunction, Request, Response } from 'express';
import { trustedOrigins } from '../auth/auth';
import { AppError } from '../lib/app-error';
import { sendError } from './send-error';

export const CROSS_ORIGIN_MESSAGE = "Refused: this request came from another website, not from this app's own pages.";

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The origin of the page this request's own host serves (the app, or the verified custom domain it
 * came to): the app's public scheme, and the host with its port exactly as the request names it
 * (Express's req.host, X-Forwarded-Host behind a trusted proxy). The host name alone let a page on
 * another port of the same host (https://app.example.com:8443, another service there) through:
 * cookies are not kept apart by port, so its POSTs carried the session.
 */
function ownHostOrigin(req: Request, scheme: string): string | null {
  try {
    return req.host ? new URL(`${scheme}//${req.host}`).origin : null;
  } catch {
    return null;
  }
}

function sameOrigin(origin: string, req: Request, scheme: string): boolean {
  try {
    return new URL(origin).origin === origin && origin === ownHostOrigin(req, scheme);
  } catch {
    return false; // "null" (a sandboxed frame, a data: URL) or garbage
  }
}

export function sameOriginGuard(o: { baseURL: string; production: boolean }) {
  const own = new Set(trustedOrigins(o.baseURL, o.production));
  const scheme = new URL(o.baseURL).protocol;
  return function originGuard(req: Request, res: Response, next: NextFunction): void {
    if (!req.headers.cookie || req.method === 'OPTIONS') return next();
    if (SAFE_METHODS.has(req.method) && !req.path.startsWith('/trpc/')) return next();
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    const allowed = origin !== undefined ? own.has(origin) || sameOrigin(origin, req, scheme) : site !== 'cross-site' && site !== 'same-site';
    if (allowed) return next();
    sendError(res, new AppError('PERMISSION_DENIED', CROSS_ORIGIN_MESSAGE));
  };
}
