import { accountRouter } from '../features/account/account.router';
import { apiKeysRouter } from '../features/api-keys/api-keys.router';
import { jobsRouter } from '../features/jobs/jobs.router';
import { schedulesRouter } from '../features/schedules/schedules.router';
import { billingRouter } from '../features/billing/billing.router';
import { reportingRouter } from '../features/reporting/reporting.router';
import { brandingRouter } from '../features/branding/branding.router';
import { teamRouter } from '../features/team/team.router';
import { validationRouter } from '../features/validation/validation.router';
import { webhooksRouter } from '../features/webhooks/webhooks.router';
import { createCallerFactory, router } from './init';

export const appRouter = router({
  account: accountRouter,
  apiKeys: apiKeysRouter,
  jobs: jobsRouter,
  schedules: schedulesRouter,
  team: teamRouter,
  billing: billingRouter,
  reporting: reportingRouter,
  branding: brandingRouter,
  validation: validationRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
