import { Globe2, HeartHandshake, Lock, Target } from 'lucide-react';
import { MarketingLayout, MarketingPageHeader } from '../../components/layouts/marketing-layout';
import { IconCardList } from '../../components/ui/icon-card';
import { paths } from '../../config/paths';
import { CtaButtons } from '../../features/marketing/cta-buttons';
import { MarketingSection } from '../../features/marketing/marketing-section';
import { StatList } from '../../features/marketing/stat-list';

const stats = [
  { value: '2024', label: 'Founded' },
  { value: '10,000+', label: 'Companies served' },
  { value: '6', label: 'Continents' },
  { value: '99.9%', label: 'Accuracy' },
] as const;

const values = [
  {
    icon: Target,
    title: 'Accuracy over guesswork',
    text:
      'An address is only "valid" when the evidence says so. When a server will not give a straight answer we say "unknown" or "risky" rather than pretend.',
  },
  {
    icon: Lock,
    title: 'Privacy by default',
    text:
      'We keep submitted addresses for 90 days and then delete them. We never sell data, never send mail to the addresses we check, and comply with GDPR.',
  },
  {
    icon: HeartHandshake,
    title: 'Built for developers',
    text:
      'A clean REST API, honest rate limits, signed webhooks and examples you can paste. If integrating takes more than an afternoon, we have failed.',
  },
  {
    icon: Globe2,
    title: 'Global from day one',
    text: 'Our customers send from six continents, so we price in local currency where we can and answer support within 24 hours.',
  },
] as const;

export default function AboutRoute() {
  return (
    <MarketingLayout title="About">
      <MarketingPageHeader
        eyebrow="About Mailvet"
        title="We make sure your email reaches people"
        description="Mailvet was founded in 2024 by engineers who had spent too many launches watching campaigns bounce. Today more than 10,000 companies across six continents use it to keep their lists clean."
      />

      <section aria-label="Mailvet in numbers" className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
        <StatList stats={stats} tone="card" className="gap-3 sm:gap-6" />
      </section>

      <section aria-labelledby="story-heading" className="mx-auto grid max-w-5xl gap-12 px-4 pb-20 sm:px-6 md:grid-cols-2 lg:px-8">
        <div>
          <h2 id="story-heading" className="text-2xl font-bold tracking-tight text-slate-900">
            Our story
          </h2>
          <div className="mt-4 space-y-4 leading-7 text-slate-600">
            <p>
              Every bounced message costs more than one lost email. Mailbox providers watch bounce rates closely, and a sender who
              keeps hitting dead addresses soon finds even good mail landing in spam.
            </p>
            <p>
              We built Mailvet to answer one question quickly and honestly: will this address accept mail? It combines syntax, DNS, MX
              and live SMTP checks with disposable, role-based and catch-all detection, then turns the evidence into a single
              deliverability score.
            </p>
          </div>
        </div>
        <div>
          <h2 className="text-2xl font-bold tracking-tight text-slate-900">Who we serve</h2>
          <div className="mt-4 space-y-4 leading-7 text-slate-600">
            <p>
              Marketing teams clean lists before a campaign. Product teams validate addresses at sign-up through our API. Agencies and
              platforms run white-labelled validation for their own customers.
            </p>
            <p>
              Whatever the size, everyone starts the same way: 500 free validations, no card required. Enterprise customers get
              dedicated infrastructure, custom SLAs and round-the-clock support.
            </p>
          </div>
        </div>
      </section>

      <MarketingSection id="values-heading" title="What we value" center band width="5xl">
        <IconCardList items={values} className="mt-12 grid gap-6 md:grid-cols-2" />
        <CtaButtons to={paths.contact} className="mt-14">
          Contact us
        </CtaButtons>
      </MarketingSection>
    </MarketingLayout>
  );
}
