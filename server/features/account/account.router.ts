import { accountProcedure } from '../../trpc/procedures';
import { router } from '../../trpc/init';

export const accountRouter = router({
  /** Who is signed in, in which account, with which role and plan. */
  me: accountProcedure.query(async ({ ctx }) => {
    const account = await ctx.deps.db
      .selectFrom('account')
      .select(['plan', 'credits_balance', 'monthly_validations_quota', 'monthly_validations_used', 'team_member_limit'])
      .where('id', '=', ctx.accountId)
      .executeTakeFirstOrThrow();
    return {
      user: { id: ctx.user.id, email: ctx.user.email, name: ctx.user.name },
      accountId: ctx.accountId,
      role: ctx.role,
      ...account,
    };
  }),
});
