import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreditCard, FlaskConical, Info } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { PLAN_RANK, SALES_EMAIL, isUnlimited, planByType, type Currency, type PlanDefinition, type PlanType } from '../../../server/contracts/plans';
import { PageHeader } from '../../components/layouts/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useTRPC } from '../../lib/trpc';
import { BILLING_TEXT, BRAND_COLOR, errorMessage } from './messages';
import { PlanCards, PricingNotes } from './pricing-section';
import { openRazorpayCheckout, type RazorpaySuccess } from './razorpay-checkout';
import { TestCheckoutDialog, type TestOrder } from './test-checkout-dialog';
import { useCurrency } from './use-currency';

const salesHref = `mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Mailvet Enterprise plan enquiry')}`;

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
  const createOrder = useMutation(trpc.billing.createOrder.mutationOptions());
  const completeTest = useMutation(trpc.billing.completeTestPayment.mutationOptions());
  const verify = useMutation(trpc.billing.verifyPayment.mutationOptions());

  const [pendingPlan, setPendingPlan] = useState<PlanType | null>(null);
  const [testOrder, setTestOrder] = useState<(TestOrder & { planType: PlanType }) | null>(null);

  const currentPlan = me.data?.plan;
  const isOwner = me.data?.role === 'owner';
  const mode = config.data?.mode;
  const paymentsOff = mode === 'unavailable';

  async function verifyProof(proof: RazorpaySuccess, planType: PlanType) {
    try {
      const r = await verify.mutateAsync({ ...proof, planType });
      if (r.applied) toast.success(BILLING_TEXT.successTitle, { description: BILLING_TEXT.successBody(r.planName) });
      else toast.error(BILLING_TEXT.errorTitle, { description: r.message ?? BILLING_TEXT.processFailed });
    } catch (err) {
      toast.error(BILLING_TEXT.verifyFailedTitle, { description: errorMessage(err, BILLING_TEXT.verifyFailedFallback) });
    } finally {
      // The displayed plan, credits and quota come from account.me.
      await queryClient.invalidateQueries({ queryKey: trpc.account.me.queryKey() });
    }
  }

  async function upgrade(plan: PlanDefinition, cur: Currency) {
    if (!isOwner) {
      toast.error(BILLING_TEXT.errorTitle, { description: BILLING_TEXT.ownerOnly });
      return;
    }
    setPendingPlan(plan.type);
    let order;
    try {
      order = await createOrder.mutateAsync({ planType: plan.type, currency: cur });
    } catch (err) {
      toast.error(BILLING_TEXT.errorTitle, { description: errorMessage(err, BILLING_TEXT.processFailed) });
      setPendingPlan(null);
      return;
    }
    if (order.mode === 'test') {
      setTestOrder({ orderId: order.orderId, amount: order.amount, currency: order.currency, planName: order.planName, description: order.description, planType: order.planType });
      return;
    }
    try {
      const outcome = await openRazorpayCheckout({
        keyId: order.keyId,
        orderId: order.orderId,
        amount: order.amount,
        currency: order.currency,
        description: order.description,
        color: BRAND_COLOR,
        prefill: { email: me.data?.user.email, name: me.data?.user.name },
        onFailed: (message) => toast.error(BILLING_TEXT.errorTitle, { description: message }),
      });
      if (outcome.kind === 'paid') await verifyProof(outcome.response, order.planType);
      else toast(BILLING_TEXT.cancelledTitle, { description: BILLING_TEXT.cancelledBody });
    } catch (err) {
      toast.error(BILLING_TEXT.errorTitle, { description: errorMessage(err, BILLING_TEXT.processFailed) });
    } finally {
      setPendingPlan(null);
    }
  }

  async function payTest() {
    if (!testOrder) return;
    const { orderId, planType } = testOrder;
    try {
      const proof = await completeTest.mutateAsync({ orderId });
      await verifyProof(proof, planType);
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

  function renderAction(plan: PlanDefinition, ctx: { currency: Currency; isCurrent: boolean; isPopular: boolean }) {
    if (!currentPlan) return <Button variant="outline" className="w-full" disabled>Loading…</Button>;
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
        onClick={() => void upgrade(plan, ctx.currency)}
      >
        Upgrade to {plan.name}
      </Button>
    );
  }

  const current = currentPlan ? planByType(currentPlan) : null;
  return (
    <div className="space-y-8">
      <PageHeader title="Billing" description="Choose the plan that fits your volume. Upgrades apply as soon as the payment is verified." />

      <Card>
        <dl className="grid divide-y divide-slate-100 sm:grid-cols-4 sm:divide-x sm:divide-y-0">
          <Stat label="Current plan" value={current?.name ?? '…'} testId="current-plan" />
          <Stat label="Credits balance" value={me.data ? me.data.credits_balance.toLocaleString('en-US') : '…'} testId="credits-balance" />
          <Stat
            label="Monthly quota"
            value={me.data ? (isUnlimited(me.data.monthly_validations_quota) ? 'Unlimited' : me.data.monthly_validations_quota.toLocaleString('en-US')) : '…'}
          />
          <Stat label="Team size" value={me.data ? (isUnlimited(me.data.team_member_limit) ? 'Unlimited' : `${me.data.team_member_limit} total`) : '…'} />
        </dl>
      </Card>

      {(mode === 'test' || paymentsOff || (me.data && !isOwner)) && (
        <div className="space-y-3">
          {mode === 'test' && (
            <p role="note" className="flex gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              <FlaskConical className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
              Payments are in test mode on this server (no Razorpay keys): upgrading opens a test checkout and no money is taken.
            </p>
          )}
          {paymentsOff && (
            <p role="note" className="flex gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
              <CreditCard className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
              Online payments are not available right now. Please contact support to change your plan.
            </p>
          )}
          {me.data && !isOwner && (
            <p role="note" className="flex gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
              <Info className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
              {BILLING_TEXT.ownerOnly} Ask the owner of this account to upgrade.
            </p>
          )}
        </div>
      )}

      <section aria-label="Plans" className="space-y-8">
        <PricingNotes currency={currency} />
        <PlanCards popular="billing" currency={currency} currentPlan={currentPlan} renderAction={renderAction} layout="dashboard" className="pt-2" />
        <p className="text-center text-sm text-slate-500">
          Prices are per month. Payments are processed securely by Razorpay. Need to downgrade or cancel? Contact support.
        </p>
      </section>

      <TestCheckoutDialog order={testOrder} busy={completeTest.isPending || verify.isPending} onPay={() => void payTest()} onClose={closeTest} />
    </div>
  );
}
