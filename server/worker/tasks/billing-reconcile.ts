// billing-reconcile (cron, hourly): asks Razorpay about every subscription that may have missed a
// webhook (checkouts never heard from, periods ended without a renewal, past-due and suspended
// accounts) and applies what Razorpay holds and we lack, through the webhook's own idempotent path
// (features/billing/billing-reconcile.ts). Payload { now? } for a fake clock.
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../../deps';
import { reconcileBilling } from '../../features/billing/billing-reconcile';
import { payloadNow } from '../clock';

export function billingReconcileTask(deps: AppDeps): Task {
  return async (payload, helpers) => {
    const r = await reconcileBilling(deps, payloadNow(payload));
    if (r.applied.length + r.refunded.length + r.failed.length > 0) {
      helpers.logger.info(`billing reconciliation: ${r.checked} checked, ${r.applied.length} event(s) applied, ${r.refunded.length} second payment(s) refunded, ${r.failed.length} failed`);
    }
  };
}
