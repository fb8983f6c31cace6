// The signed-in caller of a session-authenticated Express route (upload/export, receipts, reports,
// branding logo): the session's user and its active account, resolved exactly as tRPC's
// accountProcedure does. Throws UNAUTHORIZED without a session, NOT_A_MEMBER without an account.
import { fromNodeHeaders } from 'better-auth/node';
import type { NextFunction, Request, Response } from 'express';
import type { AppDeps } from '../deps';
import { assertShownAccount, resolveMembership, type Membership } from '../features/account/membership';
import { ACCOUNT_HEADER } from '../contracts/transport';
import { AppError } from '../lib/app-error';
import { sendError } from './send-error';

export interface SessionMember extends Membership {
  userId: string;
}

export async function sessionMember(deps: AppDeps, req: Request): Promise<SessionMember> {
  const session = await deps.auth.api.getSession({ headers: fromNodeHeaders(req.headers) }).catch(() => null);
  if (!session) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
  const m = await resolveMembership(deps.db, session.user.id, session.session.id);
  if (!m) throw new AppError('NOT_A_MEMBER', 'User account not found');
  // A change (an upload, a logo) from a tab still showing the account switched away from in another tab.
  if (req.method !== 'GET' && req.method !== 'HEAD') await assertShownAccount(deps.db, session.user.id, req.get(ACCOUNT_HEADER), m.accountId);
  return { ...m, userId: session.user.id };
}

/**
 * Express middleware that admits the signed-in caller before the body is read: resolves them, runs
 * `admit` (throw an AppError to refuse), keeps them in res.locals.caller and calls next(); a refusal
 * is answered with sendError (`fallback` for unexpected errors).
 */
export function admitSessionMember(deps: AppDeps, admit: (m: SessionMember, res: Response) => void | Promise<void>, fallback?: string) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const m = await sessionMember(deps, req);
      await admit(m, res);
      res.locals.caller = m;
      next();
    } catch (err) {
      sendError(res, err, fallback);
    }
  };
}
