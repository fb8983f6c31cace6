// apiKeyProcedure(scope): the base of every /v1 procedure, and the one place a route declares the
// scope its key needs (a route cannot be built without naming one). Bearer key → account (401
// otherwise), plan with API access (403 PLAN_REQUIRED), the key's scopes (403 SCOPE_REQUIRED naming
// the scope), then the key's own rate (when set) and the plan's per-second rate (429 with
// Retry-After). Handlers get ctx.accountId, ctx.keyId, ctx.plan and ctx.sandbox (a test key) and
// never check any of these themselves.
import { authenticateApiKey } from '../auth/api-key-auth';
import type { ApiScope } from '../contracts/api-keys';
import { AppError } from '../lib/app-error';
import { timed } from '../lib/server-timing';
import { publicProcedure } from '../trpc/init';
import { GATE_MESSAGES } from '../trpc/procedures';
import { planAllows, type PlanType } from '../contracts/plans';
import type { AppDeps } from '../deps';
import { consumeV1KeyRequest, consumeV1Request, type ApiRateStore, type RateDecision } from './rate-limit';
import { restStateOf, type RestState } from './rest-context';
import type { RequestHandler } from 'express';
import { fromNodeHeaders } from 'better-auth/node';
import { sendProblem } from '../http/send-error';

/** Why a key whose creator lost their seat (the plan fell below the team's size) is refused. */
export function seatlessCreatorMessage(teamMemberLimit: number): string {
  return `The person who created this API key has no seat in this team: your current plan allows ${teamMemberLimit} team member(s) total. Upgrade the plan or remove a member to use this key again.`;
}

export function scopeRequiredMessage(scope: ApiScope): string {
  return `This API key does not have the "${scope}" scope. Create a key with that scope on the API Keys page.`;
}

/** Who calls /v1: the key's account, plan, scopes and rates (set on ctx by the gates below). */
export interface V1Caller {
  accountId: string;
  keyId: string;
  plan: PlanType;
  sandbox: boolean;
  keyScopes: ApiScope[];
  keyRatePerSecond: number | null;
  accountRatePerSecond: number | null;
  /** The key's creator has no seat in the account: its team size (the key is refused), else null. */
  seatlessCreatorLimit: number | null;
}

/**
 * The gates of every /v1 call, in order, as plain functions: the tRPC middlewares below run them,
 * and so does rest/mount.ts's direct route for POST /v1/validate, so both answer alike.
 */
export const v1Gates = {
  /** Bearer key → its account (401 otherwise). */
  async authenticate(ctx: { deps: AppDeps; headers: Headers }): Promise<V1Caller> {
    const auth = await timed('auth', () => authenticateApiKey(ctx.deps.db, ctx.headers.get('authorization')));
    if (!auth.ok) throw new AppError(auth.code, auth.message);
    const { accountId, keyId, plan, isTest, scopes, ratePerSecond, accountRatePerSecond, seatlessCreatorLimit } = auth.principal;
    return { accountId, keyId, plan, sandbox: isTest, keyScopes: scopes, keyRatePerSecond: ratePerSecond, accountRatePerSecond, seatlessCreatorLimit };
  },
  /**
   * The plan includes API access, and the key's creator holds a seat in the team (a member past the
   * plan's team size works in no part of the account, /v1 included: membership.ts) — else 403 PLAN_REQUIRED.
   */
  plan(caller: Pick<V1Caller, 'plan' | 'seatlessCreatorLimit'>): void {
    if (!planAllows(caller.plan, 'apiKeys')) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES.apiKeys);
    if (caller.seatlessCreatorLimit !== null) throw new AppError('PLAN_REQUIRED', seatlessCreatorMessage(caller.seatlessCreatorLimit));
  },
  /** The key has the scope (403 SCOPE_REQUIRED naming it). */
  scope(keyScopes: ApiScope[], scope: ApiScope): void {
    if (!keyScopes.includes(scope)) throw new AppError('SCOPE_REQUIRED', scopeRequiredMessage(scope), { details: { scope } });
  },
  /** The key's own rate (when set), then the plan's (429 with Retry-After); fills the rate headers. */
  async rate(ctx: { deps: AppDeps; rest?: { responseHeaders: Record<string, string> } }, caller: V1Caller): Promise<void> {
    // Taken already, before the body was read (a multipart CSV: csv-multipart.ts).
    if (restStateOf(ctx)?.rateCounted) return;
    await timed('rate', async () => {
      const headers = restStateOf(ctx)?.responseHeaders;
      const store: ApiRateStore = { pool: ctx.deps.pool, store: ctx.deps.env.API_RATE_LIMIT_STORE, processes: ctx.deps.env.WEB_PROCESSES };
      // The key's own limit first, so a request it refuses takes nothing from the account's budget.
      let keyDecision: RateDecision | null = null;
      if (caller.keyRatePerSecond !== null) {
        keyDecision = await consumeV1KeyRequest(store, caller.keyId, caller.keyRatePerSecond);
        if (!keyDecision.allowed) refuse(keyDecision, headers, 'on this API key');
      }
      // Enterprise: the rate the operator set for this account (mailvet accounts set-api-rate), if any,
      // read with the key (no second query per request).
      const custom = caller.plan === 'enterprise' ? caller.accountRatePerSecond : null;
      // Test keys have a budget of their own at the same rate: a test key (which may sit in a page
      // anyone can read, as the documentation suggests) never takes from the live keys' traffic.
      const bucket = caller.sandbox ? `${caller.accountId}:test` : caller.accountId;
      const decision = await consumeV1Request(store, caller.plan, bucket, custom);
      if (!decision.allowed) refuse(decision, headers, caller.sandbox ? 'for test keys on your plan' : 'on your plan');
      if (headers) {
        const tighter = keyDecision?.allowed && keyDecision.limit < decision.limit ? keyDecision : decision;
        headers['X-RateLimit-Limit'] = String(tighter.limit);
        headers['X-RateLimit-Remaining'] = String(Math.min(decision.remaining, keyDecision?.allowed ? keyDecision.remaining : decision.remaining));
      }
    });
  },
};

const keyAuthedProcedure = publicProcedure
  .use(async function isApiKeyAuthed({ ctx, next }) {
    const caller = await v1Gates.authenticate(ctx);
    v1Gates.plan(caller);
    return next({ ctx: { ...ctx, ...caller } });
  });

/** The base procedure of a /v1 route that needs `scope`. */
export function apiKeyProcedure(scope: ApiScope) {
  return keyAuthedProcedure
    .meta({ apiScope: scope })
    .use(async function hasScope({ ctx, next }) {
      v1Gates.scope(ctx.keyScopes, scope);
      return next();
    })
    .use(async function withinRate({ ctx, next }) {
      await v1Gates.rate(ctx, ctx);
      return next();
    });
}

function refuse(decision: Extract<RateDecision, { allowed: false }>, headers: Record<string, string> | undefined, where: string): never {
  if (headers) {
    headers['X-RateLimit-Limit'] = String(decision.limit);
    headers['Retry-After'] = String(decision.retryAfterSeconds);
    headers['X-RateLimit-Remaining'] = '0';
  }
  const s = decision.retryAfterSeconds;
  throw new AppError('RATE_LIMITED', `Rate limit exceeded (${decision.limit} requests per second ${where}). Retry after ${s} second${s === 1 ? '' : 's'}.`);
}

/**
 * A POST route's gates, in the procedure's order, before its body is read (a bulk route's JSON of up
 * to 12 MB or CSV of up to 10 MB, any other's 64 KB) and before its Idempotency-Key is claimed: key
 * (401), plan (403), scope (403), rate (429: the request's token is taken here, once; the procedure
 * does not take another), and on the bulk routes the CSV plan (403). Whoever they refuse costs no
 * read, no parse and no database write.
 */
export function gatesBeforeBody(deps: AppDeps, routeOf: (req: Parameters<RequestHandler>[0]) => { scope: ApiScope; csvUpload: boolean } | null): RequestHandler {
  return async (req, res, next) => {
    const route = req.method === 'POST' ? routeOf(req) : null;
    if (!route) return next();
    try {
      const caller = await v1Gates.authenticate({ deps, headers: fromNodeHeaders(req.headers) });
      v1Gates.plan(caller);
      v1Gates.scope(caller.keyScopes, route.scope);
      const rate: RestState = { responseHeaders: {} };
      try {
        await v1Gates.rate({ deps, rest: rate }, caller);
      } finally {
        for (const [k, v] of Object.entries(rate.responseHeaders)) res.setHeader(k, v);
      }
      if (route.csvUpload && !planAllows(caller.plan, 'csvUpload')) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES.csvUpload);
      res.locals.rateCounted = rate.responseHeaders;
      next();
    } catch (err) {
      sendProblem(res, err, deps.baseURL);
    }
  };
}
