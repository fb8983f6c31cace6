import { Globe2, HeartHandshake, Lock, Target } from 'lucide-react';
import { MarketingLayout, MarketingPageHeader } from '../../components/layouts/marketing-layout';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';

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
    description:
      'An address is only "valid" when the evidence says so. When a server will not give a straight answer we say "unknown" or "risky" rather than pretend.',
  },
  {
    icon: Lock,
    title: 'Privacy by default',
    description:
      'We keep submitted addresses for 90 days and then delete them. We never sell data, never send mail to the addresses we check, and comply with GDPR.',
  },
  {
    icon: HeartHandshake,
    title: 'Built for developers',
    description:
      'A clean REST API, honest rate limits, signed webhooks and examples you can paste. If integrating takes more than an afternoon, we have failed.',
  },
  {
    icon: Globe2,
    title: 'Global from day one',
    description: 'Our customers send from six continents, so we price in local currency where we can and answer support within 24 hours.',
  },
] as const;

export default function AboutRoute() {
  return (
    <MarketingLayout>
      <MarketingPageHeader
        eyebrow="About Mailvet"
        title="We make sure your email reaches people"
        description="Mailvet was founded in 2024 by engineers who had spent too many launches watching campaigns bounce. Today more than 10,000 companies across six continents use it to keep their lists clean."
      />

      <section aria-label="Mailvet in numbers" className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
        <dl className="grid grid-cols-2 gap-6 md:grid-cols-4">
          {stats.map((s) => (
            <div key={s.label} className="flex flex-col gap-1 rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
              <dt className="text-sm text-slate-500">{s.label}</dt>
              <dd className="order-first text-3xl font-bold tracking-tight text-brand-600">{s.value}</dd>
            </div>
          ))}
        </dl>
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

      <section aria-labelledby="values-heading" className="border-t border-slate-200 bg-slate-50/60">
        <div className="mx-auto max-w-5xl px-4 py-20 sm:px-6 lg:px-8">
          <h2 id="values-heading" className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            What we value
          </h2>
          <ul role="list" className="mt-12 grid gap-6 md:grid-cols-2">
            {values.map(({ icon: Icon, title, description }) => (
              <li key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <span className="flex size-10 items-center justify-center rounded-lg bg-brand-50 text-brand-600">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-4 font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-600">{description}</p>
              </li>
            ))}
          </ul>
          <div className="mt-14 flex flex-col justify-center gap-3 sm:flex-row">
            <Button to={paths.auth} size="lg">
              Start Free with 500 Validations
            </Button>
            <Button to={paths.contact} size="lg" variant="outline">
              Contact us
            </Button>
          </div>
        </div>
      </section>
    </MarketingLayout>
  );
}
