// webhook-deliver: sends one webhook delivery (payload { deliveryId }; { jobId } from before delivery
// rows existed). Runs on the webhook runner (server/worker/runner.ts), never on the bulk-job one.
// Throwing makes graphile-worker retry with exponential backoff; a delivered webhook is never sent twice.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { deliverJobWebhook, deliverWebhook } from '../../features/webhooks/webhook-delivery';

const payloadSchema = z.union([z.object({ deliveryId: z.uuid() }), z.object({ jobId: z.uuid() })]);

export function webhookDeliverTask(deps: AppDeps): Task {
  return async (payload, helpers) => {
    const p = payloadSchema.parse(payload);
    const attempt = { number: helpers.job.attempts, max: helpers.job.max_attempts };
    const outcome = 'deliveryId' in p ? await deliverWebhook(deps, p.deliveryId, attempt) : await deliverJobWebhook(deps, p.jobId, attempt);
    if (outcome.kind === 'refused') helpers.logger.warn(`webhook ${'deliveryId' in p ? p.deliveryId : p.jobId} refused: ${outcome.message}`);
  };
}
