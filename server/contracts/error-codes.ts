// The app's stable error codes: one table, read by the server (which status each code answers on
// every transport), by the SPA (which code means what) and by the API documentation page.
// Pure data: shared with the browser.

export interface ErrorCodeInfo {
  /** HTTP status on /v1 and the Express routes (tRPC maps the same status to its own code). */
  status: number;
  /** What the code means, for the API documentation. */
  description: string;
}

export const ERROR_CODES = {
  BAD_INPUT: { status: 400, description: 'The request is malformed or a field is invalid; the message says which.' },
  UNAUTHORIZED: { status: 401, description: 'No valid session or API key was sent.' },
  MISSING_API_KEY: { status: 401, description: 'No API key was sent (Authorization: Bearer <key>).' },
  INVALID_API_KEY: { status: 401, description: 'The API key is missing, malformed or unknown.' },
  KEY_REVOKED: { status: 401, description: 'The API key was revoked.' },
  INSUFFICIENT_CREDITS: { status: 402, description: 'The account does not have enough credits for the request.' },
  PAYMENT_REQUIRED: { status: 402, description: 'The account is suspended for an unpaid subscription; data stays readable, new work resumes once paid.' },
  PLAN_REQUIRED: { status: 403, description: "The account's plan does not include this feature; on /v1 also when the person who created the API key has no seat in the team on the current plan (the message says so)." },
  SCOPE_REQUIRED: { status: 403, description: "The API key's scopes do not include this call; the body's scope field names the one needed." },
  NOT_A_MEMBER: { status: 403, description: 'The signed-in user belongs to no account.' },
  PERMISSION_DENIED: { status: 403, description: "The caller's role does not allow this action." },
  NOT_FOUND: { status: 404, description: 'The resource does not exist or belongs to another account.' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path exists but does not take this HTTP method; the Allow header lists the ones it takes.' },
  CONFLICT: { status: 409, description: 'The request conflicts with the current state (e.g. results of an unfinished job).' },
  UNPROCESSABLE: { status: 422, description: 'The request cannot be processed as sent (e.g. an Idempotency-Key reused with a different body).' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request body or file is larger than the route accepts.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The body is not UTF-8 JSON (or CSV where a file is expected).' },
  RATE_LIMITED: { status: 429, description: "Too many requests for the plan's rate; retry after the Retry-After header's seconds." },
  NOT_IMPLEMENTED: { status: 501, description: 'The request uses an HTTP feature this server does not implement (a Transfer-Encoding other than chunked); the message says which.' },
  UPSTREAM_UNAVAILABLE: { status: 503, description: 'A service Mailvet depends on is unavailable; retry shortly.' },
  INTERNAL_ERROR: { status: 500, description: 'An unexpected error on our side; nothing was charged.' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** The app code a tRPC client error carries (`error.data.appCode`), or null. */
export function appCodeOf(error: unknown): ErrorCode | null {
  const code = (error as { data?: { appCode?: unknown } } | null)?.data?.appCode;
  return isErrorCode(code) ? code : null;
}
