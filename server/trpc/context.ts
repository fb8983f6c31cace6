import { fromNodeHeaders } from 'better-auth/node';
import type { Request, Response } from 'express';
import type { AppDeps } from '../deps';
import { isThisMachine } from '../http/dev-outbox';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

export interface Context {
  deps: AppDeps;
  user: SessionUser | null;
  sessionId: string | null;
  headers: Headers;
  ip: string | null;
  /** The TCP peer is this machine (127/8, ::1; read from the socket) and forwards nobody (no proxy headers): developer tools answer only it. */
  fromThisMachine: boolean;
}

export async function createContextInner(deps: AppDeps, headers: Headers, ip: string | null = null, fromThisMachine = false): Promise<Context> {
  const session = await deps.auth.api.getSession({ headers }).catch(() => null);
  return {
    deps,
    headers,
    ip,
    fromThisMachine,
    user: session ? { id: session.user.id, email: session.user.email, name: session.user.name, emailVerified: session.user.emailVerified } : null,
    sessionId: session?.session.id ?? null,
  };
}

export function contextFactory(deps: AppDeps) {
  return ({ req }: { req: Request; res: Response }) => createContextInner(deps, fromNodeHeaders(req.headers), req.ip ?? null, isThisMachine(req));
}
