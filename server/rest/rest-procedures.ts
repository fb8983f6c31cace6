// apiKeyProcedure: the base of every /v1 procedure. Bearer key → account (401 otherwise), plan with
// API access (403), then the plan's per-second rate (429 with Retry-After). Handlers get
// ctx.accountId, ctx.keyId and ctx.plan and never check any of these themselves.
import { authenticateApiKey } from '../auth/api-key-auth';
import { AppError } from '../lib/app-error';
import { publicProcedure } from '../trpc/init';
import { requirePlan } from '../trpc/procedures';
import { customApiRate } from '../features/billing/service-state';
import { consumeApiRequest } from './rate-limit';
import { restStateOf } from './rest-context';

export const apiKeyProcedure = publicProcedure
  .use(async function isApiKeyAuthed({ ctx, next }) {
    const auth = await authenticateApiKey(ctx.deps.db, ctx.headers.get('authorization'));
    if (!auth.ok) throw new AppError(auth.code, auth.message);
    const { accountId, keyId, plan } = auth.principal;
    return next({ ctx: { ...ctx, accountId, keyId, plan } });
  })
  .use(requirePlan('apiKeys'))
  .use(async function withinRate({ ctx, next }) {
    // Enterprise: the rate the operator set for this account (mailvet accounts set-api-rate), if any.
    const custom = ctx.plan === 'enterprise' ? await customApiRate(ctx.deps.db, ctx.accountId) : null;
    const decision = await consumeApiRequest(ctx.deps.pool, ctx.plan, ctx.accountId, 'v1', custom);
    const headers = restStateOf(ctx)?.responseHeaders;
    if (headers) headers['X-RateLimit-Limit'] = String(decision.limit);
    if (!decision.allowed) {
      if (headers) {
        headers['Retry-After'] = String(decision.retryAfterSeconds);
        headers['X-RateLimit-Remaining'] = '0';
      }
      const s = decision.retryAfterSeconds;
      throw new AppError('RATE_LIMITED', `Rate limit exceeded (${decision.limit} requests per second on your plan). Retry after ${s} second${s === 1 ? '' : 's'}.`);
    }
    if (headers) headers['X-RateLimit-Remaining'] = String(decision.remaining);
    return next();
  });
