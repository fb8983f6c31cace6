// billing-tick (cron, every 10 minutes): past_due accounts whose 7-day grace ended become
// suspended (mail to the owner); cancelled plans whose paid period ended fall to Free.
// Payload { now? } for a fake clock.
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../../deps';
import { billingTick } from '../../features/billing/billing-tick';
import { payloadNow } from '../clock';

export function billingTickTask(deps: AppDeps): Task {
  return async (payload, helpers) => {
    const r = await billingTick(deps, payloadNow(payload));
    if (r.suspended.length + r.fellToFree.length + r.refilled.length > 0) {
      helpers.logger.info(`billing: ${r.suspended.length} suspended, ${r.fellToFree.length} fell to Free, ${r.refilled.length} annual month(s) refilled`);
    }
  };
}
