/**
 * Every recurring job of the worker, in graphile-worker's crontab format (UTC).
 * - schedule-tick: every minute, queues the due auto-revalidation runs.
 * - retention-purge: daily, deletes results, jobs and files older than 90 days.
 * - unverified-purge: daily, deletes sign-ups never verified within a week (features/account/unverified-purge.ts).
 * - quota-reset: on the 1st of each month (backfilled up to a week if the workers were down);
 *   it acts once per usage period, so a repeat is harmless. Monthly subscriptions refill on their
 *   own charges instead (billing-charges.ts); annual ones on their own month starts (billing-tick).
 * - billing-tick: every 10 minutes, suspends accounts whose grace ended, ends cancelled periods and
 *   grants annual plans the monthly credits that are due (once per month, credit_grant).
 * - billing-reconcile: hourly, asks Razorpay about subscriptions that may have missed a webhook and
 *   applies the charges and statuses it holds that we lack (features/billing/billing-reconcile.ts).
 * - bulk-dispatch: every minute, refills any account's window of queued bulk chunks that a path
 *   ending a chunk left unfilled (features/jobs/chunk-dispatch.ts; normally a no-op).
 */
/**
 * graphile-worker runs the lowest priority number first, then the oldest. Bulk chunks are queued at
 * 0, all at once (a 10,000-row upload is 20 of them, queued before the minute's tick): at the same
 * priority the ticks, and the schedule runs they queue, waited behind every chunk queued earlier, so
 * one big upload held every account's revalidation and the billing ticks until it was done. The
 * cron's short tasks (not the retention purge) and the schedule runs go first.
 */
export const CRON_PRIORITY = -10;

export const crontab = [
  `* * * * * schedule-tick ?max=1&priority=${CRON_PRIORITY}`,
  '30 3 * * * retention-purge ?fill=2d&max=3',
  '45 3 * * * unverified-purge ?fill=2d&max=3',
  `5 0 1 * * quota-reset ?fill=7d&max=5&priority=${CRON_PRIORITY}`,
  `*/10 * * * * billing-tick ?max=1&priority=${CRON_PRIORITY}`,
  `20 * * * * billing-reconcile ?max=1&priority=${CRON_PRIORITY}`,
  `* * * * * bulk-dispatch ?max=1&priority=${CRON_PRIORITY}`,
].join('\n');
