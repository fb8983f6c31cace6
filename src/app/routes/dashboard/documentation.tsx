import { ApiDocumentation } from '../../../features/docs/api-documentation';

/** /dashboard/documentation: the same docs as /documentation, inside the dashboard layout's <Outlet/>. */
export default function DashboardDocumentationRoute() {
  return (
    <div className="mx-auto max-w-5xl space-y-8">
      <header>
        <h2 className="text-2xl font-bold tracking-tight text-slate-900">API Documentation</h2>
        <p className="mt-1 text-sm text-slate-600">
          Everything you need to call the Mailvet API: authentication, endpoints, errors, rate limits, webhooks and examples.
        </p>
      </header>
      <ApiDocumentation />
    </div>
  );
}
