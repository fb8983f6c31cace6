// The plan's /v1 rate is per account per second (spec: Free 1 req/s, Starter 3 req/s), whatever
// number of web processes serve it. In-memory shares of ⌈rate ÷ n⌉ per process add up to more than
// the rate behind a round-robin balancer (Free with 2 processes: 2 req/s), so with WEB_PROCESSES > 1
// the buckets live in Postgres unless the operator chooses memory explicitly.
import { describe, expect, it } from 'vitest';
import { readEnv } from '../env';

const base = { NODE_ENV: 'test', BETTER_AUTH_SECRET: 'x'.repeat(32) } as NodeJS.ProcessEnv;

describe('/v1 rate buckets across web processes', () => {
  it('one web process keeps them in memory (no database write per request)', () => {
    expect(readEnv({ ...base }).API_RATE_LIMIT_STORE).toBe('memory');
  });

  it('several web processes share them in Postgres, so the plan rate holds across processes', () => {
    expect(readEnv({ ...base, WEB_PROCESSES: '2' }).API_RATE_LIMIT_STORE).toBe('postgres');
  });

  it("the operator's explicit choice stands", () => {
    expect(readEnv({ ...base, WEB_PROCESSES: '4', API_RATE_LIMIT_STORE: 'memory' }).API_RATE_LIMIT_STORE).toBe('memory');
    expect(readEnv({ ...base, API_RATE_LIMIT_STORE: 'postgres' }).API_RATE_LIMIT_STORE).toBe('postgres');
  });
});
