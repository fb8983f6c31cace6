import { MarketingLayout, MarketingPageHeader } from '../../components/layouts/marketing-layout';
import { ApiDocumentation } from '../../features/docs/api-documentation';

export default function DocumentationRoute() {
  return (
    <MarketingLayout title="API Documentation">
      <MarketingPageHeader
        eyebrow="Developers"
        title="API Documentation"
        description="Validate single addresses in real time, run bulk jobs with signed webhook callbacks, and integrate Mailvet into any stack."
      />
      <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 lg:px-8">
        <ApiDocumentation />
      </div>
    </MarketingLayout>
  );
}
