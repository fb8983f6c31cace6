import { MarketingLayout } from '../../components/layouts/marketing-layout';
import { PricingSection } from '../../features/billing/pricing-section';
import { MarketingSection } from '../../features/marketing/marketing-section';
import { FAIR_CHARGING_RULE } from '../../../server/contracts/charging';
import { SALES_EMAIL } from '../../../server/contracts/plans';

const faqs = [
  {
    q: 'Do I need a credit card to start?',
    a: 'No. Every new account starts with 500 free validations and no card is required. Upgrade only when you need more volume or features.',
  },
  {
    q: 'What counts as a validation?',
    a: `One address checked once, whether from the dashboard, a CSV upload, a scheduled revalidation or the API, uses one credit. ${FAIR_CHARGING_RULE}`,
  },
  {
    q: 'Is there a discount for annual billing?',
    a: 'Yes. Paying annually saves 20% compared with paying month to month.',
  },
  {
    q: 'Can I get a refund?',
    a: 'Unused credits can be refunded within 14 days of purchase. Plans renew automatically and you can cancel anytime before the next renewal.',
  },
  {
    q: 'Will prices change?',
    a: 'If we change our pricing we tell you at least 30 days in advance, by e-mail and in the dashboard.',
  },
  {
    q: 'Which currency will I pay in?',
    a: 'Prices are shown in US dollars, or in Indian rupees when you visit from India.',
  },
] as const;

export default function PricingRoute() {
  return (
    <MarketingLayout title="Pricing">
      <div className="bg-gradient-to-b from-brand-50/70 via-white to-white py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <PricingSection popular="landing" as="h1" title="Pricing that scales with your lists" />
        </div>
      </div>
      <MarketingSection id="faq-heading" title="Frequently asked questions" center band width="5xl">
        <dl className="mt-12 grid gap-x-10 gap-y-8 md:grid-cols-2">
          {faqs.map((f) => (
            <div key={f.q}>
              <dt className="font-semibold text-slate-900">{f.q}</dt>
              <dd className="mt-2 text-sm leading-6 text-slate-600">{f.a}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-14 text-center text-sm text-slate-600">
          Need custom volume, dedicated IPs or an on-premise deployment?{' '}
          <a href={`mailto:${SALES_EMAIL}`} className="font-medium text-brand-700 hover:underline">
            Contact Sales
          </a>
          .
        </p>
      </MarketingSection>
    </MarketingLayout>
  );
}
