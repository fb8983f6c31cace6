// Analytics (Pro and up) and advanced reporting (Business and up): the plan rules live in the
// service, so the router and the CSV route cannot disagree.
import { router } from '../../trpc/init';
import { accountProcedure, requirePlan } from '../../trpc/procedures';
import { analyticsReport, reportInput } from './reporting.service';

export const reportingRouter = router({
  analytics: accountProcedure
    .use(requirePlan('analytics'))
    .input(reportInput)
    .query(({ ctx, input }) => analyticsReport(ctx.deps.db, { accountId: ctx.accountId, plan: ctx.plan, input })),
});
