import { accountRouter } from '../features/account/account.router';
import { jobsRouter } from '../features/jobs/jobs.router';
import { schedulesRouter } from '../features/schedules/schedules.router';
import { createCallerFactory, router } from './init';

export const appRouter = router({
  account: accountRouter,
  jobs: jobsRouter,
  schedules: schedulesRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
