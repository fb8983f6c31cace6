// Billing: plan upgrades paid through Razorpay (or the labelled local test checkout when no keys
// are configured). Plan rank decides what may be bought; a verified payment sets the plan, quota,
// team size and grants the plan's monthly credits once, in one transaction with an audit entry.
import type { Db } from '../../../db/client';
import type { Plan } from '../../../db/types';
import { PLAN_RANK, SALES_EMAIL, SUPPORT_EMAIL, planByType, type Currency, type PlanType } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { isValidPaymentSignature, paymentGateway, paymentSignature, testPaymentId, type PaymentGateway } from './razorpay';

export const BILLING_MESSAGES = {
  alreadySubscribed: (plan: string) => `You are already on the ${plan} plan.`,
  downgrade: 'Please contact support to downgrade your plan.',
  enterprise: `Enterprise plans are arranged with our sales team: write to ${SALES_EMAIL}.`,
  unavailable: 'Payments are not available right now. Please contact support.',
  providerFailed: 'Failed to process payment. Please try again.',
  unknownOrder: 'We could not find this payment order for your account.',
  wrongPlan: 'This payment order is for a different plan.',
  badSignature: 'The payment signature is invalid.',
  orderPaidByOther: 'This order has already been paid with another payment.',
  paymentReused: 'This payment has already been used for another order.',
  testDisabled: 'Test payments are disabled: real payments are configured.',
  notApplied: (plan: string) => `Your account is already on the ${plan} plan, so this payment did not change it. Please contact ${SUPPORT_EMAIL} about a refund.`,
} as const;

/** The gateway for this server (Razorpay with keys, the local test checkout without). */
export function gatewayFor(deps: AppDeps): PaymentGateway | null {
  const secret = (deps.auth.options as { secret?: string }).secret ?? deps.env.BETTER_AUTH_SECRET ?? '';
  return paymentGateway(deps.env, secret);
}

/** Price in minor units (cents, paise) of a purchasable plan. */
export function planAmountMinor(plan: PlanType, currency: Currency): number {
  const def = planByType(plan);
  const major = currency === 'INR' ? def.priceINR : def.priceUSD;
  if (major === null || major <= 0) throw new AppError('BAD_INPUT', BILLING_MESSAGES.enterprise);
  return Math.round(major * 100);
}

/** Spec section 4: same plan → Already Subscribed; lower → Downgrade Not Available; Enterprise → sales. */
export function assertUpgrade(current: Plan, target: PlanType): void {
  if (target === 'enterprise') throw new AppError('BAD_INPUT', BILLING_MESSAGES.enterprise);
  if (PLAN_RANK[target] === PLAN_RANK[current]) throw new AppError('CONFLICT', BILLING_MESSAGES.alreadySubscribed(planByType(current).name));
  if (PLAN_RANK[target] < PLAN_RANK[current]) throw new AppError('CONFLICT', BILLING_MESSAGES.downgrade);
}

export interface OrderResponse {
  keyId: string;
  amount: number;
  currency: Currency;
  orderId: string;
  /** 'test': open the local test checkout instead of Razorpay's. */
  mode: 'razorpay' | 'test';
  planType: PlanType;
  planName: string;
  description: string;
}

export async function createOrder(
  deps: AppDeps,
  o: { accountId: string; userId: string; plan: Plan; planType: PlanType; currency: Currency },
): Promise<OrderResponse> {
  assertUpgrade(o.plan, o.planType);
  const gateway = gatewayFor(deps);
  if (!gateway) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.unavailable);
  const amount = planAmountMinor(o.planType, o.currency);
  const planName = planByType(o.planType).name;
  let order;
  try {
    order = await gateway.createOrder({
      amount,
      currency: o.currency,
      receipt: `mv_${Date.now().toString(36)}_${o.accountId.slice(0, 12)}`,
      notes: { account_id: o.accountId, plan: o.planType, user_id: o.userId },
    });
  } catch (err) {
    console.error('[billing] order creation failed:', (err as { error?: unknown })?.error ?? err);
    throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.providerFailed);
  }
  if (order.amount !== amount || order.currency !== o.currency) {
    console.error('[billing] provider answered a different amount/currency', order);
    throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.providerFailed);
  }
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('payment_order')
      .values({ id: order.id, account_id: o.accountId, created_by: o.userId, plan: o.planType, currency: o.currency, amount, mode: gateway.mode })
      .execute();
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.order_created', targetType: 'payment_order', targetId: order.id, data: { plan: o.planType, currency: o.currency, amount, mode: gateway.mode } });
  });
  return { keyId: gateway.keyId, amount, currency: o.currency, orderId: order.id, mode: gateway.mode, planType: o.planType, planName, description: `${planName} plan (monthly)` };
}

export interface PaymentProof {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

/** The local test checkout's "payment": a payment id and the signature Razorpay would send. */
export async function completeTestPayment(deps: AppDeps, o: { accountId: string; orderId: string }): Promise<PaymentProof> {
  const gateway = gatewayFor(deps);
  if (!gateway || gateway.mode !== 'test') throw new AppError('PERMISSION_DENIED', BILLING_MESSAGES.testDisabled);
  const order = await deps.db
    .selectFrom('payment_order')
    .select(['id', 'mode', 'status'])
    .where('id', '=', o.orderId)
    .where('account_id', '=', o.accountId)
    .executeTakeFirst();
  if (!order || order.mode !== 'test') throw new AppError('NOT_FOUND', BILLING_MESSAGES.unknownOrder);
  const paymentId = testPaymentId();
  return { razorpay_payment_id: paymentId, razorpay_order_id: order.id, razorpay_signature: paymentSignature(order.id, paymentId, gateway.signingSecret) };
}

export interface VerifyResult {
  plan: PlanType;
  planName: string;
  /** True when this payment had already been applied (a replay): nothing changed. */
  alreadyProcessed: boolean;
  /** False when the account was already on this plan or higher: payment recorded, plan unchanged. */
  applied: boolean;
  message: string | null;
}

/** The signing secret for an order of this mode on this server, or null when that mode is off. */
function secretForMode(deps: AppDeps, mode: 'razorpay' | 'test'): string | null {
  if (mode === 'razorpay') return deps.env.RAZORPAY_KEY_SECRET ?? null;
  const gateway = gatewayFor(deps);
  return gateway?.mode === 'test' ? gateway.signingSecret : null;
}

export async function verifyPayment(
  deps: AppDeps,
  o: { accountId: string; userId: string; planType: PlanType } & PaymentProof,
): Promise<VerifyResult> {
  const db: Db = deps.db;
  const order = await db
    .selectFrom('payment_order')
    .selectAll()
    .where('id', '=', o.razorpay_order_id)
    .where('account_id', '=', o.accountId)
    .executeTakeFirst();
  const fail = async (message: string, reason: string) => {
    await writeAudit(db, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.payment_verification_failed', targetType: 'payment_order', targetId: o.razorpay_order_id.slice(0, 100), data: { reason, payment_id: o.razorpay_payment_id.slice(0, 100) } });
    return new AppError('BAD_INPUT', message);
  };
  if (!order) throw await fail(BILLING_MESSAGES.unknownOrder, 'unknown_order');
  if (order.plan !== o.planType) throw await fail(BILLING_MESSAGES.wrongPlan, 'plan_mismatch');
  const secret = secretForMode(deps, order.mode);
  if (!secret) throw await fail(BILLING_MESSAGES.unavailable, 'mode_unavailable');
  if (!isValidPaymentSignature({ orderId: order.id, paymentId: o.razorpay_payment_id, signature: o.razorpay_signature, secret })) {
    throw await fail(BILLING_MESSAGES.badSignature, 'bad_signature');
  }

  const plan = planByType(order.plan);
  return db.transaction().execute(async (trx) => {
    const locked = await trx.selectFrom('payment_order').selectAll().where('id', '=', order.id).forUpdate().executeTakeFirstOrThrow();
    if (locked.status === 'paid') {
      if (locked.payment_id === o.razorpay_payment_id) return { plan: plan.type, planName: plan.name, alreadyProcessed: true, applied: true, message: null };
      throw new AppError('CONFLICT', BILLING_MESSAGES.orderPaidByOther);
    }
    const reused = await trx.selectFrom('payment_order').select('id').where('payment_id', '=', o.razorpay_payment_id).executeTakeFirst();
    if (reused) throw new AppError('CONFLICT', BILLING_MESSAGES.paymentReused);

    const account = await trx.selectFrom('account').select(['plan', 'credits_balance']).where('id', '=', o.accountId).forUpdate().executeTakeFirstOrThrow();
    await trx.updateTable('payment_order').set({ status: 'paid', payment_id: o.razorpay_payment_id, paid_at: new Date() }).where('id', '=', order.id).execute();
    const audit = { order_id: order.id, payment_id: o.razorpay_payment_id, amount: order.amount, currency: order.currency, mode: order.mode };

    if (PLAN_RANK[account.plan] >= PLAN_RANK[plan.type]) {
      // Paid for a plan the account already has or exceeds (e.g. two checkouts raced): record, never downgrade.
      await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'billing.payment_not_applied', targetType: 'payment_order', targetId: order.id, data: { ...audit, current_plan: account.plan, plan: plan.type } });
      const current = planByType(account.plan).name;
      return { plan: account.plan, planName: current, alreadyProcessed: false, applied: false, message: BILLING_MESSAGES.notApplied(current) };
    }

    await trx
      .updateTable('account')
      .set((eb) => ({
        plan: plan.type,
        monthly_validations_quota: plan.monthlyValidations,
        team_member_limit: plan.teamMemberLimit,
        credits_balance: eb('credits_balance', '+', plan.monthlyValidations),
        updated_at: new Date(),
      }))
      .where('id', '=', o.accountId)
      .execute();
    await writeAudit(trx, {
      accountId: o.accountId,
      actorUserId: o.userId,
      action: 'billing.plan_upgraded',
      targetType: 'account',
      targetId: o.accountId,
      data: { ...audit, from_plan: account.plan, plan: plan.type, credits_granted: plan.monthlyValidations },
    });
    return { plan: plan.type, planName: plan.name, alreadyProcessed: false, applied: true, message: null };
  });
}
