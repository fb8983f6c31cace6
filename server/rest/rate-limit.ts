// Per-account request rate for the public API (spec section 9: 1, 3, 10, 25 req/s; Enterprise is
// custom), and the dashboard's budget. The dashboard's buckets live in Postgres
// (rate-limiter-flexible's RateLimiterPostgres on the app's pool), so every web process shares them;
// a memory limiter stands in if Postgres cannot answer. The /v1 buckets (per account, per key) live
// where API_RATE_LIMIT_STORE says: `memory` (default: no database write per API request; one
// process is exact, and with WEB_PROCESSES = n each process allows ⌈rate ÷ n⌉ per second, which a
// balancer spreading requests evenly adds up to the rate) or `postgres` (shared by every process).
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { getOrCreate } from '../lib/get-or-create';
import { planByType, type PlanType } from '../contracts/plans';

/** Enterprise's "custom" rate until a contract sets another. */
export const ENTERPRISE_DEFAULT_RATE_PER_SECOND = 100;
export const RATE_LIMIT_TABLE = 'api_rate_limit';

/** The plan table's rate; Enterprise uses the account's own rate when the operator set one (`customRate`). */
export function ratePerSecond(plan: PlanType, customRate?: number | null): number {
  if (plan === 'enterprise' && customRate) return customRate;
  return planByType(plan).apiRatePerSecond ?? ENTERPRISE_DEFAULT_RATE_PER_SECOND;
}

export type RateDecision = { allowed: true; limit: number; remaining: number } | { allowed: false; limit: number; retryAfterSeconds: number };

/**
 * Separate budgets per account: the public API (the plan's rate per second), and the dashboard's
 * checks and job mutations (the same plan rate over a 10-second window, at least 30 per window,
 * so a person clicking or a page firing a few calls together is not refused while a script
 * driving the dashboard with a session cookie gets no more than the API would give it).
 */
export type RateBucket = 'v1' | 'dashboard';

export const DASHBOARD_WINDOW_SECONDS = 10;
export const DASHBOARD_MIN_POINTS = 30;

export function bucketBudget(plan: PlanType, bucket: RateBucket, customRate?: number | null): { points: number; duration: number } {
  const rate = ratePerSecond(plan, customRate);
  if (bucket === 'v1') return { points: rate, duration: 1 };
  return { points: Math.max(DASHBOARD_MIN_POINTS, rate * DASHBOARD_WINDOW_SECONDS), duration: DASHBOARD_WINDOW_SECONDS };
}

const limiters = new WeakMap<pg.Pool, Map<string, Promise<RateLimiterPostgres>>>();

function limiterFor(pool: pg.Pool, plan: PlanType, bucket: RateBucket = 'v1', customRate?: number | null): Promise<RateLimiterPostgres> {
  const custom = plan === 'enterprise' && customRate ? customRate : null;
  const id = custom ? `${bucket}:${plan}:${custom}` : `${bucket}:${plan}`;
  const { points, duration } = bucketBudget(plan, bucket, custom);
  return limiterWith(pool, id, points, duration);
}

/** One limiter per (pool, budget id): its buckets live in the shared table under keyPrefix `id`. */
function limiterWith(pool: pg.Pool, id: string, points: number, duration: number): Promise<RateLimiterPostgres> {
  const perPool = getOrCreate(limiters, pool, () => new Map<string, Promise<RateLimiterPostgres>>());
  return getOrCreate(perPool, id, () => {
    const limiter = new Promise<RateLimiterPostgres>((resolve, reject) => {
      const l: RateLimiterPostgres = new RateLimiterPostgres(
        {
          storeClient: pool,
          tableName: RATE_LIMIT_TABLE,
          keyPrefix: id,
          points,
          duration,
          insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${id}:mem`, points, duration }),
        },
        (err?: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(l)),
      );
    });
    limiter.catch(() => perPool.delete(id)); // try to create the table again next time
    return limiter;
  });
}

/** Where the /v1 buckets live (env API_RATE_LIMIT_STORE, WEB_PROCESSES). */
export interface ApiRateStore {
  pool: pg.Pool;
  store: 'memory' | 'postgres';
  processes: number;
}

const memoryLimiters = new WeakMap<pg.Pool, Map<string, RateLimiterMemory>>();

/** One in-process limiter per (server, budget id): this process's share of the budget. */
function memoryLimiterWith(pool: pg.Pool, id: string, points: number, duration: number, processes: number): RateLimiterMemory {
  let perPool = memoryLimiters.get(pool);
  if (!perPool) {
    perPool = new Map();
    memoryLimiters.set(pool, perPool);
  }
  const share = Math.max(1, Math.ceil(points / processes));
  const mapKey = `${id}:${share}`;
  let limiter = perPool.get(mapKey);
  if (!limiter) {
    limiter = new RateLimiterMemory({ keyPrefix: mapKey, points: share, duration });
    perPool.set(mapKey, limiter);
  }
  return limiter;
}

/** Takes one /v1 request from an API key's own bucket (a per-key limit below the plan's). */
export function consumeV1KeyRequest(s: ApiRateStore, keyId: string, perSecond: number): Promise<RateDecision> {
  if (s.store === 'postgres') return consumeKeyRequest(s.pool, keyId, perSecond);
  return consumeFrom(() => Promise.resolve(memoryLimiterWith(s.pool, `v1key:${perSecond}`, perSecond, 1, s.processes)), keyId, perSecond);
}

/** Takes one /v1 request from the account's bucket for this second. */
export function consumeV1Request(s: ApiRateStore, plan: PlanType, accountId: string, customRate?: number | null): Promise<RateDecision> {
  if (s.store === 'postgres') return consumeApiRequest(s.pool, plan, accountId, 'v1', customRate);
  const custom = plan === 'enterprise' && customRate ? customRate : null;
  const { points, duration } = bucketBudget(plan, 'v1', custom);
  const id = custom ? `v1:${plan}:${custom}` : `v1:${plan}`;
  return consumeFrom(() => Promise.resolve(memoryLimiterWith(s.pool, id, points, duration, s.processes)), accountId, points);
}

async function consumeFrom(limiter: () => Promise<RateLimiterPostgres | RateLimiterMemory>, key: string, limit: number): Promise<RateDecision> {
  try {
    const res = await (await limiter()).consume(key, 1);
    return { allowed: true, limit, remaining: res.remainingPoints };
  } catch (rej) {
    if (rej instanceof RateLimiterRes) {
      return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(rej.msBeforeNext / 1000)) };
    }
    // Store failure with no insurance answer: let the request through rather than fail the API.
    console.error('[rate-limit] store error:', rej instanceof Error ? rej.message : rej);
    return { allowed: true, limit, remaining: 0 };
  }
}

/** Takes one request from an API key's own bucket (a per-key limit below the plan's), per second. */
export function consumeKeyRequest(pool: pg.Pool, keyId: string, perSecond: number): Promise<RateDecision> {
  return consumeFrom(() => limiterWith(pool, `v1key:${perSecond}`, perSecond, 1), keyId, perSecond);
}

/** Takes one request from the account's bucket for this second. */
export async function consumeApiRequest(pool: pg.Pool, plan: PlanType, accountId: string, bucket: RateBucket = 'v1', customRate?: number | null): Promise<RateDecision> {
  const limit = bucketBudget(plan, bucket, customRate).points;
  return consumeFrom(() => limiterFor(pool, plan, bucket, customRate), accountId, limit);
}
