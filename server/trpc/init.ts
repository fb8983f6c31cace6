import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ApiScope } from '../contracts/api-keys';
import { ZodError } from 'zod';
import { AppError } from '../lib/app-error';
import { holdsNul, NUL_MESSAGE } from '../lib/nul';
import type { Context } from './context';

type TRPCErrorCode = ConstructorParameters<typeof TRPCError>[0]['code'];

/** The tRPC code for an HTTP status (tRPC and trpc-to-openapi derive the status back from it). */
const TRPC_CODE_BY_STATUS: Record<number, TRPCErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  501: 'NOT_IMPLEMENTED',
  503: 'SERVICE_UNAVAILABLE',
};

/** AppError → TRPCError: the one place tRPC learns about the app's errors. */
export function toTRPCError(err: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_BY_STATUS[err.status] ?? 'INTERNAL_SERVER_ERROR', message: err.message, cause: err });
}

/** trpc-to-openapi's meta, plus the API-key scope a /v1 procedure requires (set by apiKeyProcedure(scope)). */
export type ProcedureMeta = OpenApiMeta & { apiScope?: ApiScope };

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    isDev: false, // never send stack traces to clients
    errorFormatter({ shape, error }) {
      const zodIssues = error.cause instanceof ZodError ? error.cause.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) : null;
      if (error.code === 'INTERNAL_SERVER_ERROR') console.error('[trpc] internal error:', error.cause ?? error);
      const appError = error.cause instanceof AppError ? error.cause : null;
      // An input the schema refused: its first rule's own sentence (the SPA shows this message), not
      // ZodError's message, a JSON dump of every issue with its codes and the patterns we check with.
      const message = error.code === 'INTERNAL_SERVER_ERROR' ? 'Something went wrong on our side. Please try again.' : (zodIssues?.[0]?.message ?? shape.message);
      return {
        ...shape,
        message,
        data: { ...shape.data, stack: undefined, zodIssues, appCode: appError?.code ?? null, details: appError?.details ?? null },
      };
    },
  });

/** Every procedure starts here: an AppError thrown anywhere below leaves with its status and code. */
const mapAppErrors = t.middleware(async function mapAppErrors({ next }) {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError && result.error.code === 'INTERNAL_SERVER_ERROR') {
    throw toTRPCError(result.error.cause);
  }
  return result;
});

/**
 * PostgreSQL cannot store or compare U+0000 in text: an id or filter holding one failed the query
 * (a 500, on public procedures too). No valid input holds one, so every procedure refuses it first.
 */
const refuseNulInput = t.middleware(async function refuseNulInput({ next, getRawInput }) {
  if (holdsNul(await getRawInput())) throw new AppError('BAD_INPUT', NUL_MESSAGE);
  return next();
});

export const router = t.router;
export const middleware = t.middleware;
export const publicProcedure = t.procedure.use(mapAppErrors).use(refuseNulInput);
export const createCallerFactory = t.createCallerFactory;
