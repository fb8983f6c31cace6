/**
 * Every recurring job of the worker, in graphile-worker's crontab format (UTC).
 * - schedule-tick: every minute, queues the due auto-revalidation runs.
 * - retention-purge: daily, deletes results, jobs and files older than 90 days.
 * - quota-reset: on the 1st of each month (backfilled up to a week if the workers were down);
 *   it acts once per usage period, so a repeat is harmless. Monthly subscriptions refill on their
 *   own charges instead (billing-events.ts); annual ones on their own month starts (billing-tick).
 * - billing-tick: every 10 minutes, suspends accounts whose grace ended, ends cancelled periods and
 *   grants annual plans the monthly credits that are due (once per month, credit_grant).
 * - billing-reconcile: hourly, asks Razorpay about subscriptions that may have missed a webhook and
 *   applies the charges and statuses it holds that we lack (features/billing/billing-reconcile.ts).
 */
export const crontab = [
  '* * * * * schedule-tick ?max=1',
  '30 3 * * * retention-purge ?fill=2d&max=3',
  '5 0 1 * * quota-reset ?fill=7d&max=5',
  '*/10 * * * * billing-tick ?max=1',
  '20 * * * * billing-reconcile ?max=1',
].join('\n');
