// The pages of the web app, by path: the SPA's router is built from them (src/config/paths.ts
// re-exports them), and the server answers any other path's page with status 404 (the SPA then shows
// 'Oops! Page not found'), so a link checker or a search engine sees a dead link as one.
// Pure data: shared with the browser.

export const paths = {
  home: '/',
  features: '/features',
  pricing: '/pricing',
  documentation: '/documentation',
  about: '/about',
  contact: '/contact',
  privacy: '/privacy',
  terms: '/terms',
  security: '/security',
  auth: '/auth',
  dashboard: {
    root: '/dashboard',
    validate: '/dashboard/validate',
    bulk: '/dashboard/bulk',
    autoRevalidation: '/dashboard/auto-revalidation',
    history: '/dashboard/history',
    apiKeys: '/dashboard/api-keys',
    team: '/dashboard/team',
    integrations: '/dashboard/integrations',
    billing: '/dashboard/billing',
    analytics: '/dashboard/analytics',
    documentation: '/dashboard/documentation',
    settings: '/dashboard/settings',
  },
} as const;

/** Every page path of the SPA (src/app/router.tsx routes each of them; any other path is its 404 page). */
export const PAGE_PATHS: readonly string[] = Object.values(paths).flatMap((p) => (typeof p === 'string' ? [p] : Object.values(p)));

/**
 * Whether a URL path is one of the SPA's pages as React Router matches it: any letter case, repeated
 * or trailing slashes ignored (`//dashboard`, `/Pricing/` are pages; `/pricing/x` is not).
 */
export function isPagePath(urlPath: string): boolean {
  let p: string;
  try {
    p = decodeURIComponent(urlPath);
  } catch {
    return false;
  }
  p = p.replace(/\/{2,}/g, '/').toLowerCase();
  if (p.length > 1) p = p.replace(/\/$/, '');
  return PAGE_PATHS.includes(p);
}
