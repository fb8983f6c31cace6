import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { REFUND_WINDOW_DAYS, creditsLabel, formatMinorAmount, isUnlimited, planByType, type BillingInterval, type PlanDefinition, type PlanType } from '../../../server/contracts/plans';
import { FAIR_CHARGING_RULE } from '../../../server/contracts/charging';
import { PageHeader } from '../../components/layouts/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { useConfirmAction } from '../../hooks/use-confirm-action';
import { useTRPC } from '../../lib/trpc';
import { errorMessage } from '../../lib/error-message';
import { BILLING_TEXT, BRAND_COLOR } from './messages';
import { IntervalSwitch, PlanCards, PricingNotes } from './pricing-section';
import { openRazorpayCheckout, type RazorpaySuccess } from './razorpay-checkout';
import { TestCheckoutDialog, type TestOrder } from './test-checkout-dialog';
import { useCurrency } from './use-currency';
import { PlanLoadFailed } from '../jobs/plan-load-failed';
import { day, PlanCardAction, utcNote, type PlanCardContext } from './plan-card-action';
import { BillingStateNotices, PaymentModeNotes } from './billing-notices';
import { PaymentsTable } from './payments-table';

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="px-5 py-4">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export function BillingScreen() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { currency } = useCurrency();
  const me = useQuery(trpc.account.me.queryOptions());
  const config = useQuery(trpc.billing.config.queryOptions());
  const overview = useQuery(trpc.billing.overview.queryOptions());
  const payments = useQuery(trpc.billing.payments.queryOptions());
  const checkout = useMutation(trpc.billing.checkout.mutationOptions());
  const cancel = useMutation(trpc.billing.cancel.mutationOptions());
  const refund = useMutation(trpc.billing.refund.mutationOptions());
  const keepPlan = useMutation(trpc.billing.keepCurrentPlan.mutationOptions());
  // The Monthly/Annual switch starts on the subscription's own interval (monthly without one), so an
  // annual customer's cards show annual prices and an upgrade is not silently scheduled as monthly.
  const [chosenInterval, setBillingInterval] = useState<BillingInterval | null>(null);
  const interval: BillingInterval = chosenInterval ?? overview.data?.interval ?? 'monthly';
  const completeTest = useMutation(trpc.billing.completeTestPayment.mutationOptions());
  const verify = useMutation(trpc.billing.verifyPayment.mutationOptions());

  const [pendingPlan, setPendingPlan] = useState<PlanType | null>(null);
  const [testOrder, setTestOrder] = useState<(TestOrder & { planType: PlanType }) | null>(null);

  const currentPlan = me.data?.plan;
  const isOwner = me.data?.role === 'owner';
  const mode = config.data?.mode;
  const paymentsOff = mode === 'unavailable';

  async function refreshAll() {
    await Promise.all([
      // account.* (me, and Overview's plan, credits and quota) and the plan's white-label brand.
      queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.branding.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.billing.overview.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.billing.payments.queryKey() }),
    ]);
  }

  async function verifyProof(proof: RazorpaySuccess) {
    try {
      const r = await verify.mutateAsync(proof);
      if (r.resumed) toast.success(BILLING_TEXT.resumedTitle, { description: r.message ?? '' });
      else if (r.applied) toast.success(BILLING_TEXT.successTitle, { description: r.otherAccount ? BILLING_TEXT.successOtherAccountBody(r.planName, r.accountName) : BILLING_TEXT.successBody(r.planName) });
      else toast.error(BILLING_TEXT.errorTitle, { description: r.message ?? BILLING_TEXT.processFailed });
    } catch (err) {
      toast.error(BILLING_TEXT.verifyFailedTitle, { description: errorMessage(err, BILLING_TEXT.verifyFailedFallback) });
    } finally {
      // The displayed plan, credits, quota and period come from the server.
      await refreshAll();
    }
  }

  async function upgrade(plan: PlanDefinition) {
    if (!isOwner) {
      toast.error(BILLING_TEXT.errorTitle, { description: BILLING_TEXT.ownerOnly });
      return;
    }
    setPendingPlan(plan.type);
    let order;
    try {
      order = await checkout.mutateAsync({ planType: plan.type, interval });
    } catch (err) {
      toast.error(BILLING_TEXT.errorTitle, { description: errorMessage(err, BILLING_TEXT.processFailed) });
      setPendingPlan(null);
      return;
    }
    if (order.kind === 'scheduled' || !order.subscriptionId) {
      toast.success(BILLING_TEXT.changeScheduledTitle, { description: order.message ?? '' });
      setPendingPlan(null);
      await refreshAll();
      return;
    }
    if (order.mode === 'test') {
      setTestOrder({ orderId: order.subscriptionId, amount: order.amount, currency: order.currency, planName: order.planName, description: order.description, planType: order.planType, note: order.message });
      return;
    }
    // A cancelled plan resumed: Razorpay's checkout only confirms the card; say so before it opens.
    if (order.message) toast.info(BILLING_TEXT.resumeConfirmTitle, { description: order.message });
    try {
      const outcome = await openRazorpayCheckout({
        keyId: order.keyId,
        subscriptionId: order.subscriptionId,
        description: order.description,
        color: BRAND_COLOR,
        prefill: { email: me.data?.user.email, name: me.data?.user.name },
        onFailed: (message) => toast.error(BILLING_TEXT.errorTitle, { description: message }),
      });
      if (outcome.kind === 'paid') await verifyProof(outcome.response);
      else toast(BILLING_TEXT.cancelledTitle, { description: BILLING_TEXT.cancelledBody });
    } catch (err) {
      toast.error(BILLING_TEXT.errorTitle, { description: errorMessage(err, BILLING_TEXT.processFailed) });
    } finally {
      setPendingPlan(null);
    }
  }

  // A running subscription changes plan (or interval) at its renewal, without a checkout to
  // confirm in: ask first, as for every other change to what the owner pays.
  // (Not a cancelled plan, or a resumed one not started yet: a plan chosen then opens a checkout that confirms the card.)
  const changesAtRenewal = (o: typeof overview.data) => !!o && o.status !== 'none' && o.status !== 'past_due' && o.status !== 'suspended' && !o.cancelAtPeriodEnd && !o.resumePending;
  const scheduling = useConfirmAction<{ plan: PlanDefinition; from: string; interval: BillingInterval; on: string }>({
    run: ({ plan }) => upgrade(plan),
    onError: (err) => toast.error(BILLING_TEXT.errorTitle, { description: errorMessage(err, BILLING_TEXT.processFailed) }),
    closeOnError: true,
  });
  function choose(plan: PlanDefinition) {
    const ov = overview.data;
    if (isOwner && changesAtRenewal(ov) && currentPlan) {
      scheduling.ask({ plan, from: planByType(currentPlan).name, interval, on: day(ov!.currentPeriodEnd) });
      return;
    }
    void upgrade(plan);
  }

  async function payTest() {
    if (!testOrder) return;
    const { orderId } = testOrder;
    try {
      const proof = await completeTest.mutateAsync({ subscriptionId: orderId });
      await verifyProof(proof);
    } catch (err) {
      toast.error(BILLING_TEXT.errorTitle, { description: errorMessage(err, BILLING_TEXT.processFailed) });
    } finally {
      setTestOrder(null);
      setPendingPlan(null);
    }
  }

  function closeTest() {
    setTestOrder(null);
    setPendingPlan(null);
    toast(BILLING_TEXT.cancelledTitle, { description: BILLING_TEXT.cancelledBody });
  }

  const renderAction = (plan: PlanDefinition, ctx: PlanCardContext) => (
    <PlanCardAction plan={plan} ctx={ctx} overview={overview.data} currentPlan={currentPlan} planFailed={me.isError} pendingPlan={pendingPlan} isOwner={isOwner} paymentsOff={paymentsOff} onPay={(p) => void upgrade(p)} onChoose={choose} />
  );

  const current = currentPlan ? planByType(currentPlan) : null;
  const ov = overview.data;

  // Cancelling and refunding each ask first (the dialog says what happens), like every other
  // action the user cannot take back; the target is what the dialog's text names. A refusal (say,
  // the plan changed meanwhile) closes the dialog and shows the fresh state.
  function failed(err: unknown) {
    toast.error(BILLING_TEXT.errorTitle, { description: errorMessage(err, BILLING_TEXT.processFailed) });
    void refreshAll();
  }
  const cancellation = useConfirmAction<{ plan: string; endsOn: string; unpaid: boolean }>({
    async run() {
      const r = await cancel.mutateAsync();
      toast.success('Subscription cancelled', {
        description: r.endedNow ? 'The account is now on the Free plan. Your data is kept.' : `Your plan stays active until ${day(r.endsAt)}, then the account moves to Free. Your data is kept.`,
      });
    },
    onError: failed,
    onDone: refreshAll,
    closeOnError: true,
  });

  // A plan change scheduled for the renewal can be taken back until then (the renewal then charges the current plan).
  // Once per click: the button's busy state comes a render later, and a double-click's second call
  // found nothing left to take back ('Error: No plan change is waiting for your renewal.').
  const keeping = useRef(false);
  async function keepCurrentPlan() {
    if (keeping.current) return;
    keeping.current = true;
    try {
      const r = await keepPlan.mutateAsync();
      toast.success(BILLING_TEXT.changeWithdrawnTitle, { description: r.message });
    } catch (err) {
      toast.error(BILLING_TEXT.errorTitle, { description: errorMessage(err, BILLING_TEXT.processFailed) });
    } finally {
      await refreshAll();
      keeping.current = false;
    }
  }
  // A plan (or interval) chosen after cancelling waits, not charged, for the period's end: taking it
  // back stops it, and the plan is cancelled again as before the choice — asked first, as it ends the plan.
  const undoing = useConfirmAction<{ to: string; plan: string; endsOn: string }>({
    async run() {
      const r = await keepPlan.mutateAsync();
      toast.success(BILLING_TEXT.changeWithdrawnTitle, { description: r.message });
    },
    onError: failed,
    onDone: refreshAll,
    closeOnError: true,
  });
  // The period a change waited for is over: the change has started (Razorpay charges it now; its
  // webhook may still be on its way), too late to take back (the server refuses it too).
  const changeStarted = (o: NonNullable<typeof ov>) =>
    o.status === 'active' && !o.cancelAtPeriodEnd && (o.nextPlan !== null || o.nextInterval !== null) && o.currentPeriodEnd !== null && new Date(o.currentPeriodEnd).getTime() <= Date.now();
  const changeName = (o: NonNullable<typeof ov>) =>
    o.nextPlan ? planByType(o.nextPlan).name : `${current?.name ?? ''}, billed ${o.nextInterval === 'annual' ? 'annually' : 'monthly'}`;

  const refunding = useConfirmAction<{ plan: string; amount: string }>({
    async run() {
      const r = await refund.mutateAsync();
      toast.success('Refund requested', { description: `${formatMinorAmount(r.amount, r.currency)} is on its way back to your card. Your account is now on the Free plan.` });
    },
    onError: failed,
    onDone: refreshAll,
    closeOnError: true,
  });

  return (
    <div className="space-y-8">
      <PageHeader title="Billing" description="Choose the plan that fits your volume. Upgrades apply as soon as the payment is verified." />
      {me.isError && <PlanLoadFailed onRetry={() => void me.refetch()} />}

      <BillingStateNotices overview={ov} />

      <Card>
        <dl className="grid divide-y divide-slate-100 sm:grid-cols-4 sm:divide-x sm:divide-y-0">
          <Stat label="Current plan" value={current ? `${current.name}${ov?.interval ? ` (${ov.interval === 'annual' ? 'annual' : 'monthly'})` : ''}` : '…'} testId="current-plan" />
          <Stat label="Credits balance" value={me.data ? creditsLabel(me.data.credits_balance, me.data.monthly_validations_quota) : '…'} testId="credits-balance" />
          <Stat
            label="Monthly quota"
            value={me.data ? (isUnlimited(me.data.monthly_validations_quota) ? 'Unlimited' : me.data.monthly_validations_quota.toLocaleString('en-US')) : '…'}
          />
          <Stat label="Team size" value={me.data ? (isUnlimited(me.data.team_member_limit) ? 'Unlimited' : `${me.data.team_member_limit} total`) : '…'} />
        </dl>
        {ov && ov.status !== 'none' && (
          <div className="flex flex-wrap items-center justify-between gap-4 border-t border-slate-100 px-5 py-4 text-sm">
            <div className="space-y-1">
              <p className="text-slate-700" data-testid="renewal">
                {ov.status === 'suspended' && ov.paused ? (
                  <>{BILLING_TEXT.pausedSince(day(ov.currentPeriodEnd))}</>
                ) : ov.status === 'past_due' || ov.status === 'suspended' ? (
                  <>Unpaid since <strong>{day(ov.currentPeriodEnd)}</strong>: the renewal could not be charged. Pay now on your plan’s card below.</>
                ) : ov.cancelAtPeriodEnd ? (
                  <>Cancelled — your plan ends on <strong>{day(ov.currentPeriodEnd)}</strong>, then the account moves to Free.</>
                ) : changeStarted(ov) ? (
                  <>{BILLING_TEXT.changeStarted(changeName(ov), day(ov.currentPeriodEnd))}</>
                ) : (
                  <>
                    Renews on <strong>{day(ov.currentPeriodEnd)}</strong>
                    {ov.nextPlan ? <> — then changes to the {planByType(ov.nextPlan).name} plan</> : null}
                    {ov.nextInterval ? <>, billed {ov.nextInterval === 'annual' ? 'annually' : 'monthly'} from then on</> : null}.
                  </>
                )}
              </p>
              <p className="text-xs text-slate-500" data-testid="billing-dates-utc">{utcNote(ov.currentPeriodEnd)}</p>
            </div>
            <div className="flex flex-wrap gap-2">
              {isOwner && (ov.nextPlan || ov.nextInterval) && changesAtRenewal(ov) && !changeStarted(ov) && (
                <Button variant="outline" size="sm" loading={keepPlan.isPending} onClick={() => void keepCurrentPlan()}>
                  Keep my current plan
                </Button>
              )}
              {isOwner && (ov.nextPlan || ov.nextInterval) && ov.resumePending && ov.status === 'active' && !changeStarted(ov) && (
                <Button variant="outline" size="sm" onClick={() => undoing.ask({ to: changeName(ov), plan: current?.name ?? '', endsOn: day(ov.currentPeriodEnd) })}>
                  Undo plan change
                </Button>
              )}
              {isOwner && !ov.cancelAtPeriodEnd && (
                <Button variant="outline" size="sm" onClick={() => cancellation.ask({ plan: current?.name ?? '', endsOn: day(ov.currentPeriodEnd), unpaid: ov.status === 'past_due' || ov.status === 'suspended' })}>
                  Cancel subscription
                </Button>
              )}
            </div>
          </div>
        )}
      </Card>

      <PaymentModeNotes mode={mode} notOwner={!!me.data && !isOwner} />

      <section aria-label="Plans" className="space-y-8">
        <PricingNotes currency={ov?.currency ?? currency} />
        <div className="flex justify-center">
          <IntervalSwitch value={interval} onChange={setBillingInterval} />
        </div>
        <PlanCards popular="billing" currency={ov?.currency ?? currency} interval={interval} currentPlan={currentPlan} renderAction={renderAction} layout="dashboard" className="pt-2" />
        <p className="text-center text-sm text-slate-500" data-testid="plan-change-rule">
          Plans renew automatically each period. Changing plan while subscribed takes effect at your next renewal (no proration); upgrading from Free starts at once.
          Payments are processed securely by Razorpay. Need to downgrade? Contact support.
        </p>
        <p className="text-center text-sm text-slate-500" data-testid="fair-charging-rule">
          {FAIR_CHARGING_RULE}
        </p>
      </section>

      <section aria-labelledby="payments-heading" className="space-y-3">
        <h2 id="payments-heading" className="text-lg font-semibold text-slate-900">Payments</h2>
        <PaymentsTable payments={payments.data} />
        {isOwner && ov && payments.data && payments.data.some((p) => p.status === 'captured') && (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <Button
              variant="outline"
              size="sm"
              disabled={!ov.refund.eligible}
              onClick={() => ov.refund.eligible && refunding.ask({ plan: current?.name ?? '', amount: formatMinorAmount(ov.refund.amount, ov.refund.currency) })}
            >
              Request refund
            </Button>
            <span className="text-slate-600" data-testid="refund-note">
              {ov.refund.eligible
                ? `Refunds are possible within ${REFUND_WINDOW_DAYS} days of a payment while the period's credits are unused; your plan moves to Free at once.`
                : ov.refund.reason}
            </span>
          </div>
        )}
      </section>

      <ConfirmDialog
        {...cancellation.dialog}
        title={BILLING_TEXT.cancelSubscriptionTitle}
        description={
          cancellation.target
            ? cancellation.target.unpaid
              ? BILLING_TEXT.cancelUnpaidBody(cancellation.target.plan)
              : BILLING_TEXT.cancelSubscriptionBody(cancellation.target.plan, cancellation.target.endsOn)
            : ''
        }
        confirmLabel="Cancel subscription"
        cancelLabel="Keep subscription"
      />
      <ConfirmDialog
        {...refunding.dialog}
        title={BILLING_TEXT.refundTitle}
        description={refunding.target ? BILLING_TEXT.refundBody(refunding.target.amount, refunding.target.plan) : ''}
        confirmLabel="Refund and move to Free"
        cancelLabel="Keep my plan"
      />
      <ConfirmDialog
        {...scheduling.dialog}
        title={scheduling.target ? BILLING_TEXT.changeAtRenewalTitle(scheduling.target.plan.name) : ''}
        description={
          scheduling.target
            ? BILLING_TEXT.changeAtRenewalBody(scheduling.target.from, scheduling.target.plan.name, scheduling.target.interval === 'annual' ? 'annually' : 'monthly', scheduling.target.on)
            : ''
        }
        confirmLabel="Schedule change"
        cancelLabel="Keep my plan"
      />
      <ConfirmDialog
        {...undoing.dialog}
        title={undoing.target ? BILLING_TEXT.undoChangeTitle(undoing.target.to) : ''}
        description={undoing.target ? BILLING_TEXT.undoChangeBody(undoing.target.to, undoing.target.plan, undoing.target.endsOn) : ''}
        confirmLabel="Undo plan change"
        cancelLabel="Keep the change"
      />
      <TestCheckoutDialog order={testOrder} busy={completeTest.isPending || verify.isPending} onPay={() => void payTest()} onClose={closeTest} />
    </div>
  );
}
