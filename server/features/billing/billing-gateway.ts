// The payment gateway this server talks to (Razorpay with keys, the labelled local test checkout
// without), and stopping subscriptions at it.
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { BILLING_MESSAGES } from './billing-messages';
import { LIVE_STATUSES } from './subscription-lifecycle';
import { paymentGateway, type PaymentGateway } from './razorpay';

/** The gateway for this server (Razorpay with keys, the local test checkout without). */
export function gatewayFor(deps: AppDeps): PaymentGateway | null {
  const secret = (deps.auth.options as { secret?: string }).secret ?? deps.env.BETTER_AUTH_SECRET ?? '';
  return paymentGateway(deps.env, secret);
}

export const providerError = (err: unknown, what: string): AppError => {
  console.error(`[billing] ${what} failed:`, (err as { error?: unknown })?.error ?? err);
  return new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.providerFailed);
};

/** Razorpay's statuses of a subscription that can take no more payments. */
const ENDED_AT_GATEWAY = new Set(['cancelled', 'completed', 'expired']);

/** Stops a subscription at Razorpay at once (one Razorpay has already ended counts as stopped); our row is the caller's to update. */
export async function stopAtGateway(gateway: PaymentGateway, subscriptionId: string): Promise<void> {
  try {
    await gateway.cancelSubscription(subscriptionId, false);
  } catch (err) {
    const status = await gateway.subscriptionStatus(subscriptionId).catch(() => null);
    if (status === null || !ENDED_AT_GATEWAY.has(status)) throw err;
  }
}

/**
 * Stops a subscription at Razorpay at once and records it cancelled. One Razorpay has already ended
 * (our row had not heard yet: a late or lost webhook) answers the cancel with an error; it counts as
 * stopped.
 */
export async function stopSubscription(deps: AppDeps, gateway: PaymentGateway, subscriptionId: string): Promise<void> {
  await stopAtGateway(gateway, subscriptionId);
  await deps.db.updateTable('subscription').set({ status: 'cancelled', updated_at: new Date() }).where('id', '=', subscriptionId).where('status', 'in', LIVE_STATUSES).execute();
}

/**
 * Stops at Razorpay, at once, every subscription of these accounts that could still take a payment:
 * the accounts are about to be deleted, and nothing may bill the customer for an account that is
 * gone. Throws (so that nothing is deleted) when one cannot be stopped. Returns the ids stopped.
 */
export async function stopSubscriptionsOf(deps: AppDeps, accountIds: string[]): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const subs = await deps.db.selectFrom('subscription').select(['id', 'mode']).where('account_id', 'in', accountIds).where('status', 'in', LIVE_STATUSES).execute();
  if (subs.length === 0) return [];
  const gateway = gatewayFor(deps);
  for (const s of subs) {
    if (!gateway || gateway.mode !== s.mode) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.stopFailed);
    try {
      await stopSubscription(deps, gateway, s.id);
    } catch (err) {
      console.error('[billing] could not stop a subscription before deleting its account:', (err as { error?: unknown })?.error ?? err);
      throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.stopFailed);
    }
  }
  return subs.map((s) => s.id);
}
