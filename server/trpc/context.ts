import { fromNodeHeaders } from 'better-auth/node';
import type { Request, Response } from 'express';
import type { AppDeps } from '../deps';

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
}

export async function createContextInner(deps: AppDeps, headers: Headers, ip: string | null = null): Promise<Context> {
  const session = await deps.auth.api.getSession({ headers }).catch(() => null);
  return {
    deps,
    headers,
    ip,
    user: session ? { id: session.user.id, email: session.user.email, name: session.user.name, emailVerified: session.user.emailVerified } : null,
    sessionId: session?.session.id ?? null,
  };
}

export function contextFactory(deps: AppDeps) {
  return ({ req }: { req: Request; res: Response }) => createContextInner(deps, fromNodeHeaders(req.headers), req.ip ?? null);
}
