// Spec sections 4 and 8: the Billing screen's texts, verbatim where the spec gives them.
export const BILLING_TEXT = {
  errorTitle: 'Error',
  processFailed: 'Failed to process payment. Please try again.',
  verifyFailedTitle: 'Payment Verification Failed',
  verifyFailedFallback: 'Please contact support.',
  successTitle: 'Payment Successful',
  /** A cancelled plan kept (nothing charged now; the next period is charged at the renewal). */
  resumedTitle: 'Subscription Resumed',
  /** Before Razorpay's checkout opens for a resumed plan (it only confirms the card). */
  resumeConfirmTitle: 'Confirm your card',
  successBody: (plan: string) => `You've been upgraded to the ${plan} plan.`,
  /** The payment was for the caller's other account (they switched teams in another tab while paying). */
  successOtherAccountBody: (plan: string, account: string) =>
    `You've been upgraded to the ${plan} plan. The payment was for your account “${account}”, not the team you are working in now: switch to “${account}” to use it.`,
  alreadySubscribedTitle: 'Already Subscribed',
  alreadySubscribedBody: (plan: string) => `You are already on the ${plan} plan.`,
  downgradeTitle: 'Downgrade Not Available',
  downgradeBody: 'Please contact support to downgrade your plan.',
  ownerOnly: 'Only the account owner can change the plan.',
  cancelledTitle: 'Payment Cancelled',
  cancelledBody: 'No payment was taken. You can upgrade any time.',
  cancelSubscriptionTitle: 'Cancel your subscription?',
  cancelSubscriptionBody: (plan: string, endsOn: string) =>
    `Your ${plan} plan will not renew. It keeps working until ${endsOn}, the end of the period you paid for; then the account moves to the Free plan. Your data is kept.`,
  cancelUnpaidBody: (plan: string) =>
    `Your ${plan} subscription stops now: the unpaid renewal is not charged again, and the account moves to the Free plan at once. Your data is kept.`,
  /** Past due, and Razorpay's retries are over (halted): only paying from this page collects the renewal. */
  haltedPastDue: (graceEnd: string) =>
    `Your last payment failed and Razorpay has stopped retrying it. Your plan keeps working until ${graceEnd}; pay now on your plan’s card below to avoid a suspension (a card updated at Razorpay is charged only from your next renewal).`,
  pausedSuspended:
    'Your subscription is paused at Razorpay, so nothing is charged and validations, uploads, the API and schedules are paused since the end of the period you paid for. Your data is still here to view and export; resuming the subscription, or paying now on your plan’s card below, restores validations.',
  pausedBanner:
    'Your subscription is paused at Razorpay, so validations, uploads, the API and schedules are paused since the end of the period you paid for; your data is still here to view and export.',
  pausedSince: (day: string) => `Paused since ${day}: nothing is charged while the subscription is paused. Pay now on your plan’s card below.`,
  changeAtRenewalTitle: (plan: string) => `Change to the ${plan} plan at renewal?`,
  changeAtRenewalBody: (from: string, to: string, interval: string, on: string) =>
    `Nothing is charged now. Your ${from} plan runs until ${on}; from then on your subscription is the ${to} plan, billed ${interval} at its price.`,
  changeScheduledTitle: 'Plan change scheduled',
  /** As the server answers the same plan chosen again (billing-messages.ts changeScheduled). */
  changeScheduledBody: (plan: string, on: string) => `Your plan changes to ${plan} at your next renewal on ${on}.`,
  /** The renewal line once the period a change waited for is over (its first charge on its way). */
  changeStarted: (to: string, on: string) => `Your plan changed to ${to} on ${on}, when the period you had paid for ended; its first charge is being confirmed.`,
  changeWithdrawnTitle: 'Plan change withdrawn',
  undoChangeTitle: (to: string) => `Undo the change to ${to}?`,
  undoChangeBody: (to: string, plan: string, endsOn: string) =>
    `Nothing has been charged for ${to}: its subscription is stopped before its first charge. Your ${plan} plan stays cancelled, as it was before you chose ${to}: it keeps working until ${endsOn}, then the account moves to the Free plan. Until then you can resume it or choose another plan.`,
  refundTitle: 'Refund this payment?',
  refundBody: (amount: string, plan: string) =>
    `${amount} is refunded to your card and the account moves from the ${plan} plan to the Free plan at once: the paid plan's credits and features end now. This cannot be undone.`,
} as const;

/** "$19.00", "₹999.00" from minor units. */
export function formatMinor(amount: number, currency: string): string {
  return new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', { style: 'currency', currency }).format(amount / 100);
}

/** The brand indigo (styles.css --color-brand-600), for Razorpay's checkout theme. */
export const BRAND_COLOR = '#4f46e5';
