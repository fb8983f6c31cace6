// The headers every answer of the app carries, set before any route runs: the Express app's first
// middleware (http/app.ts) and the direct POST /v1/validate listener (rest/mount.ts) both call this.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function setCommonHeaders(req: IncomingMessage, res: ServerResponse): void {
  // Every answer carries a request id: the client's own (when it is a sane token) or a new one.
  const sent = req.headers['x-request-id'];
  res.setHeader('X-Request-Id', typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID());
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'DENY');
}
