// Billing screen calls: checkout (a Razorpay subscription), the checkout handler's verification,
// the local test checkout's payment step, cancel, refund, the billing overview and payments.
// Paying, cancelling and refunds are owner-only; the currency is decided on the server.
import { z } from 'zod';
import { billingIntervalSchema, planTypeSchema } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { middleware, publicProcedure, router } from '../../trpc/init';
import { accountProcedure, requirePermission } from '../../trpc/procedures';
import { resolveMembership } from '../account/membership';
import { billingOverview, listPayments } from './billing.queries';
import { keepCurrentPlan, startCheckout } from './billing-checkout';
import { completeTestPayment, verifyPayment } from './billing-payment';
import { cancelSubscription, refundLatestPayment } from './billing-cancel';
import { gatewayFor } from './billing-gateway';
import { BILLING_MESSAGES } from './billing-messages';
import { decideCurrency } from './currency';

const providerId = z.string().trim().min(1).max(100);

export const checkoutInput = z.object({ planType: planTypeSchema, interval: billingIntervalSchema.default('monthly') });

export const verifyPaymentInput = z.object({
  razorpay_payment_id: providerId,
  razorpay_subscription_id: providerId,
  razorpay_signature: z.string().trim().min(1).max(200),
});

const ownerOnly = requirePermission('billing.pay');

/**
 * The labelled test checkout is a developer tool: it exists only for callers on this machine (the
 * socket's address, as the dev outbox), so a server started with HOST=0.0.0.0 does not hand plans
 * out to the LAN. Anyone else sees no payments, as without keys and developer tools.
 */
function gatewayForCaller(ctx: { deps: AppDeps; fromThisMachine: boolean }) {
  const gateway = gatewayFor(ctx.deps);
  return gateway?.mode === 'test' && !ctx.fromThisMachine ? null : gateway;
}

const testCheckoutHere = middleware(function testCheckoutHere({ ctx, next }) {
  if (gatewayFor(ctx.deps)?.mode === 'test' && !ctx.fromThisMachine) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.unavailable);
  return next();
});

const testPaymentHere = middleware(function testPaymentHere({ ctx, next }) {
  if (gatewayFor(ctx.deps)?.mode === 'test' && !ctx.fromThisMachine) throw new AppError('PERMISSION_DENIED', BILLING_MESSAGES.testElsewhere);
  return next();
});

export const billingRouter = router({
  /** How this server takes payments: Razorpay checkout, the local test checkout, or none. */
  config: accountProcedure.query(({ ctx }) => {
    const gateway = gatewayForCaller(ctx);
    return { mode: gateway?.mode ?? ('unavailable' as const), canPay: ctx.role === 'owner' };
  }),

  /** The pricing currency for this caller (account's billing country, else the IP's country). */
  currency: publicProcedure.query(async ({ ctx }) => {
    const session = ctx.user;
    let accountId: string | null = null;
    if (session) {
      accountId = (await resolveMembership(ctx.deps.db, session.id, ctx.sessionId))?.accountId ?? null;
    }
    const d = await decideCurrency(ctx.deps, { accountId, ip: ctx.ip });
    return { currency: d.currency };
  }),

  overview: accountProcedure.query(({ ctx }) => billingOverview(ctx.deps, { accountId: ctx.accountId, ip: ctx.ip })),

  payments: accountProcedure.query(({ ctx }) => listPayments(ctx.deps.db, ctx.accountId)),

  /** Upgrade: a subscription to open checkout with, or a plan change scheduled for the renewal. */
  checkout: accountProcedure
    .use(ownerOnly)
    .use(testCheckoutHere)
    .input(checkoutInput)
    .mutation(({ ctx, input }) => startCheckout(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id, planType: input.planType, interval: input.interval, ip: ctx.ip })),

  /** Test checkout only (no Razorpay keys, DEV_TOOLS): plays Razorpay (signed webhooks), returns the handler proof. */
  completeTestPayment: accountProcedure
    .use(testPaymentHere)
    .input(z.object({ subscriptionId: providerId }))
    .mutation(({ ctx, input }) => completeTestPayment(ctx.deps, { userId: ctx.user.id, subscriptionId: input.subscriptionId })),

  /**
   * The checkout handler's answer: HMAC(payment_id|subscription_id) checked in constant time; the
   * charge applies once, to the subscription's account, which the caller must own (not necessarily
   * the account the session works in now: an invitation accepted in another tab switches it).
   */
  verifyPayment: accountProcedure
    .input(verifyPaymentInput)
    .mutation(({ ctx, input }) => verifyPayment(ctx.deps, { activeAccountId: ctx.accountId, userId: ctx.user.id, ...input })),

  /** Takes back a plan change scheduled for the renewal: the subscription renews on its current plan. */
  keepCurrentPlan: accountProcedure.use(ownerOnly).mutation(({ ctx }) => keepCurrentPlan(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id })),

  cancel: accountProcedure.use(ownerOnly).mutation(({ ctx }) => cancelSubscription(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id })),

  refund: accountProcedure.use(ownerOnly).mutation(({ ctx }) => refundLatestPayment(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id })),
});
