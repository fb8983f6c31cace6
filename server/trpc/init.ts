import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import type { Context } from './context';

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
  .create({
    isDev: false, // never send stack traces to clients
    errorFormatter({ shape, error }) {
      const zodIssues = error.cause instanceof ZodError ? error.cause.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) : null;
      if (error.code === 'INTERNAL_SERVER_ERROR') console.error('[trpc] internal error:', error.cause ?? error);
      return {
        ...shape,
        message: error.code === 'INTERNAL_SERVER_ERROR' ? 'Something went wrong on our side. Please try again.' : shape.message,
        data: { ...shape.data, stack: undefined, zodIssues, appCode: (error.cause as { appCode?: string } | undefined)?.appCode ?? null },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
export { TRPCError };
