// Cross-origin reads of the public API: /v1 authenticates with a bearer API key only (never a
// cookie), so a page on any origin may call it with its key, as the documentation's JavaScript
// examples do; the browser is told so, and what it may read. The dashboard's own API (/api/*,
// cookie sessions) sends none of this and stays same-origin.
import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Idempotency-Key, X-Request-Id';
const EXPOSE_HEADERS = 'X-Request-Id, X-Next-Cursor, Idempotent-Replayed, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, Server-Timing, WWW-Authenticate';

/** The headers every /v1 answer carries for a cross-origin caller. */
export function allowCrossOrigin(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
}

/** A CORS preflight (OPTIONS with Access-Control-Request-Method): answered here with 204; false for anything else. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'OPTIONS') return false;
  allowCrossOrigin(res);
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
  res.setHeader('Access-Control-Max-Age', '600');
  res.statusCode = 204;
  res.end();
  return true;
}
