// A refusal from a service, in transport-neutral form (the router turns it into a TRPCError,
// the Express route into a status code, the CLI into a message).
import type { AppErrorCode } from '../../lib/errors';

export class ServiceError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const HTTP_STATUS: Record<AppErrorCode, number> = {
  INSUFFICIENT_CREDITS: 402,
  PLAN_REQUIRED: 403,
  NOT_A_MEMBER: 403,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  BAD_INPUT: 400,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  UPSTREAM_UNAVAILABLE: 503,
};
