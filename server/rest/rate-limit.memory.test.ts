// The in-memory /v1 buckets (API_RATE_LIMIT_STORE=memory): the plan's rate per second in one
// process, ⌈rate ÷ WEB_PROCESSES⌉ in each of several, per account and per key, and a refusal's Retry-After.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { consumeV1KeyRequest, consumeV1Request, type ApiRateStore } from './rate-limit';

// Memory buckets never touch the pool; it only keys them per server (never connected here).
const store = (processes: number): ApiRateStore => ({ pool: new pg.Pool({ max: 1 }), store: 'memory', processes });

async function allowedOf(n: number, take: () => Promise<{ allowed: boolean }>): Promise<number> {
  let ok = 0;
  for (let i = 0; i < n; i++) if ((await take()).allowed) ok += 1;
  return ok;
}

describe('in-memory /v1 rate limit', () => {
  it("allows the plan's rate per second per account, and says how long to wait", async () => {
    const s = store(1);
    expect(await allowedOf(10, () => consumeV1Request(s, 'starter', 'acct-a'))).toBe(3);
    expect(await allowedOf(10, () => consumeV1Request(s, 'starter', 'acct-b'))).toBe(3); // another account has its own bucket
    const refused = await consumeV1Request(s, 'starter', 'acct-a');
    expect(refused).toEqual({ allowed: false, limit: 3, retryAfterSeconds: 1 });
  });

  it('takes the operator-set Enterprise rate and a key\'s own rate', async () => {
    const s = store(1);
    expect(await allowedOf(10, () => consumeV1Request(s, 'enterprise', 'ent', 4))).toBe(4);
    expect(await allowedOf(5, () => consumeV1KeyRequest(s, 'key-1', 2))).toBe(2);
  });

  it('splits the rate over WEB_PROCESSES (rounded up, at least 1 each)', async () => {
    const two = store(2);
    expect(await allowedOf(30, () => consumeV1Request(two, 'business', 'acct'))).toBe(13); // 25 / 2
    const four = store(4);
    expect(await allowedOf(5, () => consumeV1Request(four, 'free', 'acct'))).toBe(1);
  });

  it('keeps two servers in one process apart', async () => {
    const one = store(1);
    const two = store(1);
    expect(await allowedOf(5, () => consumeV1Request(one, 'free', 'same'))).toBe(1);
    expect(await allowedOf(5, () => consumeV1Request(two, 'free', 'same'))).toBe(1);
  });
});
