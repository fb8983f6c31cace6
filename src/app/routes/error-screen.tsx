import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** The default error screen: 'Unexpected Application Error!' with the status or message. */
export function ErrorScreen() {
  const error = useRouteError();
  console.error(error);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h2 className="text-2xl font-semibold text-slate-900">Unexpected Application Error!</h2>
      <h3 className="mt-3 font-mono text-sm text-red-700">{detail}</h3>
      <a href="/" className="mt-6 inline-block text-sm font-medium text-brand-600 hover:underline">Back to home</a>
    </main>
  );
}
