// The button on each plan's card of the Billing page: what choosing that plan does from where the
// account stands (unpaid, cancelled, a change waiting for the period's end, the current plan, …).
import { toast } from 'sonner';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/app-router';
import { PLAN_RANK, SALES_EMAIL, type BillingInterval, type Currency, type PlanDefinition, type PlanType } from '../../../server/contracts/plans';
import { Button } from '../../components/ui/button';
import { BILLING_TEXT } from './messages';

const salesHref = `mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Mailvet Enterprise plan enquiry')}`;

/** "December 24, 2026": how the Billing page writes a day (UTC). */
export const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }) : '—');

/**
 * Billing dates are UTC days (as the server's messages, receipts and emails write them): says so, and
 * when `iso` falls on another day in the browser's zone, when that is there ("January 15, 2027 (UTC)
 * is January 14, 2027, 7:00 PM your time.").
 */
export function utcNote(iso: string | null): string {
  const base = 'Billing dates are UTC days, as on your receipts and billing emails.';
  if (!iso) return base;
  const at = new Date(iso);
  const local = at.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
  if (local === day(iso)) return base;
  return `${base} ${day(iso)} (UTC) is ${local}, ${at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })} your time.`;
}

export interface PlanCardContext {
  currency: Currency;
  interval: BillingInterval;
  isCurrent: boolean;
  isPopular: boolean;
}

export function PlanCardAction({
  plan,
  ctx,
  overview,
  currentPlan,
  planFailed,
  pendingPlan,
  isOwner,
  paymentsOff,
  onPay,
  onChoose,
}: {
  plan: PlanDefinition;
  ctx: PlanCardContext;
  overview: inferRouterOutputs<AppRouter>['billing']['overview'] | undefined;
  currentPlan: PlanType | undefined;
  /** The account's plan could not be loaded. */
  planFailed: boolean;
  pendingPlan: PlanType | null;
  isOwner: boolean;
  paymentsOff: boolean;
  /** Straight to checkout (paying an unpaid plan, resuming, staying on it). */
  onPay: (plan: PlanDefinition) => void;
  /** Another plan or interval chosen (asked first when it waits for the renewal). */
  onChoose: (plan: PlanDefinition) => void;
}) {
  if (!currentPlan) return <Button variant="outline" className="w-full" disabled>{planFailed ? 'Unavailable' : 'Loading…'}</Button>;
  const unpaid = overview?.status === 'past_due' || overview?.status === 'suspended';
  if (ctx.isCurrent && unpaid) {
    // A renewal went unpaid: paying now opens a new subscription that replaces the unpaid one.
    return (
      <Button variant="primary" className="w-full" loading={pendingPlan === plan.type} disabled={!isOwner || paymentsOff} title={!isOwner ? BILLING_TEXT.ownerOnly : undefined} onClick={() => onPay(plan)}>
        Pay now
      </Button>
    );
  }
  // Cancelled, the period still running: the owner can keep the plan (or switch its interval) from
  // the period's end — a new subscription first charged then, nothing now.
  if (ctx.isCurrent && overview?.status === 'active' && overview.cancelAtPeriodEnd) {
    const sameInterval = overview.interval === ctx.interval;
    return (
      <Button variant="primary" className="w-full" loading={pendingPlan === plan.type} disabled={!isOwner || paymentsOff} title={!isOwner ? BILLING_TEXT.ownerOnly : undefined} onClick={() => onPay(plan)}>
        {sameInterval ? 'Resume subscription' : `Resume, billed ${ctx.interval === 'annual' ? 'annually' : 'monthly'}`}
      </Button>
    );
  }
  // Another plan (or interval) chosen after cancelling waits for the period's end: the current plan's
  // card keeps this plan going instead (a new subscription from then, its card confirmed; nothing charged now).
  if (ctx.isCurrent && overview?.status === 'active' && overview.resumePending && (overview.nextPlan ? overview.nextPlan !== plan.type : overview.nextInterval != null) && overview.interval === ctx.interval) {
    return (
      <Button variant="outline" className="w-full" loading={pendingPlan === plan.type} disabled={!isOwner || paymentsOff} title={!isOwner ? BILLING_TEXT.ownerOnly : undefined} onClick={() => onPay(plan)}>
        Stay on {plan.name}
      </Button>
    );
  }
  const running = overview?.status && overview.status !== 'none' && !overview.cancelAtPeriodEnd;
  // The plan the renewal changes to (scheduled, or chosen after cancelling): it starts then, not chosen
  // again — another plan, or this plan on the interval it switches to.
  const renewsAsThis = overview?.nextPlan ? overview.nextPlan === plan.type : ctx.isCurrent && overview?.nextInterval != null;
  const scheduledOn = overview?.status === 'active' && !overview.cancelAtPeriodEnd && renewsAsThis && (overview.nextInterval ?? overview.interval) === ctx.interval ? day(overview.currentPeriodEnd) : null;
  if (scheduledOn) {
    return (
      <Button variant="secondary" className="w-full" onClick={() => toast.info(BILLING_TEXT.changeScheduledTitle, { description: BILLING_TEXT.changeScheduledBody(plan.name, scheduledOn) })}>
        Starts on {scheduledOn}
      </Button>
    );
  }
  // The plan on the other interval than the one it is billed on now: a switch (at the renewal). On the
  // interval it is billed on now it is the current plan, whatever change waits for the renewal.
  if (ctx.isCurrent && running && overview.interval && overview.interval !== ctx.interval) {
    return (
      <Button variant="outline" className="w-full" loading={pendingPlan === plan.type} disabled={!isOwner || paymentsOff} onClick={() => onChoose(plan)}>
        Switch to {ctx.interval === 'annual' ? 'annual' : 'monthly'}
      </Button>
    );
  }
  if (ctx.isCurrent) {
    return (
      <Button
        variant="secondary"
        className="w-full"
        onClick={() => toast.info(BILLING_TEXT.alreadySubscribedTitle, { description: BILLING_TEXT.alreadySubscribedBody(plan.name) })}
      >
        Current Plan
      </Button>
    );
  }
  if (plan.type === 'enterprise') {
    return (
      <Button href={salesHref} variant="outline" className="w-full">
        {plan.cta}
      </Button>
    );
  }
  if (PLAN_RANK[plan.type] < PLAN_RANK[currentPlan]) {
    return (
      <Button variant="outline" className="w-full" onClick={() => toast.error(BILLING_TEXT.downgradeTitle, { description: BILLING_TEXT.downgradeBody })}>
        Downgrade
      </Button>
    );
  }
  return (
    <Button
      variant={ctx.isPopular ? 'primary' : 'outline'}
      className="w-full"
      loading={pendingPlan === plan.type}
      disabled={(pendingPlan !== null && pendingPlan !== plan.type) || !isOwner || paymentsOff}
      title={!isOwner ? BILLING_TEXT.ownerOnly : undefined}
      onClick={() => onChoose(plan)}
    >
      Upgrade to {plan.name}
    </Button>
  );
}
