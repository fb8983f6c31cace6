// Regression: spec route table: "any other path | public | 404 page 'Oops! Page not found' with a link to home".
// An unknown /dashboard/… path sent a signed-out visitor to /auth; it is a 404 for everyone, while the known
// dashboard routes still need a signed-in user.
import { expect, test } from '@playwright/test';
import { newUserOn } from './helpers';

test('an unknown path under /dashboard shows the public 404 page to a signed-out visitor', async ({ page }) => {
  await page.goto('/dashboard/no-such-page');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/no-such-page$/);
  await expect(page.getByRole('link', { name: 'Return to Home' })).toBeVisible();
  // A known dashboard route still asks a signed-out visitor to sign in.
  await page.goto('/dashboard/history');
  await page.waitForURL((u) => u.pathname === '/auth');
});

test('an unknown path under /dashboard shows the 404 page to a signed-in user too', async ({ page }) => {
  await newUserOn(page, '/dashboard', { tag: 'rv-404' });
  await page.goto('/dashboard/no-such-page');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await page.screenshot({ path: '/tmp/fix-ui/not-found-dashboard.png' });
});

// Crawlers ask /robots.txt before anything else; it was the SPA's index.html with 200 (read as no rules),
// so the dashboard, sign-in and API paths were fair game for indexing.
test('robots.txt is a plain-text file that keeps crawlers out of the dashboard, sign-in and the API', async ({ request }) => {
  const res = await request.get('/robots.txt');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^text\/plain/);
  const lines = (await res.text()).split('\n').map((l) => l.trim());
  expect(lines).toContain('User-agent: *');
  for (const path of ['/dashboard', '/auth', '/api/', '/v1/']) expect(lines).toContain(`Disallow: ${path}`);
});
