// The one table of plan constants (spec section 9). Server and browser both read it: prices and
// CTA labels for the pricing pages, gates/quotas/limits for enforcement.
import { z } from 'zod';

export const planTypeSchema = z.enum(['free', 'starter', 'pro', 'business', 'enterprise']);
export type PlanType = z.infer<typeof planTypeSchema>;

/** Spec section 4: plan rank decides upgrade / same plan / downgrade. */
export const PLAN_RANK: Record<PlanType, number> = { free: 0, starter: 1, pro: 2, business: 3, enterprise: 4 };

/** Stands for "unlimited" in integer columns (team_member_limit, quotas). */
export const UNLIMITED = 1_000_000_000;

export interface PlanDefinition {
  type: PlanType;
  name: string;
  /** Monthly price; null = custom (Enterprise). */
  priceUSD: number | null;
  priceINR: number | null;
  period: string;
  description: string;
  /** Validations included per month (credits granted on upgrade and at each monthly reset). */
  monthlyValidations: number;
  volumeLabel: string;
  features: string[];
  apiRateLabel: string;
  /** Requests per second for the public API; null = custom. */
  apiRatePerSecond: number | null;
  /** Total members of the account, owner included (spec: Free none, Starter 1, Pro 2, Business 10, Enterprise unlimited). */
  teamMemberLimit: number;
  teamLabel: string;
  support: string;
  cta: string;
  /** Most Popular on the landing page pricing (Pro); the billing screen marks Starter (spec section 2). */
  popularOnLanding: boolean;
  popularOnBilling: boolean;
  /** Gates (spec section 6). */
  smtpCheck: boolean;
  csvUpload: boolean;
  apiKeys: boolean;
  autoRevalidation: boolean;
  integrations: boolean;
  /** Job webhooks (webhook_url on POST /v1/bulk): Pro and up (spec section 9). */
  webhooks: boolean;
  /** Analytics (Pro and up): validations over time, list quality per schedule, credits vs quota, top reasons. */
  analytics: boolean;
  /** Advanced reporting (Business and up): analytics filtered by source and dates, CSV export. */
  advancedReporting: boolean;
  /** White-label (Business and up): logo, brand colour, custom domain. */
  whiteLabel: boolean;
  /** Full rebranding (Enterprise): also the product name and the mail sender name. */
  fullRebranding: boolean;
  /** Unused credits carry over at the monthly reset. */
  rollover: boolean;
}

/**
 * Each gate (spec section 6) opens at one plan and stays open on every plan above it: stated once
 * here, spread into the plan rows below.
 */
const GATE_FROM: Record<PlanGate | 'rollover', PlanType> = {
  smtpCheck: 'starter', csvUpload: 'starter', apiKeys: 'starter',
  autoRevalidation: 'pro', webhooks: 'pro', analytics: 'pro', rollover: 'pro',
  advancedReporting: 'business', whiteLabel: 'business',
  integrations: 'enterprise', fullRebranding: 'enterprise',
};

function gatesOf(type: PlanType): Record<PlanGate | 'rollover', boolean> {
  const open = (g: PlanGate | 'rollover') => PLAN_RANK[type] >= PLAN_RANK[GATE_FROM[g]];
  return Object.fromEntries((Object.keys(GATE_FROM) as Array<PlanGate | 'rollover'>).map((g) => [g, open(g)])) as Record<PlanGate | 'rollover', boolean>;
}

const PLAN_ROWS: ReadonlyArray<Omit<PlanDefinition, PlanGate | 'rollover'>> = [
  {
    type: 'free', name: 'Free', priceUSD: 0, priceINR: 0, period: '/month',
    description: 'Try Mailvet with 500 free validations. No card required.',
    monthlyValidations: 500, volumeLabel: '500 validations',
    features: ['500 validations', 'Syntax and MX checks', 'No CSV upload', 'No SMTP mailbox check', 'API: 1 request/second', 'Community support'],
    apiRateLabel: '1 req/s', apiRatePerSecond: 1, teamMemberLimit: 1, teamLabel: 'No team members', support: 'Community support',
    cta: 'Start Free', popularOnLanding: false, popularOnBilling: false,
  },
  {
    type: 'starter', name: 'Starter', priceUSD: 19, priceINR: 999, period: '/month',
    description: 'Full verification for small lists and growing senders.',
    monthlyValidations: 10_000, volumeLabel: '10,000 validations/month',
    features: ['10,000 validations/month', 'Full syntax, MX and SMTP checks', 'CSV upload', 'Disposable and role detection', 'API: 3 requests/second', '1 user', 'Email support'],
    apiRateLabel: '3 req/s', apiRatePerSecond: 3, teamMemberLimit: 1, teamLabel: '1 user', support: 'Email support',
    cta: 'Get Started', popularOnLanding: false, popularOnBilling: true,
  },
  {
    type: 'pro', name: 'Pro', priceUSD: 79, priceINR: 2999, period: '/month',
    description: 'Bulk cleaning, webhooks and analytics for marketing teams.',
    monthlyValidations: 100_000, volumeLabel: '100,000 validations/month',
    features: ['100,000 validations/month', 'Bulk validation', 'Webhooks', 'Analytics dashboard', 'Rollover of unused credits', 'Auto revalidation', 'API: 10 requests/second', 'Up to 2 team members', 'Priority email support'],
    apiRateLabel: '10 req/s', apiRatePerSecond: 10, teamMemberLimit: 2, teamLabel: '2 team members', support: 'Priority email support',
    cta: 'Get Started', popularOnLanding: true, popularOnBilling: false,
  },
  {
    type: 'business', name: 'Business', priceUSD: 199, priceINR: 7999, period: '/month',
    description: 'High volume, white-label and an uptime SLA for agencies and platforms.',
    monthlyValidations: 500_000, volumeLabel: '500,000 validations/month',
    features: ['500,000 validations/month', 'All Pro features', 'White-label (custom logo and domain)', 'Uptime SLA', 'Advanced reporting', 'API: 25 requests/second (dedicated webhook and API limit)', 'Up to 10 team members', 'Priority and chat support'],
    apiRateLabel: '25 req/s', apiRatePerSecond: 25, teamMemberLimit: 10, teamLabel: 'Up to 10 team members', support: 'Priority and chat support',
    cta: 'Get Started', popularOnLanding: false, popularOnBilling: false,
  },
  {
    type: 'enterprise', name: 'Enterprise', priceUSD: null, priceINR: null, period: '',
    description: 'Dedicated infrastructure and terms for the largest senders.',
    monthlyValidations: UNLIMITED, volumeLabel: 'Unlimited or custom volume',
    features: ['Unlimited or custom volume', 'Dedicated nodes and IPs', 'On-premise option', 'Custom SLA', 'Full white-label and rebranding', 'Webhook, Zapier and custom API integrations', 'Custom API rate', 'Unlimited team members', '24/7 support'],
    apiRateLabel: 'Custom', apiRatePerSecond: null, teamMemberLimit: UNLIMITED, teamLabel: 'Unlimited team members', support: '24/7 support',
    cta: 'Contact Sales', popularOnLanding: false, popularOnBilling: false,
  },
];

export const PLANS: readonly PlanDefinition[] = PLAN_ROWS.map((row) => ({ ...row, ...gatesOf(row.type) }));

export const SALES_EMAIL = 'sales@mailvet.io';
export const SUPPORT_EMAIL = 'support@mailvet.io';
export const FREE_SIGNUP_CREDITS = 500;
export const ANNUAL_DISCOUNT_PERCENT = 20;

export function planByType(type: PlanType): PlanDefinition {
  const plan = PLANS.find((p) => p.type === type);
  if (!plan) throw new Error(`unknown plan ${type}`);
  return plan;
}

export type Currency = 'USD' | 'INR';

/** "$19", "₹2,999", "Custom". */
export function formatPlanPrice(plan: PlanDefinition, currency: Currency): string {
  const amount = currency === 'INR' ? plan.priceINR : plan.priceUSD;
  if (amount === null) return 'Custom';
  return currency === 'INR' ? `₹${amount.toLocaleString('en-IN')}` : `$${amount.toLocaleString('en-US')}`;
}

/** Which plans include what (the gate names the UI and server share). */
export type PlanGate = 'smtpCheck' | 'csvUpload' | 'apiKeys' | 'autoRevalidation' | 'integrations' | 'webhooks' | 'analytics' | 'advancedReporting' | 'whiteLabel' | 'fullRebranding';

export function planAllows(type: PlanType, gate: PlanGate): boolean {
  return planByType(type)[gate];
}

export function isUnlimited(n: number): boolean {
  return n >= UNLIMITED;
}

/**
 * A credit balance as the screens show it: "Unlimited" on a plan of unlimited volume (Enterprise,
 * whose balance is a stand-in: UNLIMITED less what was used), else the number ("1,234").
 */
export function creditsLabel(balance: number, monthlyQuota: number): string {
  return isUnlimited(monthlyQuota) ? 'Unlimited' : balance.toLocaleString('en-US');
}

// ── Billing intervals (issue #10): annual prices are derived from the monthly ones above ──

export const billingIntervalSchema = z.enum(['monthly', 'annual'], { error: 'Billing interval must be monthly or annual.' });
export type BillingInterval = z.infer<typeof billingIntervalSchema>;
export const PAID_PLAN_TYPES = ['starter', 'pro', 'business'] as const;
export type PaidPlanType = (typeof PAID_PLAN_TYPES)[number];

export function isPaidPlanType(type: PlanType): type is PaidPlanType {
  return (PAID_PLAN_TYPES as readonly string[]).includes(type);
}

/** Monthly price in minor units (cents, paise), or null for custom (Enterprise). */
export function monthlyPriceMinor(plan: PlanDefinition, currency: Currency): number | null {
  const major = currency === 'INR' ? plan.priceINR : plan.priceUSD;
  return major === null ? null : Math.round(major * 100);
}

/** What one billing period costs in minor units: a month, or twelve months less ANNUAL_DISCOUNT_PERCENT. */
export function periodPriceMinor(plan: PlanDefinition, currency: Currency, interval: BillingInterval): number | null {
  const monthly = monthlyPriceMinor(plan, currency);
  if (monthly === null) return null;
  return interval === 'monthly' ? monthly : Math.round((monthly * 12 * (100 - ANNUAL_DISCOUNT_PERCENT)) / 100);
}

/** "$19.00"-style amount from minor units ("₹9,590.40"); whole amounts drop the decimals. */
export function formatMinorAmount(minor: number, currency: Currency | string): string {
  const major = minor / 100;
  const whole = Number.isInteger(major);
  const opts = { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 };
  if (currency === 'INR') return `₹${major.toLocaleString('en-IN', opts)}`;
  if (currency === 'USD') return `$${major.toLocaleString('en-US', opts)}`;
  return `${major.toLocaleString('en-US', opts)} ${currency}`;
}

/** The price a plan card shows for an interval: per month, and for annual also the yearly total. */
export function intervalPriceLabel(plan: PlanDefinition, currency: Currency, interval: BillingInterval): { perMonth: string; billed: string | null } {
  const period = periodPriceMinor(plan, currency, interval);
  if (period === null) return { perMonth: 'Custom', billed: null };
  if (interval === 'monthly' || period === 0) return { perMonth: formatMinorAmount(period, currency), billed: null };
  return { perMonth: formatMinorAmount(Math.round(period / 12), currency), billed: `${formatMinorAmount(period, currency)} billed yearly` };
}

/** Days a failed renewal keeps the service running before the account is suspended. */
export const PAST_DUE_GRACE_DAYS = 7;
/** Days after a charge within which an owner may ask for a refund of an unused period. */
export const REFUND_WINDOW_DAYS = 14;
