// Billing screen calls (spec section 7): create-razorpay-order and verify-razorpay-payment, plus the
// local test checkout's payment step. Only the account owner pays.
import { z } from 'zod';
import { planTypeSchema } from '../../contracts/plans';
import { router } from '../../trpc/init';
import { accountProcedure, requirePermission } from '../../trpc/procedures';
import { completeTestPayment, createOrder, gatewayFor, verifyPayment } from './billing.service';

const currencySchema = z.enum(['USD', 'INR'], { error: 'Currency must be USD or INR.' });
const providerId = z.string().trim().min(1).max(100);

export const createOrderInput = z.object({ planType: planTypeSchema, currency: currencySchema.default('USD') });

export const verifyPaymentInput = z.object({
  razorpay_payment_id: providerId,
  razorpay_order_id: providerId,
  razorpay_signature: z.string().trim().min(1).max(200),
  planType: planTypeSchema,
});

const ownerOnly = requirePermission('billing.pay');

export const billingRouter = router({
  /** How this server takes payments: Razorpay checkout, the local test checkout, or none. */
  config: accountProcedure.query(({ ctx }) => {
    const gateway = gatewayFor(ctx.deps);
    return { mode: gateway?.mode ?? ('unavailable' as const), canPay: ctx.role === 'owner' };
  }),

  /** create-razorpay-order {planType, currency} → keyId, amount (minor units), currency, orderId. */
  createOrder: accountProcedure
    .use(ownerOnly)
    .input(createOrderInput)
    .mutation(({ ctx, input }) =>
      createOrder(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id, plan: ctx.plan, planType: input.planType, currency: input.currency }),
    ),

  /** Test checkout only (no Razorpay keys, not production): a payment id and its server-made signature. */
  completeTestPayment: accountProcedure
    .use(ownerOnly)
    .input(z.object({ orderId: providerId }))
    .mutation(({ ctx, input }) => completeTestPayment(ctx.deps, { accountId: ctx.accountId, orderId: input.orderId })),

  /** verify-razorpay-payment: HMAC checked in constant time; applies the upgrade once. */
  verifyPayment: accountProcedure
    .use(ownerOnly)
    .input(verifyPaymentInput)
    .mutation(({ ctx, input }) => verifyPayment(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id, ...input })),
});
