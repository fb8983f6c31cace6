// App errors carry a stable code (for clients and tests) and a user-facing message (the spec's
// wording where it has one). They become TRPCErrors with the right HTTP status.
import { TRPCError } from '@trpc/server';

export const ERROR_STATUS = {
  INSUFFICIENT_CREDITS: 'PAYMENT_REQUIRED',
  PLAN_REQUIRED: 'FORBIDDEN',
  NOT_A_MEMBER: 'FORBIDDEN',
  PERMISSION_DENIED: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  BAD_INPUT: 'BAD_REQUEST',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  UPSTREAM_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
} as const;

export type AppErrorCode = keyof typeof ERROR_STATUS;

export function appError(appCode: AppErrorCode, message: string): TRPCError {
  const cause = Object.assign(new Error(message), { appCode });
  return new TRPCError({ code: ERROR_STATUS[appCode], message, cause });
}
