// The base procedures every router builds on. Handlers never check sessions, tenancy, roles or
// plans themselves: the chain narrows ctx (user → accountId/role/plan) and enforces the gates.
import type { Db } from '../../db/client';
import type { Plan } from '../../db/types';
import { planAllows, type PlanGate } from '../contracts/plans';
import { provisionAccount } from '../features/account/provision';
import { appError } from '../lib/errors';
import { middleware, publicProcedure, TRPCError } from './init';

export { publicProcedure };

export const authedProcedure = publicProcedure.use(function isAuthed({ ctx, next }) {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue.' });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

export type Role = 'owner' | 'admin' | 'member';

export interface Membership {
  accountId: string;
  role: Role;
  plan: Plan;
}

/** The caller's account: their oldest membership (an invited user may belong to several). */
export async function resolveMembership(db: Db, userId: string): Promise<Membership | null> {
  const row = await db
    .selectFrom('member')
    .innerJoin('account', 'account.id', 'member.organizationId')
    .select(['member.organizationId as accountId', 'member.role', 'account.plan'])
    .where('member.userId', '=', userId)
    .orderBy('member.createdAt', 'asc')
    .executeTakeFirst();
  return row ? { accountId: row.accountId, role: row.role as Role, plan: row.plan } : null;
}

export const accountProcedure = authedProcedure.use(async function hasAccount({ ctx, next }) {
  let membership = await resolveMembership(ctx.deps.db, ctx.user.id);
  if (!membership) {
    // Heals a user whose sign-up provisioning was interrupted.
    await provisionAccount(ctx.deps.db, ctx.user);
    membership = await resolveMembership(ctx.deps.db, ctx.user.id);
  }
  if (!membership) throw appError('NOT_A_MEMBER', 'User account not found');
  return next({ ctx: { ...ctx, accountId: membership.accountId, role: membership.role, plan: membership.plan } });
});

export function requireRole(...roles: Role[]) {
  return middleware(function hasRole({ ctx, next }) {
    const role = (ctx as { role?: Role }).role;
    if (!role || !roles.includes(role)) throw appError('PERMISSION_DENIED', 'You do not have permission to do this.');
    return next();
  });
}

const GATE_MESSAGES: Record<PlanGate, string> = {
  smtpCheck: 'SMTP mailbox checks need a paid plan.',
  csvUpload: 'CSV upload is available on paid plans. Upgrade to upload lists.',
  apiKeys: 'API keys are available from the Starter plan.',
  autoRevalidation: 'Auto revalidation is available on Pro, Business and Enterprise plans.',
  integrations: 'Integrations are available on the Enterprise plan.',
};

export function requirePlan(gate: PlanGate) {
  return middleware(function hasPlan({ ctx, next }) {
    const plan = (ctx as { plan?: Plan }).plan;
    if (!plan || !planAllows(plan, gate)) throw appError('PLAN_REQUIRED', GATE_MESSAGES[gate]);
    return next();
  });
}
