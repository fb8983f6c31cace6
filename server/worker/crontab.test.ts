// The worker's recurring jobs as graphile-worker reads them: the e2e specs queue schedule-tick
// themselves rather than wait for the cron, so its every-minute tick is held here.
import { parseCrontab } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { crontab } from './crontab';

const items = parseCrontab(crontab);
const item = (task: string) => {
  const found = items.find((i) => i.task === task);
  if (!found) throw new Error(`${task} is not in the crontab`);
  return found;
};
const at = (iso: string) => {
  const d = new Date(iso);
  return { min: d.getUTCMinutes(), hour: d.getUTCHours(), date: d.getUTCDate(), month: d.getUTCMonth() + 1, dow: d.getUTCDay() };
};

describe('crontab', () => {
  it('ticks the schedules every minute, one at a time', () => {
    const tick = item('schedule-tick');
    for (const t of ['2026-11-24T00:00:00Z', '2026-11-24T13:37:00Z', '2026-02-28T23:59:00Z']) expect(tick.match(at(t))).toBe(true);
    expect(tick.options.maxAttempts).toBe(1);
  });

  it('sweeps the bulk chunk windows every minute, ahead of queued chunks', () => {
    const sweep = item('bulk-dispatch');
    for (const t of ['2026-11-24T00:00:00Z', '2026-11-24T13:37:00Z']) expect(sweep.match(at(t))).toBe(true);
    expect(sweep.options.priority).toBeLessThan(0);
  });

  it('purges daily, resets quotas monthly, runs billing every 10 minutes and reconciles hourly', () => {
    expect(item('retention-purge').match(at('2026-11-24T03:30:00Z'))).toBe(true);
    expect(item('retention-purge').match(at('2026-11-24T03:31:00Z'))).toBe(false);
    expect(item('unverified-purge').match(at('2026-11-24T03:45:00Z'))).toBe(true);
    expect(item('unverified-purge').match(at('2026-11-25T03:46:00Z'))).toBe(false);
    expect(item('quota-reset').match(at('2026-12-01T00:05:00Z'))).toBe(true);
    expect(item('quota-reset').match(at('2026-12-02T00:05:00Z'))).toBe(false);
    expect(item('billing-tick').match(at('2026-11-24T13:40:00Z'))).toBe(true);
    expect(item('billing-tick').match(at('2026-11-24T13:41:00Z'))).toBe(false);
    expect(item('billing-reconcile').match(at('2026-11-24T13:20:00Z'))).toBe(true);
    expect(item('billing-reconcile').match(at('2026-11-24T13:21:00Z'))).toBe(false);
  });
});
