// The one error type services throw: a stable code from server/contracts/error-codes.ts and a
// user-facing message (the spec's wording where it has one). No transport knows about it but the
// adapters that map it: server/trpc/init.ts (tRPC) and server/http/send-error.ts (/v1, Express).
import { ERROR_CODES, type ErrorCode } from '../contracts/error-codes';

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra fields for the client (e.g. a toast title, needed/balance); never secrets. */
  readonly details: Record<string, unknown>;
  /** HTTP status; defaults to the code's status in the table. */
  readonly status: number;

  constructor(code: ErrorCode, message: string, opts: { details?: Record<string, unknown>; status?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = opts.details ?? {};
    this.status = opts.status ?? ERROR_CODES[code].status;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
