import { APIError } from 'better-auth/api';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { router } from '../../trpc/init';
import { auditLogInput } from '../../contracts/audit';
import { accountProcedure, authedProcedure, requirePermission } from '../../trpc/procedures';
import { readAuditLog } from '../audit/audit.service';
import { recordWrongPassword, WRONG_PASSWORDS_MESSAGE, wrongPasswordsSpent } from './auth-mail-throttle';
import { provisionAccount } from './provision';
import { listAccountChoices, seatlessMemberships, switchActiveAccount } from './membership';
import { DELETE_CONFIRMATION, accountOverview, accountSummary, deleteUserAndOwnedAccounts, getProfile, updateProfile } from './account.service';

export const overviewInput = z.object({ timeZone: z.string().max(64).optional() }).optional();
export const updateProfileInput = z.object({ full_name: z.string().max(10_000), company_name: z.string().max(10_000) });
export const switchAccountInput = z.object({ accountId: z.string().min(1).max(200) });
export const deleteAccountInput = z.object({ confirmation: z.string().max(100), password: z.string().max(1000) });

export const accountRouter = router({
  /** Who is signed in, in which account, with which role and plan. */
  me: accountProcedure.query(async ({ ctx }) => {
    const account = await accountSummary(ctx.deps.db, ctx.accountId);
    return {
      user: { id: ctx.user.id, email: ctx.user.email, name: ctx.user.name },
      accountId: ctx.accountId,
      role: ctx.role,
      ...account,
      /** Teams this user has no seat in (their plan fell): the dashboard says so. */
      seatless: await seatlessMemberships(ctx.deps.db, ctx.user.id),
    };
  }),

  /** The accounts this user can work in (their own, teams they hold a seat in), the active one marked: the account switcher. */
  accounts: authedProcedure.query(({ ctx }) => listAccountChoices(ctx.deps.db, ctx.user.id, ctx.sessionId)),

  /** Makes one of those accounts the active one of this session only; refused for any account the user holds no seat in. */
  switch: authedProcedure.input(switchAccountInput).mutation(async ({ ctx, input }) => {
    if (!ctx.sessionId) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
    const out = await switchActiveAccount(ctx.deps.db, { userId: ctx.user.id, sessionId: ctx.sessionId, accountId: input.accountId });
    if (out.status === 'seatless') {
      throw new AppError('PERMISSION_DENIED', `You no longer have a seat in ${out.name}: ask its owner to upgrade or free a seat.`);
    }
    if (out.status === 'not_member') throw new AppError('NOT_FOUND', 'Account not found.');
    return out.membership;
  }),

  /** Spec "Overview": credits, plan and quota, this month's usage, recent activity, checklist, 30-day chart. */
  overview: accountProcedure.input(overviewInput).query(({ ctx, input }) => accountOverview(ctx.deps.db, ctx.accountId, { timeZone: input?.timeZone })),

  profile: router({
    get: accountProcedure.query(({ ctx }) => getProfile(ctx.deps.db, ctx.user.id)),
    update: accountProcedure
      .input(updateProfileInput)
      .mutation(({ ctx, input }) => updateProfile(ctx.deps.db, { userId: ctx.user.id, accountId: ctx.accountId, ...input })),
  }),

  /** The account's audit log, newest first, filterable by category and actor. Owner and admin only. */
  auditLog: accountProcedure
    .use(requirePermission('audit.read'))
    .input(auditLogInput)
    .query(({ ctx, input }) => readAuditLog(ctx.deps.db, ctx.accountId, input)),

  /**
   * For a signed-in user whose account was deleted: a new, empty Free account (no free credits:
   * those come once per person) from which a paid plan can be started. Does nothing for a member.
   */
  reopen: authedProcedure.mutation(async ({ ctx }) => {
    const out = await provisionAccount(ctx.deps.db, ctx.user, { reopen: true });
    if (out.status === 'deleted') throw new AppError('NOT_A_MEMBER', 'User account not found');
    return { accountId: out.accountId, credits: out.status === 'created' ? out.credits : null };
  }),

  /** Deletes the signed-in user (and every account they alone own) after a typed confirmation and the password. */
  deleteAccount: authedProcedure.input(deleteAccountInput).mutation(async ({ ctx, input }) => {
    if (input.confirmation.trim() !== DELETE_CONFIRMATION) throw new AppError('BAD_INPUT', `Type ${DELETE_CONFIRMATION} to confirm.`);
    if (!input.password) throw new AppError('BAD_INPUT', 'Enter your password to confirm.');
    if (await wrongPasswordsSpent(ctx.deps.db, ctx.user.id)) throw new AppError('RATE_LIMITED', WRONG_PASSWORDS_MESSAGE);
    try {
      await ctx.deps.auth.api.verifyPassword({ body: { password: input.password }, headers: ctx.headers });
    } catch (err) {
      if (err instanceof APIError) {
        await recordWrongPassword(ctx.deps.db, ctx.user.id);
        throw new AppError('BAD_INPUT', 'That password is not correct.');
      }
      throw err;
    }
    return deleteUserAndOwnedAccounts(ctx.deps, { userId: ctx.user.id, email: ctx.user.email });
  }),
});
