// The /v1 request context: the dashboard's Context (no session: /v1 never reads cookies) plus a
// bag of response headers the procedures fill (rate-limit headers, Retry-After) and the adapter sends.
import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingMessage } from 'node:http';
import type { AppDeps } from '../deps';
import type { Context } from '../trpc/context';

export interface RestState {
  responseHeaders: Record<string, string>;
  /** A body to send instead of the JSON answer (CSV results); mount.ts swaps it in on success. */
  rawBody?: { contentType: string; text: string };
  /** A CSV uploaded to POST /bulk as multipart/form-data (mount.ts parsed it into `emails`). */
  upload?: { filename: string };
  /** The request's rate token was taken before its body was read (csv-multipart.ts): not again. */
  rateCounted?: boolean;
}

export interface RestContext extends Context {
  rest: RestState;
}

export function restContextFactory(deps: AppDeps) {
  return ({ req, res }: { req: IncomingMessage & { ip?: string }; res?: { locals?: Record<string, unknown> } }): RestContext => {
    const headers = fromNodeHeaders(req.headers);
    headers.delete('cookie'); // the public API authenticates with API keys only
    const upload = res?.locals?.csvUpload as RestState['upload'] | undefined;
    const counted = res?.locals?.rateCounted as Record<string, string> | undefined;
    const rest: RestState = { responseHeaders: { ...counted }, ...(upload ? { upload } : {}), ...(counted ? { rateCounted: true } : {}) };
    if (res?.locals) res.locals.restState = rest; // read back by mount.ts for rawBody
    // fromThisMachine: the public API has no developer tools (no test checkout), from anywhere.
    return { deps, user: null, sessionId: null, headers, ip: req.ip ?? null, fromThisMachine: false, rest };
  };
}

export function restStateOf(ctx: unknown): RestState | null {
  return (ctx as { rest?: RestState } | undefined)?.rest ?? null;
}
