// Per-account request rate for the public API (spec section 9: 1, 3, 10, 25 req/s; Enterprise is
// custom). Buckets live in Postgres (rate-limiter-flexible's RateLimiterPostgres on the app's pool),
// so every web process shares them. A memory limiter stands in if Postgres cannot answer.
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { planByType, type PlanType } from '../contracts/plans';

/** Enterprise's "custom" rate until a contract sets another. */
export const ENTERPRISE_DEFAULT_RATE_PER_SECOND = 100;
export const RATE_LIMIT_TABLE = 'api_rate_limit';

export function ratePerSecond(plan: PlanType): number {
  return planByType(plan).apiRatePerSecond ?? ENTERPRISE_DEFAULT_RATE_PER_SECOND;
}

export type RateDecision = { allowed: true; limit: number; remaining: number } | { allowed: false; limit: number; retryAfterSeconds: number };

const limiters = new WeakMap<pg.Pool, Map<PlanType, Promise<RateLimiterPostgres>>>();

function limiterFor(pool: pg.Pool, plan: PlanType): Promise<RateLimiterPostgres> {
  let perPool = limiters.get(pool);
  if (!perPool) {
    perPool = new Map();
    limiters.set(pool, perPool);
  }
  let limiter = perPool.get(plan);
  if (!limiter) {
    const points = ratePerSecond(plan);
    limiter = new Promise<RateLimiterPostgres>((resolve, reject) => {
      const l: RateLimiterPostgres = new RateLimiterPostgres(
        {
          storeClient: pool,
          tableName: RATE_LIMIT_TABLE,
          keyPrefix: `v1:${plan}`,
          points,
          duration: 1,
          insuranceLimiter: new RateLimiterMemory({ keyPrefix: `v1:${plan}:mem`, points, duration: 1 }),
        },
        (err?: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(l)),
      );
    });
    limiter.catch(() => perPool.delete(plan)); // try to create the table again next time
    perPool.set(plan, limiter);
  }
  return limiter;
}

/** Takes one request from the account's bucket for this second. */
export async function consumeApiRequest(pool: pg.Pool, plan: PlanType, accountId: string): Promise<RateDecision> {
  const limit = ratePerSecond(plan);
  try {
    const res = await (await limiterFor(pool, plan)).consume(accountId, 1);
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
