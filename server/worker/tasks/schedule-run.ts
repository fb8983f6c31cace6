// schedule-run: one run of a schedule → a bulk job (source 'schedule'). Payload { scheduleId, now? }.
// Idempotent: the schedule row is locked and its due time re-checked, so a duplicate does nothing.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { runSchedule } from '../../features/schedules/schedules.service';
import { payloadNow } from '../clock';

const payloadSchema = z.object({ scheduleId: z.uuid() }).loose();

export function scheduleRunTask(deps: AppDeps): Task {
  return async (payload, helpers) => {
    const { scheduleId } = payloadSchema.parse(payload);
    const r = await runSchedule(deps.db, scheduleId, payloadNow(payload));
    helpers.logger.info(`schedule ${scheduleId}: ${r.status}${r.jobId ? ` (job ${r.jobId})` : ''}`);
  };
}
