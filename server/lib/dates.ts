// Calendar arithmetic shared by billing periods and schedules (UTC, as PostgreSQL computes it).

/** `k` months after `start` (UTC), the day clamped to the month's length (Jan 31 → Feb 28). */
export function addMonthsClamped(start: Date, k: number): Date {
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth() + k;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(start.getUTCDate(), last), start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()));
}
