// Calendar arithmetic shared by billing periods and schedules (UTC, as PostgreSQL computes it), and
// how the server writes a date into a mail or a message: in UTC, and saying so (it knows no reader's zone).

/** `k` months after `start` (UTC), the day clamped to the month's length (Jan 31 → Feb 28). */
export function addMonthsClamped(start: Date, k: number): Date {
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth() + k;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(start.getUTCDate(), last), start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()));
}

const UTC_DAY = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const UTC_TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

/** "November 25, 2026 (UTC)": the UTC day, labelled (a reader west of Greenwich is still on the 24th at its start). */
export function formatUtcDay(d: Date): string {
  return `${UTC_DAY.format(d)} (UTC)`;
}

/** "January 1, 2027 – February 1, 2027 (UTC)": two UTC days, labelled once. */
export function formatUtcDayRange(from: Date, to: Date): string {
  return `${UTC_DAY.format(from)} – ${UTC_DAY.format(to)} (UTC)`;
}

/** "November 27, 2026, 03:54 UTC": a moment (a deadline, an expiry) to the minute, labelled. */
export function formatUtcDateTime(d: Date): string {
  return `${UTC_DAY.format(d)}, ${UTC_TIME.format(d)} UTC`;
}
