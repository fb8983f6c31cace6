// The headers every answer of the app carries, set before any route runs: the Express app's first
// middleware (http/app.ts) and the direct POST /v1/validate listener (rest/mount.ts) both call this.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Strict-Transport-Security when the app is served over https (BASE_URL): a browser that reached it
 * once asks for it over https only for a year, so a network between it and the app (a café's Wi-Fi)
 * cannot answer a typed "app.example.com" over plain http in the app's place. Not includeSubDomains:
 * the app's name may be a subdomain of a company whose other hosts are not all https.
 */
export const HSTS = 'max-age=31536000';

export function setCommonHeaders(req: IncomingMessage, res: ServerResponse, o: { https: boolean }): void {
  // Every answer carries a request id: the client's own (when it is a sane token) or a new one.
  const sent = req.headers['x-request-id'];
  res.setHeader('X-Request-Id', typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID());
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  if (o.https) res.setHeader('Strict-Transport-Security', HSTS);
}
