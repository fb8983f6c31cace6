// AppError → HTTP/JSON: the one mapping for the Express routes (upload, export) and /v1's own
// middleware. Anything that is not an AppError is logged and answers 500 without details.
import type { Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { ERROR_CODES, type ErrorCode } from '../contracts/error-codes';
import { AppError, retryAfterFor } from '../lib/app-error';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  [detail: string]: unknown;
}

/** The status and body an error answers with. */
export function httpError(err: unknown, fallbackMessage = 'Something went wrong on our side. Please try again.'): { status: number; body: ErrorBody } {
  if (err instanceof AppError) return { status: err.status, body: { ...err.details, code: err.code, message: err.message } };
  return { status: ERROR_CODES.INTERNAL_ERROR.status, body: { code: 'INTERNAL_ERROR', message: fallbackMessage } };
}

/** Retry-After on an error answer that may be sent again later (a 503, a 409 for a request still running), unless set already. */
export function setRetryAfter(res: Pick<Response, 'getHeader' | 'setHeader' | 'headersSent'>, status: number, err?: unknown): void {
  const seconds = retryAfterFor(status, err);
  if (seconds !== null && !res.headersSent && res.getHeader('Retry-After') === undefined) res.setHeader('Retry-After', String(seconds));
}

/** Sends `{ error: { code, message, …details } }` (the dashboard routes' envelope). */
export function sendError(res: Response, err: unknown, fallbackMessage?: string): void {
  if (!(err instanceof AppError)) console.error('[http] unexpected error:', err);
  const { status, body } = httpError(err, fallbackMessage);
  setRetryAfter(res, status, err);
  res.status(status).json({ error: body });
}

/**
 * RFC 9457 problem details for the public API: type, title, status, detail, plus the app's `code`
 * and `message` (kept so clients written against the earlier {code, message} bodies still work).
 */
export function problemDetails(status: number, body: { code: string; message: string; [k: string]: unknown }, docsBase: string): Record<string, unknown> {
  return {
    type: `${docsBase}/documentation#error-${body.code}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: body.message,
    ...body,
  };
}

export const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

/**
 * The challenge a public API 401 carries (RFC 9110 §11.6.1 requires one; RFC 6750 §3 its form): the
 * Bearer scheme, with error="invalid_token" when a key was sent but is malformed, unknown or revoked.
 * Some HTTP clients cannot read a 401 without it (Android's HttpURLConnection).
 */
export function bearerChallenge(code: string): string {
  return code === 'MISSING_API_KEY' ? 'Bearer realm="Mailvet API"' : 'Bearer realm="Mailvet API", error="invalid_token"';
}

/** Sends an error as application/problem+json. */
export function sendProblem(res: Response, err: unknown, docsBase: string): void {
  if (!(err instanceof AppError)) console.error('[http] unexpected error:', err);
  const { status, body } = httpError(err);
  if (status === 401) res.setHeader('WWW-Authenticate', bearerChallenge(body.code));
  setRetryAfter(res, status, err);
  res.status(status).type(PROBLEM_JSON).send(JSON.stringify(problemDetails(status, body, docsBase)));
}
