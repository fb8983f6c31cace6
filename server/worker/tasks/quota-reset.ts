// quota-reset (monthly cron, backfilled): starts a new usage period for every account still in an
// older one; the rules live in features/credits/monthly-reset.ts. Payload { now? } for a fake clock.
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../../deps';
import { resetMonthlyQuotas } from '../../features/credits/monthly-reset';
import { payloadNow } from '../clock';

export function quotaResetTask(deps: AppDeps): Task {
  return async (payload, helpers) => {
    const rows = await resetMonthlyQuotas(deps.db, payloadNow(payload));
    helpers.logger.info(`quota reset for ${rows.length} account(s)`);
  };
}
