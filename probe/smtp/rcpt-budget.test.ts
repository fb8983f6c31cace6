import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RcptBudget } from './rcpt-budget';
import { maxInAnyWindow } from '../testing/rate-window';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RcptBudget (the fleet RCPT budget of one node, per MX IP)', () => {
  it('never lets more than its share through in any window, keeps up the rate, and serves every taker', async () => {
    const budget = new RcptBudget({ rcpts: 5, windowMs: 1000, now: () => Date.now() });
    const times: number[] = [];
    // 12 takers wanting 1..4 RCPTs each, 10 rounds each: far more than the budget allows at once.
    let done = 0;
    const takers = Array.from({ length: 12 }, async (_, k) => {
      for (let round = 0; round < 10; round++) {
        const n = await budget.take('192.0.2.1', 1 + ((k + round) % 4));
        expect(n).toBeGreaterThanOrEqual(1);
        for (let i = 0; i < n; i++) times.push(Date.now());
      }
      done++;
    });
    // Bounded: 120 takes of at least one RCPT at 5 per 1.2 s need under 30 s of (fake) time.
    for (let i = 0; i < 400 && done < 12; i++) await vi.advanceTimersByTimeAsync(250);
    expect(done).toBe(12);
    await Promise.all(takers);
    expect(times.length).toBeGreaterThanOrEqual(120);
    expect(maxInAnyWindow(times, 1000)).toBe(5);
    // The margin (one spacing: window ÷ share) still holds when the receiver sees RCPTs a little late.
    expect(maxInAnyWindow(times, 1199)).toBe(5);
    // …and costs at most about one RCPT per window: 5 RCPTs per 1.2 s.
    const span = (times.at(-1) ?? 0) - (times[0] ?? 0);
    expect(span).toBeLessThanOrEqual(Math.ceil(times.length / 5) * 1200);
  });

  it('grants as many as there is room for (at least one), waiting only when there is none', async () => {
    const budget = new RcptBudget({ rcpts: 4, windowMs: 1000, now: () => Date.now() });
    expect(await budget.take('192.0.2.1', 3)).toBe(3);
    expect(await budget.take('192.0.2.1', 3)).toBe(1);
    expect(budget.room('192.0.2.1')).toBe(0);
    // Another MX address has its own budget.
    expect(await budget.take('192.0.2.2', 10)).toBe(4);
    let got: number | null = null;
    void budget.take('192.0.2.1', 2).then((n) => (got = n));
    await vi.advanceTimersByTimeAsync(1000);
    expect(got).toBeNull(); // the span is the window plus one spacing (250 ms)
    await vi.advanceTimersByTimeAsync(250);
    expect(got).toBe(2);
    expect(budget.counters).toEqual({ granted: 10, waited: 1 });
  });

  it('serves a higher priority first, drops an aborted waiter, and a room check takes nothing', async () => {
    const budget = new RcptBudget({ rcpts: 2, windowMs: 1000, now: () => Date.now() });
    await budget.take('192.0.2.1', 2);
    const order: string[] = [];
    void budget.take('192.0.2.1', 1, undefined, 0).then(() => order.push('bulk'));
    const ac = new AbortController();
    const aborted = budget.take('192.0.2.1', 1, ac.signal, 5);
    void budget.take('192.0.2.1', 1, undefined, 1e9).then(() => order.push('realtime'));
    void budget.take('192.0.2.1', 0).then((n) => order.push(`room:${n}`));
    ac.abort();
    await expect(aborted).rejects.toThrow(/aborted/);
    await vi.advanceTimersByTimeAsync(1500);
    expect(order).toEqual(['realtime', 'bulk']);
    // Both RCPTs of the new span are taken: the room check waits for the next one.
    await vi.advanceTimersByTimeAsync(1500);
    expect(order).toEqual(['realtime', 'bulk', 'room:0']);
    expect(budget.room('192.0.2.1')).toBe(2);
    await expect(budget.take('192.0.2.1', 1, AbortSignal.abort())).rejects.toThrow(/aborted/);
  });

  it('refuses a share below one RCPT or a window that is not positive', () => {
    expect(() => new RcptBudget({ rcpts: 0, windowMs: 1000 })).toThrow(/at least 1/);
    expect(() => new RcptBudget({ rcpts: 2.5, windowMs: 1000 })).toThrow(/whole number/);
    expect(() => new RcptBudget({ rcpts: 5, windowMs: -1 })).toThrow(/positive window/);
    expect(() => new RcptBudget({ rcpts: 5, windowMs: Number.NaN })).toThrow(/positive window/);
  });
});
