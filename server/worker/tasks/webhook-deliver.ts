// webhook-deliver: POSTs a finished job's signed completion webhook. Payload { jobId }. Throwing
// makes graphile-worker retry with exponential backoff; a delivered webhook is never sent twice.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { deliverJobWebhook } from '../../features/webhooks/webhooks.service';

const payloadSchema = z.object({ jobId: z.uuid() });

export function webhookDeliverTask(deps: AppDeps): Task {
  return async (payload, helpers) => {
    const { jobId } = payloadSchema.parse(payload);
    const outcome = await deliverJobWebhook(deps, jobId, { number: helpers.job.attempts, max: helpers.job.max_attempts });
    if (outcome.kind === 'refused') helpers.logger.warn(`webhook for job ${jobId} refused: ${outcome.message}`);
  };
}
