import { createBrowserRouter, Outlet, RouterProvider, ScrollRestoration, type RouteObject } from 'react-router-dom';
import { paths } from '../config/paths';
import { ErrorScreen } from './routes/error-screen';
import { NotFoundRoute } from './routes/not-found';

/** A route module's default export becomes the route's component (code-split per URL). */
function page(load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

/**
 * Every page: a new page opens at its top (or at its #hash), Back and Forward return to where the
 * reader was (react-router's ScrollRestoration, for marketing and dashboard pages alike).
 */
function AppRoot() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

/**
 * The page's first history entry gets its own key, as every in-app navigation's entry has.
 * react-router names an entry without one 'default', so ScrollRestoration kept one saved position
 * for every page opened by its address in the tab (typed, a link from a mail, a full-page link):
 * /privacy opened after the landing page had been scrolled to its pricing opened 2,500 px down, and
 * a #section link lost to that saved place. history.state survives a reload and Back/Forward, so
 * those still return to where the reader was.
 */
function keyFirstEntry() {
  const state: unknown = window.history.state;
  const current = state && typeof state === 'object' ? (state as Record<string, unknown>) : {};
  if (typeof current.key === 'string') return;
  window.history.replaceState({ ...current, key: Math.random().toString(36).slice(2, 10) }, '');
}
keyFirstEntry();

const router = createBrowserRouter([
  {
    Component: AppRoot,
    // Every page is code-split: while the first one loads, show nothing (as before) instead of
    // React Router's console warning that no HydrateFallback was given.
    HydrateFallback: () => null,
    errorElement: <ErrorScreen />,
    children: [
      { path: paths.home, ...page(() => import('./routes/landing')) },
      { path: paths.features, ...page(() => import('./routes/features')) },
      { path: paths.pricing, ...page(() => import('./routes/pricing')) },
      { path: paths.documentation, ...page(() => import('./routes/documentation')) },
      { path: paths.about, ...page(() => import('./routes/about')) },
      { path: paths.contact, ...page(() => import('./routes/contact')) },
      { path: paths.privacy, ...page(() => import('./routes/legal/privacy')) },
      { path: paths.terms, ...page(() => import('./routes/legal/terms')) },
      { path: paths.security, ...page(() => import('./routes/legal/security')) },
      { path: paths.auth, ...page(() => import('./routes/auth')) },
      {
        path: paths.dashboard.root,
        ...page(() => import('./routes/dashboard/layout')),
        children: [
          { index: true, ...page(() => import('./routes/dashboard/overview')) },
          { path: 'validate', ...page(() => import('./routes/dashboard/validate')) },
          { path: 'bulk', ...page(() => import('./routes/dashboard/bulk')) },
          { path: 'auto-revalidation', ...page(() => import('./routes/dashboard/auto-revalidation')) },
          { path: 'history', ...page(() => import('./routes/dashboard/history')) },
          { path: 'api-keys', ...page(() => import('./routes/dashboard/api-keys')) },
          { path: 'team', ...page(() => import('./routes/dashboard/team')) },
          { path: 'integrations', ...page(() => import('./routes/dashboard/integrations')) },
          { path: 'billing', ...page(() => import('./routes/dashboard/billing')) },
          { path: 'analytics', ...page(() => import('./routes/dashboard/analytics')) },
          { path: 'documentation', ...page(() => import('./routes/dashboard/documentation')) },
          { path: 'settings', ...page(() => import('./routes/dashboard/settings')) },
        ],
      },
      // Public, outside the signed-in layout: an unknown /dashboard/… path is a 404 for everyone
      // (not a redirect to /auth for signed-out visitors).
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
