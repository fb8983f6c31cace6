import { useEffect, useState } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

const RELOAD_KEY = 'mailvet.reloadedForMissingCode';
const RELOAD_WINDOW_MS = 10_000;

/** A page's code file that the server no longer has: the tab was opened before a new release. */
function isMissingCode(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(message);
}

/** True once per page and 10 s: the reload that fetches the current release. A second failure shows the error screen. */
function reloadOnce(): boolean {
  const here = window.location.pathname;
  try {
    const last = JSON.parse(sessionStorage.getItem(RELOAD_KEY) ?? 'null') as { path?: string; at?: number } | null;
    if (last?.path === here && typeof last.at === 'number' && Date.now() - last.at < RELOAD_WINDOW_MS) return false;
    sessionStorage.setItem(RELOAD_KEY, JSON.stringify({ path: here, at: Date.now() }));
    return true;
  } catch {
    return false; // no storage: never risk a reload loop
  }
}

/**
 * The default error screen: 'Unexpected Application Error!' with the status or message. A tab left
 * open across a release asked for page code that no longer exists and got this screen on its next
 * link; that case now reloads the page once (fetching the current release) instead.
 */
export function ErrorScreen() {
  const error = useRouteError();
  const missingCode = isMissingCode(error);
  const [gaveUp, setGaveUp] = useState(false);
  useEffect(() => {
    if (!missingCode) return;
    if (reloadOnce()) window.location.reload();
    else setGaveUp(true);
  }, [missingCode]);
  useEffect(() => {
    if (!missingCode || gaveUp) console.error(error);
  }, [error, missingCode, gaveUp]);
  if (missingCode && !gaveUp) return <main className="min-h-screen bg-white" aria-busy="true" />;
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
