// Cross-origin reads of the public API: /v1 authenticates with a bearer API key only (never a
// cookie), so a page on any origin may call it with its key, as the documentation's JavaScript
// examples do; the browser is told so, and what it may read. The dashboard's own API (/api/*,
// cookie sessions) sends none of this and stays same-origin.
import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Idempotency-Key, X-Request-Id';
/**
 * A preflight may also name headers a page's own tooling adds to every call (W3C trace context's
 * traceparent/tracestate and baggage, Sentry's sentry-trace, X-Requested-With …): they are allowed
 * as asked (each a header-name token; at most 32), since /v1 reads none of them and no cookie ever
 * goes with a call, so refusing one only made the browser drop the whole call.
 */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
function allowedHeaders(requested: string | undefined): string {
  if (!requested) return ALLOW_HEADERS;
  const known = new Set(ALLOW_HEADERS.toLowerCase().split(', '));
  const extra = requested
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => HEADER_NAME.test(h) && !known.has(h));
  return [ALLOW_HEADERS, ...new Set(extra)].slice(0, 33).join(', ');
}
const EXPOSE_HEADERS = 'X-Request-Id, X-Next-Cursor, Idempotent-Replayed, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, Server-Timing, WWW-Authenticate';

/** The headers every /v1 answer carries for a cross-origin caller. */
export function allowCrossOrigin(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
}

/**
 * OPTIONS, answered here with 204: a CORS preflight (with Access-Control-Request-Method) on any path,
 * or a plain OPTIONS on a path that exists; either way `allow` (the path's methods, when it exists)
 * goes in Allow (RFC 9110 §9.3.7). False for anything else (a plain OPTIONS on no path: a 404 next).
 */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, allow: string[] | null = null): boolean {
  if (req.method !== 'OPTIONS') return false;
  const preflight = req.headers['access-control-request-method'] !== undefined;
  if (!preflight && !allow) return false;
  if (allow) res.setHeader('Allow', [...allow, 'OPTIONS'].join(', '));
  allowCrossOrigin(res);
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  const requested = req.headers['access-control-request-headers'];
  res.setHeader('Access-Control-Allow-Headers', allowedHeaders(typeof requested === 'string' ? requested : undefined));
  res.setHeader('Vary', 'Access-Control-Request-Headers');
  res.setHeader('Access-Control-Max-Age', '600');
  res.statusCode = 204;
  res.end();
  return true;
}
