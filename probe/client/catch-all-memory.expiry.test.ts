// The client's catch-all memory lasts one period from when an answer was learnt: results that repeat
// it (every result of the domain, those made with the hint too) do not keep it alive for ever.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VerificationResult } from '../contract';
import { CatchAllMemory } from './catch-all-memory';

const result = (email: string, catchAll: boolean | null) => ({ email, normalized: email, catch_all: catchAll }) as VerificationResult;

afterEach(() => vi.useRealTimers());

describe('CatchAllMemory', () => {
  it('forgets an answer one period after it was learnt, however often it is repeated', () => {
    vi.useFakeTimers({ now: 0 });
    const memory = new CatchAllMemory(600_000);
    memory.learn(result('a@shop.test', true));
    vi.advanceTimersByTime(540_000);
    memory.learn(result('b@shop.test', true)); // repeated 9 minutes on: not renewed
    expect(memory.hintsFor(['c@shop.test'])).toEqual({ 'shop.test': true });
    vi.advanceTimersByTime(60_001);
    expect(memory.hintsFor(['c@shop.test'])).toBeUndefined();
  });

  it('takes a different answer at once', () => {
    vi.useFakeTimers({ now: 0 });
    const memory = new CatchAllMemory(600_000);
    memory.learn(result('a@shop.test', true));
    memory.learn(result('b@shop.test', false));
    expect(memory.get('shop.test')).toMatchObject({ value: false });
    memory.learn(result('c@shop.test', null)); // nothing learnt: kept
    expect(memory.get('shop.test')).toMatchObject({ value: false });
  });
});
