// Mounts the public REST API on /v1: the OpenAPI document, then trpc-to-openapi over v1Router.
// Errors leave as application/problem+json (RFC 9457: type, title, status, detail) carrying the
// app's stable code and message too (RATE_LIMITED, INVALID_API_KEY, INSUFFICIENT_CREDITS …), never
// a stack or the tRPC envelope.
import express, { type Response } from 'express';
import { BULK_BODY_BYTES, SMALL_BODY_BYTES, jsonBodyGuard } from '../http/body-guard';
import { PROBLEM_JSON, problemDetails, sendProblem } from '../http/send-error';
import { createOpenApiExpressMiddleware } from 'trpc-to-openapi';
import type { AppDeps } from '../deps';
import { serverTimingHeader, withTimingScope } from '../lib/server-timing';
import { idempotencyKeys } from './idempotency';
import { openApiDocument } from './openapi';
import { restContextFactory, restStateOf } from './rest-context';
import { v1Router } from './v1.router';
import { MAX_UPLOAD_BYTES } from '../contracts/jobs';
import { MULTIPART, csvMultipart } from './csv-multipart';
import type { RestState } from './rest-context';

/** The routes that take up to 10,000 addresses; every other /v1 body is small. */
const BULK_PATHS = new Set(['/bulk', '/bulk-validate']);

const PUBLIC_CODES: Record<string, string> = {
  BAD_REQUEST: 'BAD_INPUT',
  PARSE_ERROR: 'BAD_INPUT',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
  TOO_MANY_REQUESTS: 'RATE_LIMITED',
  INTERNAL_SERVER_ERROR: 'INTERNAL_ERROR',
};

interface ErrorEnvelope {
  code?: string;
  message?: string;
  data?: { appCode?: string | null; zodIssues?: Array<{ path: string; message: string }> | null; details?: Record<string, unknown> | null };
}

/** The public error body from trpc-to-openapi's envelope. */
export function publicError(envelope: ErrorEnvelope): { code: string; message: string; issues?: Array<{ path: string; message: string }>; [detail: string]: unknown } {
  const issues = envelope.data?.zodIssues ?? undefined;
  const code = envelope.data?.appCode ?? PUBLIC_CODES[envelope.code ?? ''] ?? envelope.code ?? 'ERROR';
  let message = envelope.message ?? 'Request failed';
  if (issues && issues.length > 0) {
    const first = issues[0]!;
    message = first.path ? `${first.path}: ${first.message}` : first.message;
  }
  // The AppError's details (e.g. SCOPE_REQUIRED's scope) ride along, as on every other route.
  const details = envelope.data?.details ?? {};
  return issues && issues.length > 0 ? { ...details, code, message, issues } : { ...details, code, message };
}

/**
 * Rewrites the JSON body of error responses on their way out, as RFC 9457 problem details; a
 * successful answer that asked for another body (CSV results: RestState.rawBody) gets it instead.
 */
function rewriteErrorBodies(res: Response, docsBase: string): void {
  const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => Response;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    const raw = (res.locals.restState as RestState | undefined)?.rawBody;
    if (raw && res.statusCode < 400 && !res.headersSent) {
      res.setHeader('Content-Type', raw.contentType);
      res.setHeader('Content-Length', Buffer.byteLength(raw.text));
      return end(raw.text, ...rest.filter((r) => typeof r === 'function'));
    }
    if (res.statusCode >= 400 && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
      try {
        const body = JSON.stringify(problemDetails(res.statusCode, publicError(JSON.parse(chunk.toString()) as ErrorEnvelope), docsBase));
        res.setHeader('Content-Type', PROBLEM_JSON);
        res.setHeader('Content-Length', Buffer.byteLength(body));
        return end(body, ...rest);
      } catch {
        // not JSON: leave it
      }
    }
    return end(chunk, ...rest);
  }) as Response['end'];
}

export function restApiRouter(deps: AppDeps): express.Router {
  const r = express.Router();
  r.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(openApiDocument(deps.baseURL));
  });

  const handler = createOpenApiExpressMiddleware({
    router: v1Router,
    createContext: restContextFactory(deps),
    maxBodySize: BULK_BODY_BYTES,
    responseMeta: ({ ctx }) => {
      const timing = serverTimingHeader();
      return { headers: { ...(restStateOf(ctx)?.responseHeaders ?? {}), ...(timing ? { 'Server-Timing': timing } : {}) } };
    },
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') console.error(`[v1] ${path ?? '?'}:`, error.cause ?? error);
    },
  });

  // Bounded before anything walks it: 64 KB for single calls, bulk sized for 10,000 addresses.
  r.use(
    jsonBodyGuard({
      limit: (req) => (BULK_PATHS.has(req.path) ? BULK_BODY_BYTES : SMALL_BODY_BYTES),
      // A CSV on /bulk as multipart/form-data is read by its own parser (csv-multipart.ts) under the
      // dashboard's upload limit; every other non-JSON body is a 415.
      streamed: (req, type) => (BULK_PATHS.has(req.path) && req.method === 'POST' && type === MULTIPART ? MAX_UPLOAD_BYTES : null),
      deliver: 'json',
      reply: (res, err) => sendProblem(res, err, deps.baseURL),
    }),
  );
  r.use(csvMultipart(deps));
  // A POST without a body (POST /jobs/{id}/cancel) is an empty JSON object, whatever its Content-Type says.
  r.use((req, _res, next) => {
    if (req.method === 'POST' && req.body === undefined) {
      req.headers['content-type'] = 'application/json';
      req.body = {};
    }
    next();
  });
  r.use(idempotencyKeys(deps));
  r.use((req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    rewriteErrorBodies(res, deps.baseURL);
    // A timing scope per request: the key check, rate limit and credit report in Server-Timing.
    void withTimingScope(() => handler(req, res));
  });
  return r;
}
