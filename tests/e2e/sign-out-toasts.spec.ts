// Sign Out from a dashboard page: the home page says 'Signed Out' and nothing else. Sign Out emptied
// the data cache while the page signed out of was still shown, so the page asked the server again
// without a session, and its 401 came back as the page's own 'Error' toast ('Failed to load team
// data') over the home page, until the session check caught up.
import { expect, test, type Page } from '@playwright/test';
import { newUserOn, submitSignIn } from './helpers';

/** Every toast text shown from now on, also one gone again by the time the test looks. */
async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __toasts: string[] }).__toasts = seen;
    new MutationObserver(() => {
      for (const t of document.querySelectorAll<HTMLElement>('[data-sonner-toast]')) if (!seen.includes(t.innerText)) seen.push(t.innerText);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);
}

for (const [path, title] of [
  ['/dashboard/team', 'Team'],
  ['/dashboard/api-keys', 'API Keys'],
  ['/dashboard/history', 'History'],
] as const) {
  test(`Sign Out from ${title} shows 'Signed Out' and no 'Error' toast, also when the session check answers slowly`, async ({ page }) => {
    await newUserOn(page, path, { tag: 'rv-signout-toast', plan: 'pro' });
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const toasts = await recordToasts(page);
    const unauthorized: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 401 && r.url().includes('/api/trpc/')) unauthorized.push(new URL(r.url()).pathname);
    });
    // The session check after Sign Out takes a moment, as on a slow connection.
    await page.route('**/api/auth/get-session*', async (route) => {
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect(page.getByText('You have been successfully signed out.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Enterprise-Grade Email Validation' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect((await toasts()).filter((t) => !t.startsWith('Signed Out'))).toEqual([]);
    expect(unauthorized, 'calls the signed-out page made without a session').toEqual([]);
  });
}

test("after Sign Out, the next user signing in in the same tab sees their own plan and team, not the previous user's", async ({ page, browser }) => {
  const other = await browser.newPage();
  const second = await newUserOn(other, '/dashboard', { tag: 'rv-signout-next' });
  await other.close();
  await newUserOn(page, '/dashboard/team', { tag: 'rv-signout-first', plan: 'pro' });
  await expect(page.getByRole('tab', { name: 'Team Members (1)' })).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  // In the same tab, without a reload: Sign In from the home page.
  await page.getByRole('link', { name: 'Sign In' }).first().click();
  await submitSignIn(page, second);
  await page.waitForURL('**/dashboard');
  await expect(page.getByTestId('stat-plan')).toContainText('Free');
  await page.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('cell', { name: second })).toBeVisible();
  await expect(page.getByText('rv-signout-first')).toHaveCount(0);
});

test("after a Sign Out in another tab, the next user signing in in this tab sees their own team, not the previous user's", async ({ page, browser, context }) => {
  const other = await browser.newPage();
  const second = await newUserOn(other, '/dashboard', { tag: 'rv-signout-next2' });
  await other.close();
  await newUserOn(page, '/dashboard/team', { tag: 'rv-signout-first2', plan: 'pro' });
  await expect(page.getByRole('tab', { name: 'Team Members (1)' })).toBeVisible();
  const tab = await context.newPage();
  await tab.goto('/dashboard/validate');
  await tab.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL('**/auth');
  await tab.close();
  await submitSignIn(page, second);
  await page.waitForURL('**/dashboard');
  await expect(page.getByTestId('stat-plan')).toContainText('Free');
  await page.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('cell', { name: second })).toBeVisible();
  await expect(page.getByText('rv-signout-first2')).toHaveCount(0);
  await expect(page.getByText(/on the Pro plan/)).toHaveCount(0);
});
