// Mounts the public REST API on /v1: the OpenAPI document, then trpc-to-openapi over v1Router.
// Errors leave as application/problem+json (RFC 9457: type, title, status, detail) carrying the
// app's stable code and message too (RATE_LIMITED, INVALID_API_KEY, INSUFFICIENT_CREDITS …), never
// a stack or the tRPC envelope.
import express, { type Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BODY_MESSAGES, BULK_BODY_BYTES, SMALL_BODY_BYTES, decodeJsonBody, jsonBodyGuard, jsonContentTypeRefusal } from '../http/body-guard';
import { setCommonHeaders } from '../http/common-headers';
import { PROBLEM_JSON, bearerChallenge, problemDetails, sendProblem, setRetryAfter } from '../http/send-error';
import { createOpenApiExpressMiddleware } from 'trpc-to-openapi';
import { TRPCError, getTRPCErrorFromUnknown, getTRPCErrorShape } from '@trpc/server';
import type { z } from 'zod';
import { publicResultSchema } from '../contracts/public-api';
import { AppError } from '../lib/app-error';
import { toTRPCError } from '../trpc/init';
import { gatesBeforeBody, v1Gates } from './rest-procedures';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { AppDeps } from '../deps';
import { serverTimingHeader, withTimingScope } from '../lib/server-timing';
import { idempotencyKeys } from './idempotency';
import { openApiDocument, v1RouteScopes } from './openapi';
import { restContextFactory, restStateOf } from './rest-context';
import { v1Router, validateInput, validateOne } from './v1.router';
import { CSV_MULTIPART_LIMIT, MULTIPART, csvMultipart } from './csv-multipart';
import type { RestContext, RestState } from './rest-context';
import type { ApiScope } from '../contracts/api-keys';
import { allowCrossOrigin, answerPreflight } from './cors';

/** The routes that take up to 10,000 addresses; every other /v1 body is small. */
const BULK_PATHS = new Set(['/bulk', '/bulk-validate']);
/** Whether the request goes to a bulk route as the adapter matches routes: any case, one trailing slash. */
const isBulkPath = (req: express.Request) => BULK_PATHS.has(req.path.replace(/\/$/, '').toLowerCase());

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
        const problem = publicError(JSON.parse(chunk.toString()) as ErrorEnvelope);
        const body = JSON.stringify(problemDetails(res.statusCode, problem, docsBase));
        if (res.statusCode === 401 && !res.headersSent) res.setHeader('WWW-Authenticate', bearerChallenge(problem.code));
        setRetryAfter(res, res.statusCode);
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

/**
 * One POST procedure of v1Router answered the way trpc-to-openapi's adapter answers it
 * (node-http/core.mjs: the body spread into the input, the same context,
 * caller, responseMeta headers, error shape, status and onError), without what that adapter also
 * does per request and these procedures never use: a WHATWG Request and AbortSignal built from the
 * IncomingMessage, URL parsing, the route table walk. The body was read by jsonBodyGuard already.
 * The OpenAPI document still comes from the procedure's meta; rest-v1 tests cover both paths.
 */
/**
 * v1Router.validate without tRPC's middleware machinery: the same gates in the same order
 * (rest-procedures.ts v1Gates: key, plan, scope, rate), then the input schema, the same work
 * (validateOne) and the output schema, failing with the TRPCError each tRPC step would throw
 * (an AppError as toTRPCError makes it, a bad input as BAD_REQUEST with the ZodError, a bad output
 * as "Output validation failed", anything else as tRPC's getTRPCErrorFromUnknown makes it).
 */
async function validateDirect(ctx: RestContext, rawInput: unknown) {
  try {
    const caller = await v1Gates.authenticate(ctx);
    v1Gates.plan(caller);
    v1Gates.scope(caller.keyScopes, 'validate');
    await v1Gates.rate(ctx, caller);
    let input: z.infer<typeof validateInput>;
    try {
      input = validateInput.parse(rawInput);
    } catch (cause) {
      throw new TRPCError({ code: 'BAD_REQUEST', cause });
    }
    const data = await validateOne({ ...ctx, ...caller }, input);
    try {
      return publicResultSchema.parse(data);
    } catch (cause) {
      throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });
    }
  } catch (err) {
    if (err instanceof TRPCError) throw err;
    if (err instanceof AppError) throw toTRPCError(err);
    throw getTRPCErrorFromUnknown(err);
  }
}

function internalError(cause: unknown): TRPCError {
  const error = new TRPCError({ message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', cause: cause instanceof Error ? cause : undefined });
  if (cause instanceof Error && cause.stack) error.stack = cause.stack;
  return error;
}

function directPost(
  procedurePath: 'validate',
  createContext: ReturnType<typeof restContextFactory>,
  responseMeta: (o: { ctx?: unknown }) => { headers: Record<string, string> },
  onError: (o: { error: TRPCError; path?: string }) => void,
) {
  const config = v1Router._def._config;
  return async (req: express.Request, res: Response): Promise<void> => {
    const send = (status: number, headers: Record<string, string>, body: unknown) => {
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json');
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      res.end(JSON.stringify(body));
    };
    let input: unknown;
    let ctx: RestContext | undefined;
    try {
      // The Content-Type was checked with the body (jsonBodyGuard, or jsonContentTypeRefusal on the
      // direct listener): any UTF-8 JSON media type the guard accepts is JSON here too.
      input = { ...(req.body as object) };
      ctx = createContext({ req, res });
      const data = await validateDirect(ctx, input);
      send(200, responseMeta({ ctx }).headers, data);
    } catch (cause) {
      // As the adapter's getErrorFromUnknown: anything but a TRPCError is an internal error.
      const error = cause instanceof Error && cause.name === 'TRPCError' ? (cause as TRPCError) : internalError(cause);
      onError({ error, path: procedurePath });
      const shape = getTRPCErrorShape({ config, error, type: 'mutation', path: procedurePath, input, ctx });
      const isInputValidationError = error.code === 'BAD_REQUEST' && error.cause instanceof Error && error.cause.name === 'ZodError';
      const body = {
        ...shape,
        message: isInputValidationError ? 'Input validation failed' : (shape?.message ?? error.message ?? 'An error occurred'),
        code: error.code,
        issues: isInputValidationError ? (error.cause as unknown as { issues: unknown }).issues : undefined,
      };
      send(getHTTPStatusCodeFromError(error), responseMeta({ ctx }).headers, body);
    }
  };
}

/** The headers a /v1 answer adds: what the gates set (rate limit, Retry-After) and Server-Timing. */
function responseMeta({ ctx }: { ctx?: unknown }): { headers: Record<string, string> } {
  const timing = serverTimingHeader();
  return { headers: { ...(restStateOf(ctx)?.responseHeaders ?? {}), ...(timing ? { 'Server-Timing': timing } : {}) } };
}

function onError({ error, path }: { error: TRPCError; path?: string }): void {
  if (error.code === 'INTERNAL_SERVER_ERROR') console.error(`[v1] ${path ?? '?'}:`, error.cause ?? error);
}

/** What every /v1 answer gets once its body was read: no caching, errors as problem+json, a timing scope. */
function answerV1(req: express.Request, res: Response, docsBase: string, serve: (req: express.Request, res: Response) => Promise<void>): void {
  res.setHeader('Cache-Control', 'no-store');
  rewriteErrorBodies(res, docsBase);
  // A timing scope per request: the key check, rate limit and credit report in Server-Timing.
  // serve answers its own errors; anything that still escapes is a 500 here, so the request (and an
  // Idempotency-Key it claimed, which is settled when the answer ends) never hangs unanswered.
  void withTimingScope(() => serve(req, res)).catch((err: unknown) => {
    if (!res.headersSent) sendProblem(res, err, docsBase);
    else res.end();
  });
}

/** A /v1 path template as the adapter matches it: any case, one trailing slash. */
const templatePattern = (path: string) => new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i');

/** The methods each /v1 path template takes (from the router's OpenAPI meta), HEAD with every GET. */
function routeMethods(): Array<{ path: string; pattern: RegExp; methods: string[] }> {
  const byPath = new Map<string, string[]>();
  for (const r of v1RouteScopes()) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.method.toUpperCase()]);
  byPath.set('/openapi.json', ['GET']);
  return [...byPath].map(([path, methods]) => ({ path, pattern: templatePattern(path), methods: methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])) }));
}

/**
 * The POSTs whose gates run before their body (gatesBeforeBody), with the scope each needs: the bulk
 * routes (big bodies), and any POST carrying an Idempotency-Key (claiming it writes a row, so a
 * request the rate refuses must be refused first). Other POSTs meet the same gates in the procedure.
 */
function postRouteOf(): (req: express.Request) => { scope: ApiScope; csvUpload: boolean } | null {
  const routes = v1RouteScopes()
    .filter((r) => r.method === 'POST' && r.scope)
    .map((r) => ({ pattern: templatePattern(r.path), scope: r.scope!, csvUpload: BULK_PATHS.has(r.path) }));
  return (req) => {
    if (!isBulkPath(req) && req.headers['idempotency-key'] === undefined) return null;
    return routes.find((r) => r.pattern.test(req.path)) ?? null;
  };
}

/**
 * HEAD is GET without a body (RFC 9110 §9.3.2): the adapter, which knows no HEAD, is handed a GET and
 * Node leaves the body out (the response was made for a HEAD request). A path that exists but not
 * with this method is a 405 with Allow, before any body is read; an unknown path goes on (404).
 */
function methodGate(docsBase: string): express.RequestHandler {
  const routes = routeMethods();
  return (req, res, next) => {
    const route = routes.find((r) => r.pattern.test(req.path));
    if (!route || route.methods.includes(req.method)) {
      if (req.method === 'HEAD') req.method = 'GET';
      return next();
    }
    res.setHeader('Allow', route.methods.join(', '));
    sendProblem(res, new AppError('METHOD_NOT_ALLOWED', `${req.path.replace(/\/$/, '')} takes ${route.methods[0]}, not ${req.method}.`), docsBase);
  };
}

export function restApiRouter(deps: AppDeps): express.Router {
  const r = express.Router();
  const routes = routeMethods();
  // Callable from any origin with a key (bearer only, no cookies): preflights end here, and so does
  // a plain OPTIONS on a path that exists (with Allow).
  r.use((req, res, next) => {
    const allow = req.method === 'OPTIONS' ? (routes.find((route) => route.pattern.test(req.path))?.methods ?? null) : null;
    if (!answerPreflight(req, res, allow)) {
      allowCrossOrigin(res);
      next();
    }
  });
  r.use(methodGate(deps.baseURL));
  r.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(openApiDocument(deps.baseURL));
  });

  const createContext = restContextFactory(deps);
  const handler = createOpenApiExpressMiddleware({ router: v1Router, createContext, maxBodySize: BULK_BODY_BYTES, responseMeta, onError });
  // The hottest route skips the adapter's per-request work it does not need (see directPost).
  const validate = directPost('validate', createContext, responseMeta, onError);

  // The key, plan, scope and rate of a bulk POST are checked before its body is read, and those of a
  // POST with an Idempotency-Key before the key is claimed (postRouteOf).
  r.use(gatesBeforeBody(deps, postRouteOf()));
  // Bounded before anything walks it: 64 KB for single calls, bulk sized for 10,000 addresses.
  r.use(
    jsonBodyGuard({
      limit: (req) => (isBulkPath(req) ? BULK_BODY_BYTES : SMALL_BODY_BYTES),
      // A CSV on /bulk as multipart/form-data is read by its own parser (csv-multipart.ts) under the
      // dashboard's upload limit; every other non-JSON body is a 415.
      streamed: (req, type) => (isBulkPath(req) && req.method === 'POST' && type === MULTIPART ? CSV_MULTIPART_LIMIT : null),
      deliver: 'json',
      reply: (res, err) => sendProblem(res, err, deps.baseURL),
    }),
  );
  r.use(csvMultipart(deps));
  // Every POST body here was read and checked by the guard (UTF-8 JSON under any media type it
  // accepts: application/json in any case, a +json type; or the CSV turned into JSON) or is absent
  // (POST /jobs/{id}/cancel: an empty JSON object, whatever its Content-Type says). The adapter
  // knows only a Content-Type starting with the lower-case "application/json", so that is what it sees.
  r.use((req, _res, next) => {
    if (req.method === 'POST') {
      req.headers['content-type'] = 'application/json';
      if (req.body === undefined) req.body = {};
    }
    next();
  });
  r.use(idempotencyKeys(deps));
  r.use((req, res) => answerV1(req, res, deps.baseURL, req.method === 'POST' && req.path === '/validate' ? validate : handler));
  return r;
}

/**
 * POST /v1/validate served straight from node:http, ahead of Express's router and body parser:
 * the busiest call of the API spends nothing on the route table walk, the middleware chain and
 * body-parser's machinery. It takes only the ordinary request — exactly `POST /v1/validate`,
 * UTF-8 JSON, a Content-Length of 1 byte to 64 KB, no Transfer-Encoding, Content-Encoding or
 * Idempotency-Key — and returns false for anything else, touching nothing, so Express serves every
 * other request (a refusal included) as before. What it takes it answers with the app's own steps
 * in the app's order: Express's request/response set-up (app.handle: prototypes, locals, so req.ip
 * and the error senders are Express's), the common headers, the JSON body guard's checks (UTF-8,
 * depth, JSON: decodeJsonBody, replied with sendProblem as the guard does), then the /v1 answer
 * (answerV1: Cache-Control, problem+json, timing scope) through the same direct route.
 * tests/integration/rest-v1.lean-validate.test.ts compares it with the Express path header by header.
 */
export function directValidateListener(deps: AppDeps, app: express.Express): (req: IncomingMessage, res: ServerResponse) => boolean {
  const validate = directPost('validate', restContextFactory(deps), responseMeta, onError);
  const poweredBy = app.enabled('x-powered-by');
  const https = new URL(deps.baseURL).protocol === 'https:';
  const refuse = (res: Response, err: AppError) => sendProblem(res, err, deps.baseURL);
  return (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/validate') return false;
    const h = req.headers;
    if (h['idempotency-key'] !== undefined || h['transfer-encoding'] !== undefined || h['content-encoding'] !== undefined) return false;
    const declared = h['content-length'];
    if (declared === undefined || !/^[1-9][0-9]{0,5}$/.test(declared)) return false;
    const length = Number(declared);
    if (length > SMALL_BODY_BYTES || jsonContentTypeRefusal(h['content-type']) !== null) return false;

    // As Express's app.handle does for every request.
    if (poweredBy) res.setHeader('X-Powered-By', 'Express');
    const xreq = req as express.Request;
    const xres = res as Response;
    xreq.res = xres;
    xres.req = xreq;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    if (!xres.locals) xres.locals = Object.create(null) as Record<string, unknown>;
    setCommonHeaders(req, res, { https });
    allowCrossOrigin(res);

    // As jsonBodyGuard: the body read in full (the HTTP parser stops at Content-Length; a body cut
    // short is unreadable), then its UTF-8, depth and JSON checks.
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const unreadable = () => {
      if (settled) return;
      settled = true;
      refuse(xres, new AppError('BAD_INPUT', BODY_MESSAGES.unreadable));
    };
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    });
    req.on('error', unreadable);
    req.on('aborted', unreadable);
    req.on('end', () => {
      if (settled) return;
      if (received !== length) return unreadable();
      settled = true;
      const body = decodeJsonBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
      if (body instanceof AppError) return refuse(xres, body);
      xreq.body = body.value;
      answerV1(xreq, xres, deps.baseURL, validate);
    });
    return true;
  };
}
