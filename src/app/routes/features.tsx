import { ArrowRight } from 'lucide-react';
import { MarketingLayout, MarketingPageHeader } from '../../components/layouts/marketing-layout';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { CtaButtons } from '../../features/marketing/cta-buttons';
import { FeatureGrid, coreFeatures, moreFeatures } from '../../features/marketing/feature-grid';
import { MarketingSection } from '../../features/marketing/marketing-section';

const pipeline = [
  { step: '01', title: 'Syntax', description: 'Parse the address against RFC 5321 and spot common domain typos.' },
  { step: '02', title: 'DNS', description: 'Confirm the domain resolves and check its registration age.' },
  { step: '03', title: 'MX', description: 'Find the mail exchangers and check them against blacklists.' },
  { step: '04', title: 'SMTP', description: 'Open a handshake and ask whether the mailbox accepts mail.' },
  { step: '05', title: 'Score', description: 'Combine every signal into a verdict and a 0–100 score.' },
] as const;

const verdicts = [
  { label: 'Valid', className: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20', text: 'The mailbox exists and accepts mail. Safe to send.' },
  { label: 'Risky', className: 'bg-amber-50 text-amber-800 ring-amber-600/25', text: 'Catch-all, disposable or role-based. Deliverable, but handle with care.' },
  { label: 'Invalid', className: 'bg-red-50 text-red-700 ring-red-600/20', text: 'Bad syntax, no mail server or a rejected mailbox. Remove it.' },
] as const;

export default function FeaturesRoute() {
  return (
    <MarketingLayout title="Features">
      <MarketingPageHeader
        eyebrow="Features"
        title="Every check between you and the inbox"
        description="Mailvet runs syntax, DNS, MX and SMTP checks, detects disposable, role-based and catch-all addresses, and scores each result — in under a second, for one address or ten thousand."
      >
        <CtaButtons to={paths.documentation} className="mt-8">
          View Documentation
        </CtaButtons>
      </MarketingPageHeader>

      <MarketingSection id="pipeline-heading" title="How a check works" center>
        <ol role="list" className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {pipeline.map((p) => (
            <li key={p.step} className="relative rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
              <span className="font-mono text-xs font-semibold text-brand-600">{p.step}</span>
              <h3 className="mt-2 font-semibold text-slate-900">{p.title}</h3>
              <p className="mt-1.5 text-sm leading-6 text-slate-600">{p.description}</p>
            </li>
          ))}
        </ol>
        <ul role="list" className="mt-10 grid gap-4 md:grid-cols-3">
          {verdicts.map((v) => (
            <li key={v.label} className="flex items-start gap-3 rounded-xl bg-slate-50 p-4">
              <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${v.className}`}>{v.label}</span>
              <p className="text-sm text-slate-600">{v.text}</p>
            </li>
          ))}
        </ul>
      </MarketingSection>

      <MarketingSection
        id="core-heading"
        title="Core validation"
        intro="Included in every check your plan allows, from the dashboard, a CSV upload or the API."
        band
      >
        <FeatureGrid features={coreFeatures} className="mt-10" />
      </MarketingSection>

      <MarketingSection
        id="more-heading"
        title="Built for teams and platforms"
        intro="Scoring, scheduling, collaboration and integrations for when email quality is part of your product."
      >
        <FeatureGrid features={moreFeatures} columns={3} className="mt-10" />
      </MarketingSection>

      <section className="px-4 pb-24 sm:px-6 lg:px-8">
        <div className="mx-auto flex max-w-5xl flex-col items-center justify-between gap-6 rounded-3xl bg-slate-900 px-8 py-12 text-center md:flex-row md:text-left">
          <div>
            <h2 className="text-2xl font-bold text-white">Compare plans and limits</h2>
            <p className="mt-2 text-slate-300">SMTP checks, CSV uploads, API rates and team sizes by plan.</p>
          </div>
          <Button to={paths.pricing} size="lg" variant="inverse">
            See pricing <ArrowRight className="size-4" aria-hidden="true" />
          </Button>
        </div>
      </section>
    </MarketingLayout>
  );
}
