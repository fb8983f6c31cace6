// schedule-tick (cron, every minute): queues one schedule-run per due schedule. Payload
// { now? } (ISO; tests pass a fake clock) — otherwise the cron's own timestamp.
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../../deps';
import { dueScheduleIds } from '../../features/schedules/schedules.service';
import { enqueueTask } from '../../features/jobs/jobs.queries';
import { TASKS } from '../../lib/tasks';
import { payloadNow } from '../clock';
import { CRON_PRIORITY } from '../crontab';

export async function tickSchedules(deps: Pick<AppDeps, 'db'>, now: Date): Promise<number> {
  const ids = await dueScheduleIds(deps.db, now);
  for (const id of ids) {
    await enqueueTask(deps.db, TASKS.scheduleRun, { scheduleId: id, now: now.toISOString() }, { jobKey: `${TASKS.scheduleRun}:${id}`, maxAttempts: 5, priority: CRON_PRIORITY });
  }
  return ids.length;
}

export function scheduleTickTask(deps: AppDeps): Task {
  return async (payload, helpers) => {
    const now = payloadNow(payload);
    const n = await tickSchedules(deps, now);
    if (n > 0) helpers.logger.info(`queued ${n} schedule run(s)`);
  };
}
