import { describe, expect, it } from 'vitest';
import { BASE_RETRY_DELAYS_MS, busyBackoffMs, retrySchedule } from './retry-schedule';

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe('greylisting retry schedule', () => {
  it('bulk (10 min): first retry after a few seconds, later ones minutes apart, all inside the deadline', () => {
    const s = retrySchedule(600_000);
    expect(s[0]).toBe(3_000);
    expect(s.slice(1).every((d) => d >= 60_000)).toBe(true);
    expect(sum(s)).toBeLessThanOrEqual(600_000);
    expect(s).toEqual(BASE_RETRY_DELAYS_MS.slice(0, 4));
  });

  it('realtime (15 s): the schedule is scaled down to fit', () => {
    const s = retrySchedule(15_000);
    expect(s.length).toBe(3);
    expect(s[0]).toBeGreaterThanOrEqual(2_000);
    expect(s[0]).toBeLessThanOrEqual(5_000);
    expect(sum(s)).toBeLessThanOrEqual(15_000);
    expect(s[1]).toBeGreaterThan(s[0] as number);
  });

  it('uses an override as given, cut at the deadline', () => {
    expect(retrySchedule(1000, [300, 300, 400, 500])).toEqual([300, 300, 400]);
  });

  it('backs off 421s quickly at first, then doubling, capped', () => {
    expect([1, 2, 3, 4].map(busyBackoffMs)).toEqual([250, 500, 1000, 2000]);
    expect(busyBackoffMs(30)).toBe(30_000);
  });
});
