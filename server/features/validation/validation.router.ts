// Single real-time validation (spec "Validate Email"). Thin: input in, one service call, shape out.
import { z } from 'zod';
import { router } from '../../trpc/init';
import { accountProcedure, withinAccountRate } from '../../trpc/procedures';
import { checkSingleEmail } from './validation.service';

// The message rules (empty, too long, control characters) live in parseSingleEmail so the REST
// procedure answers with the same words; here only the type is checked.
export const checkEmailInput = z.object({ email: z.string({ error: 'Please enter an email address' }) });

export const validationRouter = router({
  /** Validates one address at the depth the plan allows; takes one credit when it answers. */
  check: accountProcedure.use(withinAccountRate).input(checkEmailInput).mutation(({ ctx, input }) =>
    checkSingleEmail({ db: ctx.deps.db, probe: ctx.deps.probe }, { accountId: ctx.accountId, userId: ctx.user.id, plan: ctx.plan, email: input.email }),
  ),
});
