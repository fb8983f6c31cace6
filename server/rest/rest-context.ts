// The /v1 request context: the dashboard's Context (no session: /v1 never reads cookies) plus a
// bag of response headers the procedures fill (rate-limit headers, Retry-After) and the adapter sends.
import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingMessage } from 'node:http';
import type { AppDeps } from '../deps';
import type { Context } from '../trpc/context';

export interface RestState {
  responseHeaders: Record<string, string>;
}

export interface RestContext extends Context {
  rest: RestState;
}

export function restContextFactory(deps: AppDeps) {
  return ({ req }: { req: IncomingMessage & { ip?: string } }): RestContext => {
    const headers = fromNodeHeaders(req.headers);
    headers.delete('cookie'); // the public API authenticates with API keys only
    return { deps, user: null, sessionId: null, headers, ip: req.ip ?? null, rest: { responseHeaders: {} } };
  };
}

export function restStateOf(ctx: unknown): RestState | null {
  return (ctx as { rest?: RestState } | undefined)?.rest ?? null;
}
