import { Check, Globe, Minus } from 'lucide-react';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  ANNUAL_DISCOUNT_PERCENT,
  PLANS,
  SALES_EMAIL,
  intervalPriceLabel,
  type BillingInterval,
  type Currency,
  type PlanDefinition,
  type PlanType,
} from '../../../server/contracts/plans';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { cn } from '../../lib/cn';
import { useCurrency } from './use-currency';

/** Which screen's "Most Popular" reading applies (spec section 2: Pro on the landing page, Starter on billing). */
export type PopularOn = 'landing' | 'billing';

export interface PlanActionContext {
  currency: Currency;
  interval: BillingInterval;
  isCurrent: boolean;
  isPopular: boolean;
}

export interface PlanCardsProps {
  popular: PopularOn;
  currency: Currency;
  interval?: BillingInterval;
  /** Marks this plan with a 'Current' badge (dashboard Billing). */
  currentPlan?: PlanType;
  /** Replaces the default CTA (link to /auth, or mailto sales for Enterprise). */
  renderAction?: (plan: PlanDefinition, ctx: PlanActionContext) => ReactNode;
  /** 'dashboard': fewer columns, for the narrower content area beside the sidebar (five only on very wide screens). */
  layout?: 'page' | 'dashboard';
  /** The visitor's currency is still being looked up: prices are placeholders, not dollars that turn into rupees. */
  pricePending?: boolean;
  className?: string;
}

const GRID_LAYOUTS = {
  page: 'sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5',
  dashboard: 'sm:grid-cols-2 xl:grid-cols-3 min-[1760px]:grid-cols-5',
} as const;

const salesHref = `mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Mailvet Enterprise plan enquiry')}`;

/** Default call to action of a plan on the public site. */
export function DefaultPlanAction({ plan, isPopular }: { plan: PlanDefinition; isPopular: boolean }) {
  if (plan.type === 'enterprise') {
    return (
      <Button href={salesHref} variant="outline" className="w-full">
        {plan.cta}
      </Button>
    );
  }
  return (
    <Button to={paths.auth} variant={isPopular ? 'primary' : 'outline'} className="w-full">
      {plan.cta}
    </Button>
  );
}

function isPopularOn(plan: PlanDefinition, popular: PopularOn) {
  return popular === 'landing' ? plan.popularOnLanding : plan.popularOnBilling;
}

/** Features written as "No …" in the plan table are shown as exclusions. */
function isExclusion(feature: string) {
  return /^No\s/.test(feature);
}

/** The five plan cards, straight from PLANS (server/contracts/plans.ts). */
/** Monthly / Annual switch (annual: ANNUAL_DISCOUNT_PERCENT off, derived from the plan table). */
export function IntervalSwitch({ value, onChange, className }: { value: BillingInterval; onChange: (v: BillingInterval) => void; className?: string }) {
  // A radio group from the keyboard: one Tab stop (the checked option), arrow keys choose.
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const next = { ArrowRight: 'annual', ArrowDown: 'annual', ArrowLeft: 'monthly', ArrowUp: 'monthly' }[e.key] as BillingInterval | undefined;
    if (!next) return;
    e.preventDefault();
    onChange(next);
    e.currentTarget.querySelector<HTMLElement>(`[data-interval="${next}"]`)?.focus();
  }
  const option = (v: BillingInterval, label: ReactNode) => (
    <button
      type="button"
      role="radio"
      aria-checked={value === v}
      tabIndex={value === v ? 0 : -1}
      data-interval={v}
      onClick={() => onChange(v)}
      className={cn(
        'cursor-pointer rounded-md px-4 py-1.5 text-sm font-medium transition-colors',
        value === v ? 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200' : 'text-slate-600 hover:text-slate-900',
      )}
    >
      {label}
    </button>
  );
  return (
    <div role="radiogroup" aria-label="Billing period" onKeyDown={onKeyDown} className={cn('inline-flex gap-1 rounded-lg border border-slate-200 bg-slate-100/80 p-1', className)}>
      {option('monthly', 'Monthly')}
      {option(
        'annual',
        <span className="inline-flex items-center gap-1.5">
          Annual <Badge variant="brand">−{ANNUAL_DISCOUNT_PERCENT}%</Badge>
        </span>,
      )}
    </div>
  );
}

export function PlanCards({ popular, currency, interval = 'monthly', currentPlan, renderAction, layout = 'page', pricePending = false, className }: PlanCardsProps) {
  return (
    <ul role="list" className={cn('grid gap-5', GRID_LAYOUTS[layout], className)}>
      {PLANS.map((plan) => {
        const isPopular = isPopularOn(plan, popular);
        const isCurrent = currentPlan === plan.type;
        const price = intervalPriceLabel(plan, currency, interval);
        const pending = pricePending && plan.priceUSD !== null;
        const titleId = `plan-${plan.type}-title`;
        return (
          <li
            key={plan.type}
            aria-labelledby={titleId}
            className={cn(
              'relative flex flex-col rounded-2xl bg-white p-6',
              isPopular ? 'shadow-xl ring-2 shadow-brand-600/10 ring-brand-600' : 'shadow-sm ring-1 ring-slate-200',
              isCurrent && !isPopular && 'ring-2 ring-emerald-500',
            )}
          >
            {isPopular && (
              <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold whitespace-nowrap text-white shadow-sm">
                Most Popular
              </span>
            )}
            <div className="flex items-center justify-between gap-2">
              <h3 id={titleId} className={cn('text-base font-semibold', isPopular ? 'text-brand-700' : 'text-slate-900')}>
                {plan.name}
              </h3>
              {isCurrent && <Badge variant="success">Current</Badge>}
            </div>
            <p className="mt-4 flex items-baseline gap-1">
              {pending ? (
                <span className="h-10 w-24 animate-pulse rounded-md bg-slate-100" data-testid={`price-${plan.type}`} aria-label="Price loading" role="img" />
              ) : (
                <span className="text-4xl font-bold tracking-tight text-slate-900" data-testid={`price-${plan.type}`}>{price.perMonth}</span>
              )}
              {plan.period && <span className="text-sm font-medium text-slate-500">{plan.period}</span>}
            </p>
            {price.billed && !pending && <p className="mt-1 text-xs font-medium text-slate-500" data-testid={`billed-${plan.type}`}>{price.billed}</p>}
            <p className="mt-3 min-h-10 text-sm leading-5 text-slate-600">{plan.description}</p>
            <div className="mt-6">
              {renderAction ? renderAction(plan, { currency, interval, isCurrent, isPopular }) : <DefaultPlanAction plan={plan} isPopular={isPopular} />}
            </div>
            <ul role="list" className="mt-6 space-y-2.5 border-t border-slate-100 pt-6 text-sm leading-5">
              {plan.features.map((feature) =>
                isExclusion(feature) ? (
                  <li key={feature} className="flex gap-2.5 text-slate-400">
                    <Minus className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                    <span>{feature}</span>
                  </li>
                ) : (
                  <li key={feature} className="flex gap-2.5 text-slate-700">
                    <Check className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden="true" />
                    <span>{feature}</span>
                  </li>
                ),
              )}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}

/** "Prices in USD" / "Prices in INR" plus the annual-billing note. */
export function PricingNotes({ currency, pending = false, className }: { currency: Currency; pending?: boolean; className?: string }) {
  return (
    <div className={cn('flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-slate-600', className)}>
      <span className={cn('inline-flex items-center gap-1.5', pending && 'invisible')} aria-hidden={pending || undefined} data-testid="currency-note">
        <Globe className="size-4 text-slate-400" aria-hidden="true" />
        {currency === 'INR' ? 'Prices in INR (₹), based on your location' : 'Prices in USD ($)'}
      </span>
      <span className="inline-flex items-center gap-1.5">
        <Badge variant="brand">Save {ANNUAL_DISCOUNT_PERCENT}%</Badge>
        with annual billing
      </span>
    </div>
  );
}

export interface PricingSectionProps {
  popular: PopularOn;
  currentPlan?: PlanType;
  renderAction?: PlanCardsProps['renderAction'];
  /** Section heading; pass null to omit the heading block (e.g. when the page has its own). */
  title?: ReactNode;
  description?: ReactNode;
  /** Heading level of the title: h1 on /pricing, h2 inside the landing page. */
  as?: 'h1' | 'h2';
  id?: string;
  className?: string;
}

/** Heading, currency and annual notes, and the plan cards. Used by the landing page, /pricing and dashboard Billing. */
export function PricingSection({
  popular,
  currentPlan,
  renderAction,
  title = 'Simple, transparent pricing',
  description = 'Start free with 500 validations. Upgrade when your lists grow, cancel anytime.',
  as: Heading = 'h2',
  id,
  className,
}: PricingSectionProps) {
  // Until the server says which currency (a geolocation lookup, up to a few seconds), no prices:
  // a visitor from India saw the dollar prices first, then rupees.
  const { currency, isLoading: pricePending } = useCurrency();
  const [interval, setBillingInterval] = useState<BillingInterval>('monthly');
  return (
    <section id={id} aria-labelledby={title ? `${id ?? 'pricing'}-heading` : undefined} className={className}>
      {title !== null && (
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Pricing</p>
          <Heading id={`${id ?? 'pricing'}-heading`} className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {title}
          </Heading>
          {description && <p className="mt-4 text-lg text-slate-600">{description}</p>}
        </div>
      )}
      <PricingNotes currency={currency} pending={pricePending} className={title !== null ? 'mt-6' : undefined} />
      <div className="mt-6 flex justify-center">
        <IntervalSwitch value={interval} onChange={setBillingInterval} />
      </div>
      <PlanCards popular={popular} currency={currency} interval={interval} currentPlan={currentPlan} renderAction={renderAction} pricePending={pricePending} className="mt-12" />
      <p className="mt-8 text-center text-sm text-slate-500">
        All plans include SSL encryption, a 99.9% uptime target and GDPR-compliant processing.
      </p>
    </section>
  );
}
