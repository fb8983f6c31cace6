// The time a task acts at: payload.now (tests drive a fake clock through it), else the cron
// timestamp graphile-worker adds (_cron.ts, also for backfilled runs), else the wall clock.
export function payloadNow(payload: unknown): Date {
  const p = (payload ?? {}) as { now?: unknown; _cron?: { ts?: unknown } };
  for (const v of [p.now, p._cron?.ts]) {
    if (typeof v === 'string' || typeof v === 'number') {
      const d = new Date(v);
      if (!Number.isNaN(d.getTime())) return d;
    }
  }
  return new Date();
}
