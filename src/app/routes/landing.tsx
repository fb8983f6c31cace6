import { ArrowRight, BookOpen, Check, CheckCircle2, Clock, CreditCard, Gauge, Target, XCircle, Zap } from 'lucide-react';
import { Link } from 'react-router-dom';
import { MarketingLayout } from '../../components/layouts/marketing-layout';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { IconRow } from '../../components/ui/icon-row';
import { paths } from '../../config/paths';
import { PricingSection } from '../../features/billing/pricing-section';
import { FeatureGrid } from '../../features/marketing/feature-grid';
import { StatList } from '../../features/marketing/stat-list';

const reassurances = [
  { icon: CreditCard, label: 'No credit card required' },
  { icon: Clock, label: 'Setup in 2 minutes' },
  { icon: Check, label: 'Cancel anytime' },
] as const;

const highlights = [
  {
    icon: Target,
    title: '99.9% accurate',
    description: 'Syntax, DNS, MX and a live SMTP handshake — layered checks that tell a real mailbox from a dead end.',
  },
  {
    icon: Zap,
    title: 'Sub-second fast',
    description: 'Single checks answer in under a second, so you can validate at sign-up without slowing anyone down.',
  },
  {
    icon: Gauge,
    title: 'Risk scoring',
    description: 'A 0–100 deliverability score flags disposable, role-based and catch-all addresses before they hurt your sender reputation.',
  },
] as const;

const stats = [
  { value: '99.9%', label: 'Validation accuracy' },
  { value: '<1s', label: 'Typical response time' },
  { value: '10,000+', label: 'Companies trust Mailvet' },
  { value: '6', label: 'Continents served' },
] as const;

function ResultPreview() {
  const checks = [
    { label: 'Syntax', ok: true },
    { label: 'DNS', ok: true },
    { label: 'MX records', ok: true },
    { label: 'SMTP mailbox', ok: true },
    { label: 'Disposable', ok: false, note: 'No' },
    { label: 'Role account', ok: false, note: 'No' },
  ];
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md">
      <div className="absolute -inset-4 -z-10 rounded-3xl bg-gradient-to-tr from-brand-100 via-white to-indigo-100 blur-2xl" />
      <div className="rounded-2xl border border-slate-200 bg-white shadow-2xl shadow-slate-900/10">
        <div className="flex items-center gap-1.5 border-b border-slate-100 px-4 py-3">
          <span className="size-2.5 rounded-full bg-slate-200" />
          <span className="size-2.5 rounded-full bg-slate-200" />
          <span className="size-2.5 rounded-full bg-slate-200" />
          <span className="ml-3 font-mono text-xs text-slate-400">POST /v1/validate</span>
        </div>
        <div className="p-5">
          <div className="flex items-center justify-between gap-3">
            <div className="min-w-0">
              <p className="text-xs font-medium text-slate-500">Email address</p>
              <p className="truncate font-medium text-slate-900">jane.cooper@acme-corp.com</p>
            </div>
            <Badge variant="success" className="text-sm">
              <CheckCircle2 className="size-3.5" /> Valid
            </Badge>
          </div>
          <div className="mt-5">
            <div className="flex items-baseline justify-between">
              <p className="text-xs font-medium text-slate-500">Deliverability score</p>
              <p className="text-sm font-semibold text-emerald-600">96%</p>
            </div>
            <div className="mt-2 h-2 rounded-full bg-slate-100">
              <div className="h-2 w-[96%] rounded-full bg-gradient-to-r from-emerald-400 to-emerald-500" />
            </div>
          </div>
          <ul className="mt-5 grid grid-cols-2 gap-2.5 text-sm">
            {checks.map((c) => (
              <li key={c.label} className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2">
                {c.note ? (
                  <XCircle className="size-4 text-slate-300" />
                ) : (
                  <CheckCircle2 className="size-4 text-emerald-500" />
                )}
                <span className="text-slate-700">{c.label}</span>
                {c.note && <span className="ml-auto text-xs text-slate-400">{c.note}</span>}
              </li>
            ))}
          </ul>
          <p className="mt-4 flex items-center justify-between text-xs text-slate-400">
            <span>MX: aspmx.l.google.com</span>
            <span>284 ms</span>
          </p>
        </div>
      </div>
    </div>
  );
}

function Hero() {
  return (
    <section className="relative isolate overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_40rem_at_50%_-10%,var(--color-brand-100),transparent)]"
      />
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 [background-image:linear-gradient(to_right,rgb(15_23_42/0.04)_1px,transparent_1px),linear-gradient(to_bottom,rgb(15_23_42/0.04)_1px,transparent_1px)] [mask-image:radial-gradient(ellipse_at_top,black_30%,transparent_70%)] bg-[size:48px_48px]"
      />
      <div className="mx-auto grid max-w-7xl items-center gap-14 px-4 pt-16 pb-20 sm:px-6 sm:pt-24 lg:grid-cols-[1.1fr_1fr] lg:px-8 lg:pb-28">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-100 bg-white/80 px-3 py-1 text-sm font-medium text-brand-700 shadow-sm">
            <span className="size-1.5 rounded-full bg-brand-500" />
            Trusted by 10,000+ companies
          </p>
          <h1 className="mt-6 text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-6xl">
            Enterprise-Grade <span className="text-brand-600">Email Validation</span>
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg leading-8 text-pretty text-slate-600 lg:mx-0">
            Verify every address in real time with syntax, DNS, MX and SMTP checks. Catch disposable, role-based and catch-all
            addresses, and score each one for deliverability — through the dashboard, bulk CSV uploads or a simple API.
          </p>
          <div className="mt-9 flex flex-col items-center justify-center gap-3 sm:flex-row lg:justify-start">
            <Button to={paths.auth} size="lg" className="w-full sm:w-auto">
              Start Free with 500 Validations
              <ArrowRight className="size-4" aria-hidden="true" />
            </Button>
            <Button to={paths.documentation} size="lg" variant="outline" className="w-full sm:w-auto">
              <BookOpen className="size-4" aria-hidden="true" />
              View Documentation
            </Button>
          </div>
          <ul role="list" className="mt-8 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-slate-600 lg:justify-start">
            {reassurances.map(({ icon: Icon, label }) => (
              <li key={label} className="inline-flex items-center gap-1.5">
                <Icon className="size-4 text-brand-600" aria-hidden="true" />
                {label}
              </li>
            ))}
          </ul>
        </div>
        <ResultPreview />
      </div>
    </section>
  );
}

function Highlights() {
  return (
    <section aria-labelledby="highlights-heading" className="border-y border-slate-200 bg-slate-50/60">
      <h2 id="highlights-heading" className="sr-only">
        Why Mailvet
      </h2>
      <ul role="list" className="mx-auto grid max-w-7xl gap-8 px-4 py-14 sm:px-6 md:grid-cols-3 lg:px-8">
        {highlights.map(({ icon, title, description }) => (
          <IconRow key={title} as="li" tone="solid" icon={icon} title={title}>
            {description}
          </IconRow>
        ))}
      </ul>
    </section>
  );
}

function Features() {
  return (
    <section id="features" aria-labelledby="features-heading" className="mx-auto max-w-7xl px-4 py-24 sm:px-6 lg:px-8">
      <div className="mx-auto max-w-3xl text-center">
        <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Features</p>
        <h2 id="features-heading" className="mt-2 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl">
          Everything you need to keep lists clean
        </h2>
        <p className="mt-4 text-lg text-slate-600">
          Every check a bounce-free send depends on, in one request. Use them one address at a time or across a whole CSV.
        </p>
      </div>
      <FeatureGrid className="mt-14" />
      <div className="mt-10 text-center">
        <Button to={paths.features} variant="link">
          Explore all features <ArrowRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </section>
  );
}

function Stats() {
  return (
    <section aria-label="Mailvet in numbers" className="bg-slate-900">
      <StatList stats={stats} tone="inverse" className="mx-auto max-w-7xl gap-8 px-4 py-14 sm:px-6 lg:px-8" />
    </section>
  );
}

function FinalCta() {
  return (
    <section className="px-4 pb-24 sm:px-6 lg:px-8">
      <div className="relative isolate mx-auto max-w-5xl overflow-hidden rounded-3xl bg-brand-600 px-6 py-16 text-center shadow-xl sm:px-16">
        <div aria-hidden="true" className="absolute inset-0 -z-10 bg-[radial-gradient(40rem_20rem_at_80%_0%,rgb(255_255_255/0.18),transparent)]" />
        <h2 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Stop bouncing. Start validating.</h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-brand-100">
          Your first 500 validations are on us. No credit card, set up in 2 minutes, cancel anytime.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Button to={paths.auth} size="lg" variant="inverse">
            Start Free with 500 Validations
          </Button>
          <Link
            to={paths.contact}
            className="inline-flex h-12 items-center justify-center gap-2 rounded-lg px-6 text-base font-medium text-white transition-colors hover:bg-white/10"
          >
            Talk to us <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>
      </div>
    </section>
  );
}

export default function LandingRoute() {
  return (
    <MarketingLayout>
      <Hero />
      <Highlights />
      <Features />
      <Stats />
      <div className="bg-gradient-to-b from-white to-slate-50 py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <PricingSection popular="landing" id="pricing" />
        </div>
      </div>
      <div className="bg-slate-50">
        <FinalCta />
      </div>
    </MarketingLayout>
  );
}
