// Regression: spec "Documentation (public and dashboard)": Tabs … Examples (JavaScript, Python, PHP). The examples
// had cURL, Node.js, Python and PHP but no JavaScript; every example that calls the API now has a browser
// (fetch) version too, run against a live server by tests/integration/docs.examples.test.ts.
import { expect, test } from '@playwright/test';

test('the public Documentation Examples tab offers JavaScript, Python and PHP examples', async ({ page }) => {
  await page.goto('/documentation');
  await page.getByRole('tab', { name: 'Examples' }).click();
  const languages = page.getByRole('tablist', { name: /: language$/ }).first();
  await expect(languages).toBeVisible();
  await languages.getByRole('tab', { name: 'JavaScript', exact: true }).click();
  await expect(page.getByRole('tabpanel').filter({ hasText: "const MAILVET_API_KEY = 'mv_test_paste_your_key';" }).first()).toBeVisible();
  await page.screenshot({ path: '/tmp/fix-ui/docs-examples.png' });
  await expect(languages.getByRole('tab', { name: 'Python', exact: true })).toBeVisible();
  await expect(languages.getByRole('tab', { name: 'PHP', exact: true })).toBeVisible();
  await expect(languages.getByRole('tab', { name: 'JavaScript', exact: true })).toBeVisible();
});
