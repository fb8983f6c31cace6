// What the Billing screen and the checkout handler say to the owner (errors and confirmations).
import { REFUND_WINDOW_DAYS, SALES_EMAIL, SUPPORT_EMAIL } from '../../contracts/plans';

export const BILLING_MESSAGES = {
  alreadySubscribed: (plan: string) => `You are already on the ${plan} plan.`,
  downgrade: 'Please contact support to downgrade your plan.',
  enterprise: `Enterprise plans are arranged with our sales team: write to ${SALES_EMAIL}.`,
  unavailable: 'Payments are not available right now. Please contact support.',
  providerFailed: 'Failed to process payment. Please try again.',
  unknownSubscription: 'We could not find this subscription for your account.',
  badSignature: 'The payment signature is invalid.',
  testDisabled: 'Test payments are disabled: real payments are configured.',
  noSubscription: 'This account has no running subscription.',
  alreadyCancelled: 'Your subscription is already cancelled; the plan ends with the current period.',
  changeScheduled: (plan: string, date: string) => `Your plan changes to ${plan} at your next renewal on ${date}.`,
  noPlanChange: 'No plan change is waiting for your renewal.',
  changeWithdrawn: (plan: string) => `Your subscription stays on the ${plan} plan; nothing changes at the renewal.`,
  changeUndone: (to: string, plan: string, date: string) =>
    `Nothing was charged: your plan does not change to ${to}. Your ${plan} plan stays cancelled and ends on ${date}, then the account moves to Free; you can resume it until then.`,
  changeUndoneEnded: (to: string) => `Nothing was charged: your plan does not change to ${to}. The account is now on the Free plan.`,
  noRefundable: 'There is no payment to refund on this account.',
  refundWindow: `Refunds are available within ${REFUND_WINDOW_DAYS} days of a payment.`,
  refundUsed: 'Refunds are available only while the period’s credits are unused, and this period’s credits have been used.',
  refundFailed: `The refund could not be made right now. Please try again or write to ${SUPPORT_EMAIL}.`,
  paymentInProgress: 'A payment for this account is being processed. Please wait a minute, then reload this page.',
  resumeCheckout: (plan: string, date: string) => `Nothing is charged now: your ${plan} plan goes on after ${date}, when the next period is charged to the card you confirm.`,
  changeAtPeriodEnd: (plan: string, date: string) => `Nothing is charged now: your plan changes to ${plan} on ${date}, when its first period is charged to the card you confirm.`,
  resumeTooLate: (plan: string, date: string) => `Your ${plan} plan ends in a few minutes (${date}), too soon to keep it going. Once the account is on the Free plan, choose ${plan} again to subscribe.`,
  resumedWithChange: (plan: string, date: string) => `Your subscription is no longer cancelled: your plan changes to ${plan} on ${date}, when its first period is charged.`,
  resumeLate: `Your subscription could not be resumed: the plan changed meanwhile. Nothing was charged; reload this page to see your plan, or write to ${SUPPORT_EMAIL}.`,
  resumed: (plan: string, date: string) => `Your ${plan} plan is no longer cancelled. It renews on ${date}, when the next period is charged.`,
  secondPayment: 'Your subscription had already been paid for this period, so this payment is being refunded to you.',
  stopFailed: `Your subscription could not be stopped at Razorpay, so nothing was deleted. Please try again or write to ${SUPPORT_EMAIL}.`,
} as const;
