// Express composition only: which handler serves which path. No business logic here.
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { toNodeHandler } from 'better-auth/node';
import express, { type ErrorRequestHandler, type Request, type Response } from 'express';
import type { RequestListener } from 'node:http';
import { AppError, UNAVAILABLE_RETRY_AFTER_SECONDS, retryAfterFor } from '../lib/app-error';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { BULK_BODY_BYTES, CSV_BASE64_BODY_BYTES, SMALL_BODY_BYTES, jsonBodyGuard, jsonQueryGuard } from './body-guard';
import { TRPC_MAX_BATCH_CALLS } from '../contracts/transport';
import { isPagePath } from '../contracts/pages';
import type { ErrorCode } from '../contracts/error-codes';
import { httpError, sendError, sendProblem } from './send-error';
import { setCommonHeaders } from './common-headers';
import { hostGuard, hostMissing, isValidHost, toOriginForm } from './host-guard';
import fs from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../deps';
import { appRouter } from '../trpc/app-router';
import { contextFactory } from '../trpc/context';
import { toTRPCError } from '../trpc/init';
import { billingHttpRouter } from '../features/billing/billing.http';
import { databaseAnswers } from '../features/health/health.service';
import { decideCurrency } from '../features/billing/currency';
import { reportingHttpRouter } from '../features/reporting/reporting.http';
import { brandingHttpRouter } from '../features/branding/branding.http';
import { jobsHttpRouter } from '../features/jobs/jobs.http';
import { directValidateListener, restApiRouter } from '../rest/mount';
import { authAllowlistGuard } from './auth-guard';
import { sameOriginGuard } from './origin-guard';
import { transferCodingGuard } from './transfer-coding';
import { devOutboxRouter, isThisMachine } from './dev-outbox';

/** Dashboard calls that carry a whole address list or CSV; every other tRPC body is small. */
const LARGE_TRPC_PROCEDURES = new Set(['schedules.create', 'schedules.parseCsv']);

function trpcBodyLimit(req: Request): number {
  let path: string;
  try {
    path = decodeURIComponent(req.path.replace(/^\//, ''));
  } catch {
    return SMALL_BODY_BYTES; // not valid URL-encoding (it threw: a 500); tRPC refuses the path with a 400
  }
  const procedures = path.split(',');
  if (procedures.includes('schedules.parseCsv')) return CSV_BASE64_BODY_BYTES;
  return procedures.some((p) => LARGE_TRPC_PROCEDURES.has(p)) ? BULK_BODY_BYTES : SMALL_BODY_BYTES;
}

/** A refused body in tRPC's error envelope, so the dashboard's client shows the message. */
function replyTrpc(res: Response, err: AppError): void {
  const { status, body } = httpError(err);
  res.status(status).json({ error: { message: body.message, code: -32600, data: { code: toTRPCError(err).code, httpStatus: status, appCode: err.code } } });
}

/**
 * tRPC serves GET (queries, subscriptions), POST (mutations) and HEAD; anything else is a 405 here.
 * Left to the adapter, TRACE was a 500 (it builds a WHATWG Request, which refuses that method) and
 * OPTIONS, PUT or DELETE without a body a 415 "Missing content-type header".
 */
const TRPC_METHODS = new Set(['GET', 'HEAD', 'POST']);
function trpcMethodGate(req: Request, res: Response, next: () => void): void {
  // HEAD is GET without a body (RFC 9110 §9.3.2): the adapter answered it 204 with no headers;
  // handed a GET, it answers as GET and Node leaves the body out. A subscription (the live job
  // stream) never ends by itself, and a HEAD response sends its headers only when it ends: it ends
  // at the first byte of body, so a HEAD gets the stream's headers and holds nothing open.
  if (req.method === 'HEAD') {
    req.method = 'GET';
    res.write = ((..._args: unknown[]) => {
      if (!res.writableEnded) {
        res.end();
        // tRPC stops a procedure only when its client leaves before the answer ends; this one wants
        // nothing more, so it is told so: a subscription's generator ends and frees its stream slot.
        req.emit('aborted');
      }
      return true;
    }) as Response['write'];
  }
  if (TRPC_METHODS.has(req.method)) {
    // tRPC's 405 says a query takes `Allow: GET`; HEAD (above) is served wherever GET is.
    const setHeader = res.setHeader.bind(res);
    res.setHeader = ((name: string, value: number | string | readonly string[]) =>
      setHeader(name, name.toLowerCase() === 'allow' && value === 'GET' ? 'GET, HEAD' : value)) as Response['setHeader'];
    return next();
  }
  res.setHeader('Allow', 'GET, HEAD, POST');
  replyTrpc(res, new AppError('METHOD_NOT_ALLOWED', `The dashboard API takes GET and POST, not ${req.method}.`));
}

/** The app code of a 4xx Express or serve-static raises itself; any other 4xx is BAD_INPUT. */
const EXPRESS_ERROR_CODES: Partial<Record<number, ErrorCode>> = { 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };

/** The dashboard routes' envelope for a path nothing serves. */
function notFound(_req: Request, res: Response): void {
  sendError(res, new AppError('NOT_FOUND', 'Not found'));
}

/**
 * Paths that are never a page of the SPA: the API surfaces, the build's files, health and dev tools.
 * Their routers take one spelling; any other spelling of them (a doubled slash, an encoded slash or
 * letter: //v1/account, /api%2ftrpc/…, /%61ssets/app.js) falls through to here and is a 404 — the
 * SPA page in its place answered an API call or a script with 200 and HTML.
 */
const NOT_PAGES = /^\/(?:api|v1|assets|healthz|dev)(?:\/|$)/;
function decodeSafe(urlPath: string): string {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    return urlPath; // not valid percent-encoding: judged as sent
  }
}
function spelledAsNonPage(urlPath: string): boolean {
  return NOT_PAGES.test(decodeSafe(urlPath).replace(/\/{2,}/g, '/').toLowerCase());
}

function replyPlain(res: Response, err: AppError): void {
  const { status, body } = httpError(err);
  res.status(status).json(body);
}

/**
 * A refusal made before any router (a Transfer-Encoding we do not implement) in the envelope of the
 * surface its path belongs to: problem+json on /v1, tRPC's on /api/trpc, better-auth's {code, message}
 * on /api/auth, the dashboard's elsewhere (paths matched in any case, as Express mounts them).
 */
function replyOnSurface(docsBase: string) {
  return (req: Request, res: Response, err: AppError): void => {
    if (/^\/v1(?:\/|$)/i.test(req.path)) return sendProblem(res, err, docsBase);
    if (/^\/api\/trpc(?:\/|$)/i.test(req.path)) return replyTrpc(res, err);
    if (/^\/api\/auth(?:\/|$)/i.test(req.path)) return replyPlain(res, err);
    sendError(res, err);
  };
}

/**
 * The SPA page's Content-Security-Policy. Scripts: the app's own build files and Razorpay's (Billing
 * loads checkout.razorpay.com's checkout.js on demand, which loads more from cdn.razorpay.com, frames
 * api.razorpay.com and reports to lumberjack.razorpay.com); styles may be inline (React's
 * style props, the checkout's); images from the app (brand logos), data: and blob: URLs (the QR code)
 * and Razorpay only: markup slipped into a page cannot send what follows it to another host as an
 * image's address.
 * So a string that ever slipped into the page as markup (an address, a job or brand name) runs no
 * script, loads no plugin, moves no <base>, posts no form elsewhere, and no other site frames the app
 * (frame-ancestors: X-Frame-Options DENY's successor).
 */
export const SPA_CSP = [
  "default-src 'self'",
  "script-src 'self' https://*.razorpay.com",
  "style-src 'self' 'unsafe-inline' https://*.razorpay.com",
  "img-src 'self' data: blob: https://*.razorpay.com",
  "font-src 'self' data: https://*.razorpay.com",
  "connect-src 'self' https://*.razorpay.com",
  'frame-src https://*.razorpay.com',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self' https://*.razorpay.com",
  "frame-ancestors 'none'",
].join('; ');

/** The SPA's page (every route of it): its policy, and never kept past a visit. */
function sendPage(res: Response, spaDir: string): void {
  res.setHeader('Content-Security-Policy', SPA_CSP);
  res.setHeader('Cache-Control', 'no-cache');
  res.sendFile(path.join(spaDir, 'index.html'));
}

/**
 * The SPA's page at a path that is none of its pages: the same page (it shows 'Oops! Page not found'
 * with its link home), with status 404, so a link checker or a search engine sees the dead link as one.
 */
function sendMissingPage(res: Response, spaDir: string, next: (err: unknown) => void): void {
  fs.readFile(path.join(spaDir, 'index.html'), (err, html) => {
    if (err) return next(err);
    res.setHeader('Content-Security-Policy', SPA_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.status(404).type('html').send(html);
  });
}

export interface HttpOptions {
  /** Built SPA (vite build output); omitted in API-only tests. */
  spaDir?: string;
  /** Extra routers mounted before the SPA fallback (REST /v1 etc.). */
  extra?: (app: express.Express) => void;
}

export function createHttpApp(deps: AppDeps, o: HttpOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  if (deps.env.TRUST_PROXY) app.set('trust proxy', deps.env.TRUST_PROXY);
  const https = new URL(deps.baseURL).protocol === 'https:';
  app.use((req, res, next) => {
    setCommonHeaders(req, res, { https });
    next();
  });
  app.use(hostGuard(deps.baseURL));
  // A transfer coding other than chunked (gzip, chunked …): 501 before any route reads the body.
  app.use(transferCodingGuard(replyOnSurface(deps.baseURL)));

  // Healthy = this process can reach its database; otherwise 503, so a balancer routes around it.
  app.get('/healthz', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (await databaseAnswers(deps.db)) res.json({ ok: true });
    else res.status(503).setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS)).json({ ok: false, database: 'unreachable' });
  });
  // The public REST API + /v1/openapi.json first: no other router below serves /v1, and the API's
  // requests (the busiest) then walk no other router's route table.
  app.use('/v1', restApiRouter(deps));
  // What /api answers (a session, a signed-in caller's data, a webhook secret shown once, a CSV) is
  // nobody's to keep: no browser cache on a shared computer, no proxy. A route that may be cached
  // (a brand's public logo) says so itself.
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // better-auth reads its own bodies, so it gets them through the body guard first (size,
  // charset, UTF-8, depth: nothing unbounded reaches it), then the allowlist: only the routes in
  // server/auth/auth-routes.ts reach it, with Express's client IP.
  app.all('/api/auth/{*any}', jsonBodyGuard({ limit: () => SMALL_BODY_BYTES, deliver: 'text', reply: replyPlain }), authAllowlistGuard('/api/auth'), toNodeHandler(deps.auth));
  // Every other cookie-authenticated change comes from the app's own pages (server/http/origin-guard.ts).
  app.use('/api', sameOriginGuard({ baseURL: deps.baseURL, production: deps.env.NODE_ENV === 'production' }));
  // No dashboard route takes OPTIONS (same-origin: no preflight); Express answered it itself with a
  // text/plain 200 listing the route's methods. It is the JSON 404 any other method they do not take
  // gets (tRPC's gate below answers its own: 405 with Allow).
  app.use('/api', (req, res, next) => (req.method === 'OPTIONS' && !/^\/trpc(?:\/|$)/i.test(req.path) ? notFound(req, res) : next()));
  // Razorpay webhooks read their raw body (the signature covers the exact bytes): before any parser.
  app.use(billingHttpRouter(deps)); // POST /api/billing/razorpay/webhook (raw, ≤ 256 KB), GET /api/billing/receipts/:id
  app.use(brandingHttpRouter(deps)); // POST /api/branding/logo (raw PNG/SVG ≤ 256 KB), GET logo, GET /api/public-branding (by Host)
  app.use(
    '/api/trpc',
    trpcMethodGate,
    jsonQueryGuard('input', replyTrpc),
    jsonBodyGuard({ limit: trpcBodyLimit, deliver: 'text', reply: replyTrpc }),
    // A batch runs every call it names: bounded, so one request (even an anonymous GET of public
    // calls) cannot ask for hundreds of calls' work. The SPA's batch link splits at the same size.
    createExpressMiddleware({
      router: appRouter,
      createContext: contextFactory(deps),
      maxBodySize: CSV_BASE64_BODY_BYTES,
      maxBatchSize: TRPC_MAX_BATCH_CALLS,
      // A rate refusal (the dashboard's budget) says when to retry in the header too, as the upload door and /v1 do.
      responseMeta: ({ errors }) => {
        const wait = errors.map((e) => retryAfterFor(getHTTPStatusCodeFromError(e), e.cause)).find((n) => n !== null && n > 0);
        return wait ? { headers: { 'Retry-After': String(wait) } } : {};
      },
    }),
  );
  app.use(jobsHttpRouter(deps)); // POST /api/jobs/upload (raw CSV ≤ 10 MB), GET /api/jobs/:id/export
  app.use(reportingHttpRouter(deps)); // GET /api/reports/analytics.csv (Business and up)
  app.get('/api/public-config', async (req, res) => {
    // The pricing currency is decided here from the caller's IP (never by the browser).
    const { currency } = await decideCurrency(deps, { ip: req.ip ?? null });
    res.setHeader('Cache-Control', 'private, no-store');
    // The tests' geolocation stand-in (a developer tool): for this machine only, as the dev outbox.
    res.json({ currency, ...(deps.env.DEV_TOOLS && isThisMachine(req) ? { geoUrl: deps.env.GEO_URL } : {}) });
  });
  if (deps.env.DEV_TOOLS) app.use(devOutboxRouter(deps.db)); // never in production (env.ts refuses DEV_TOOLS there)
  o.extra?.(app);
  app.use('/api', notFound);

  if (o.spaDir && fs.existsSync(path.join(o.spaDir, 'index.html'))) {
    const spaDir = o.spaDir;
    // index.html asked by name is the page too: its policy, and fetched again at each visit (a tab
    // kept it an hour after a deploy, then asked for build files that are gone).
    app.get('/index.html', (_req, res) => sendPage(res, spaDir));
    app.use(express.static(spaDir, { index: false, maxAge: '1h' }));
    // A build file that is not there (a tab still on the previous deploy asking for its chunk) is a
    // 404: the SPA page in its place made the browser fail on HTML served as a script.
    app.use('/assets', notFound);
    app.get('/{*splat}', (req, res, next) => {
      if (spelledAsNonPage(req.path)) {
        if (/^\/+v1(?:\/|$)/i.test(decodeSafe(req.path))) return sendProblem(res, new AppError('NOT_FOUND', 'Not found'), deps.baseURL);
        return notFound(req, res);
      }
      if (!isPagePath(req.path)) return sendMissingPage(res, spaDir, next);
      sendPage(res, spaDir);
    });
  }

  // Whatever no route took (another method on a page, any path without a built SPA): JSON, not
  // Express's HTML page.
  app.use(notFound);

  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    const status = typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) console.error('[http] unhandled error:', err);
    if (res.headersSent) return void res.end();
    // What a failed send set for the file it meant to send (a Range past the end of index.html or a
    // build file: Content-Type text/html, Content-Range, validators) does not describe this JSON body.
    for (const h of ['Content-Type', 'Content-Length', 'Content-Range', 'Content-Disposition', 'Accept-Ranges', 'ETag', 'Last-Modified']) res.removeHeader(h);
    // Express's own 4xx (an undecodable path, a Range past the file …): the dashboard envelope, with
    // its status's app code when there is one.
    const code = status === 500 ? 'INTERNAL_ERROR' : (EXPRESS_ERROR_CODES[status] ?? 'BAD_INPUT');
    res.status(status).json({ error: { code, message: status === 500 ? 'Something went wrong on our side. Please try again.' : String(err.message ?? 'Bad request') } });
  };
  app.use(onError);
  return app;
}

/**
 * The server's request listener: POST /v1/validate's ordinary requests go straight to the direct
 * listener (rest/mount.ts directValidateListener: the same steps without Express's router and body
 * parser), everything else to the Express app.
 */
export function createRequestListener(deps: AppDeps, o: HttpOptions = {}): RequestListener {
  const app = createHttpApp(deps, o);
  const direct = directValidateListener(deps, app);
  return (req, res) => {
    // HTTP/1.0 may send an empty Host: as if it sent none (HTTP/1.1 may not: the host guard refuses it).
    if (req.headers.host === '' && req.httpVersion === '1.0') delete req.headers.host;
    // An absolute-form target names the host itself (RFC 9112 §3.2.2): origin form from here on.
    // HTTP/1.1 must still send Host (RFC 9112 §3.2): a request without one stays refused.
    const missing = hostMissing(req);
    const usableTarget = toOriginForm(req);
    if (missing) delete req.headers.host;
    // A Host that is missing (HTTP/1.1) or no host name, or a target that is no URL, goes to the app, whose host guard refuses it.
    if (!usableTarget || missing || !isValidHost(req.headers.host) || !direct(req, res)) app(req, res);
  };
}
