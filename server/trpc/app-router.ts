import { accountRouter } from '../features/account/account.router';
import { createCallerFactory, router } from './init';

export const appRouter = router({
  account: accountRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
