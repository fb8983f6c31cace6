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
  /** Seconds the client should wait before sending the same request again (the Retry-After header), when it may. */
  readonly retryAfterSeconds: number | null;

  constructor(code: ErrorCode, message: string, opts: { details?: Record<string, unknown>; status?: number; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = opts.details ?? {};
    this.status = opts.status ?? ERROR_CODES[code].status;
    this.retryAfterSeconds = opts.retryAfterSeconds ?? (typeof this.details.retryAfterSeconds === 'number' ? this.details.retryAfterSeconds : null);
  }
}

/** A 503 (a service we depend on is down) says when to try again: RFC 9110 §15.6.4 and §10.2.3. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The Retry-After (seconds) an answer with this status and error carries, or null for none. */
export function retryAfterFor(status: number, err?: unknown): number | null {
  if (err instanceof AppError && err.retryAfterSeconds !== null) return err.retryAfterSeconds;
  return status === 503 ? UNAVAILABLE_RETRY_AFTER_SECONDS : null;
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
