// The base procedures every router builds on. Handlers never check sessions, tenancy, roles or
// plans themselves: the chain narrows ctx (user → accountId/role/plan) and enforces the gates.
import type { Plan } from '../../db/types';
import { can, PERMISSION_DENIED_MESSAGES, type Permission, type Role } from '../contracts/permissions';
import { planAllows, type PlanGate } from '../contracts/plans';
import { assertShownAccount, resolveMembership } from '../features/account/membership';
import { provisionAccount } from '../features/account/provision';
import type { AppDeps } from '../deps';
import { ACCOUNT_HEADER } from '../contracts/transport';
import { AppError } from '../lib/app-error';
import { consumeApiRequest, DASHBOARD_WINDOW_SECONDS } from '../rest/rate-limit';
import { middleware, publicProcedure } from './init';

export { publicProcedure };

export const authedProcedure = publicProcedure.use(function isAuthed({ ctx, next }) {
  if (!ctx.user) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
  return next({ ctx: { ...ctx, user: ctx.user } });
});

export type { Role };

/** A signed-in user whose account is gone: the SPA shows "Your account was deleted" on this. */
export const ACCOUNT_DELETED = { message: 'User account not found', details: { accountDeleted: true } } as const;

export const accountProcedure = authedProcedure.use(async function hasAccount({ ctx, next, type }) {
  let membership = await resolveMembership(ctx.deps.db, ctx.user.id, ctx.sessionId);
  if (!membership) {
    // Heals a user whose sign-up provisioning was interrupted; never re-provisions one who had an
    // account (deleted since): that would be a second free grant.
    const outcome = await provisionAccount(ctx.deps.db, ctx.user);
    if (outcome.status === 'deleted') throw new AppError('NOT_A_MEMBER', ACCOUNT_DELETED.message, { details: { ...ACCOUNT_DELETED.details } });
    membership = await resolveMembership(ctx.deps.db, ctx.user.id, ctx.sessionId);
  }
  if (!membership) throw new AppError('NOT_A_MEMBER', ACCOUNT_DELETED.message, { details: { ...ACCOUNT_DELETED.details } });
  if (type === 'mutation') await assertShownAccount(ctx.deps.db, ctx.user.id, ctx.headers.get(ACCOUNT_HEADER), membership.accountId);
  return next({ ctx: { ...ctx, accountId: membership.accountId, role: membership.role, plan: membership.plan } });
});

/** Refuses callers whose role lacks the permission (server/contracts/permissions.ts, the one table). */
export function requirePermission(permission: Permission) {
  return middleware(function hasPermission({ ctx, next }) {
    const role = (ctx as { role?: Role }).role;
    if (!can(role, permission)) throw new AppError('PERMISSION_DENIED', PERMISSION_DENIED_MESSAGES[permission] ?? 'You do not have permission to do this.');
    return next();
  });
}

export function requireRole(...roles: Role[]) {
  return middleware(function hasRole({ ctx, next }) {
    const role = (ctx as { role?: Role }).role;
    if (!role || !roles.includes(role)) throw new AppError('PERMISSION_DENIED', 'You do not have permission to do this.');
    return next();
  });
}

export const GATE_MESSAGES: Record<PlanGate, string> = {
  smtpCheck: 'SMTP mailbox checks need a paid plan.',
  csvUpload: 'CSV upload is available on paid plans. Upgrade to upload lists.',
  apiKeys: 'API keys are available from the Starter plan.',
  autoRevalidation: 'Auto revalidation is available on Pro, Business and Enterprise plans.',
  integrations: 'Integrations are available on the Enterprise plan.',
  webhooks: 'Webhooks are available on the Pro, Business and Enterprise plans.',
  analytics: 'Analytics are available on the Pro, Business and Enterprise plans.',
  advancedReporting: 'Advanced reporting (filters and CSV export) is available on the Business and Enterprise plans.',
  whiteLabel: 'White-label is available on the Business and Enterprise plans.',
  fullRebranding: 'Product and sender names are part of full rebranding on the Enterprise plan.',
};

/** Refuses callers whose plan lacks the gate; with `when`, only for inputs it selects. */
export function requirePlan(gate: PlanGate, when?: (input: unknown) => boolean) {
  return middleware(async function hasPlan({ ctx, next, getRawInput }) {
    const plan = (ctx as { plan?: Plan }).plan;
    const applies = when ? when(await getRawInput()) : true;
    if (applies && (!plan || !planAllows(plan, gate))) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES[gate]);
    return next();
  });
}

/** Dashboard work that costs (checks, job mutations) is rate-limited per account like /v1, in its own bucket (rest/rate-limit.ts). */
export function rateLimitMessage(limit: number, retryAfterSeconds: number): string {
  const s = retryAfterSeconds;
  return `Too many requests (${limit} per ${DASHBOARD_WINDOW_SECONDS} seconds on your plan). Retry after ${s} second${s === 1 ? '' : 's'}.`;
}

export const withinAccountRate = middleware(async function withinAccountRate({ ctx, next }) {
  const c = ctx as unknown as { deps: AppDeps; accountId?: string; plan?: Plan };
  if (!c.accountId || !c.plan) return next();
  const decision = await consumeApiRequest(c.deps.pool, c.plan, c.accountId, 'dashboard');
  if (!decision.allowed) {
    throw new AppError('RATE_LIMITED', rateLimitMessage(decision.limit, decision.retryAfterSeconds), { details: { retryAfterSeconds: decision.retryAfterSeconds } });
  }
  return next();
});
