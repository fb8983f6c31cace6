// The public pricing (landing page section and /pricing) against the spec's plan table: every plan's
// button but Enterprise's goes to /auth, Enterprise's opens an e-mail to sales; and the FAQ's "what
// counts as a validation" says what Billing and the API say: a result we cannot decide costs nothing.
import { expect, test } from '@playwright/test';
import { FAIR_CHARGING_RULE } from '../../server/contracts/charging';
import { PLANS, SALES_EMAIL } from '../../server/contracts/plans';
import { SCREENSHOT_DIR } from './helpers';

for (const path of ['/', '/pricing']) {
  test(`${path}: each plan's button goes to /auth, and Enterprise's opens an e-mail to sales`, async ({ page }) => {
    await page.goto(path);
    for (const plan of PLANS) {
      const card = page.locator('li', { has: page.locator(`#plan-${plan.type}-title`) });
      const action = card.getByRole('link', { name: plan.cta, exact: true });
      if (plan.type === 'enterprise') await expect(action, plan.name).toHaveAttribute('href', new RegExp(`^mailto:${SALES_EMAIL.replace('.', '\\.')}\\?subject=`));
      else await expect(action, plan.name).toHaveAttribute('href', '/auth');
    }
  });
}

test('the pricing FAQ says an undecided check costs nothing, as Billing and the API documentation do', async ({ page }) => {
  await page.goto('/pricing');
  const answer = page.locator('dt', { hasText: 'What counts as a validation?' }).locator('xpath=following-sibling::dd[1]');
  await expect(answer).toContainText('uses one credit');
  await expect(answer).toContainText(FAIR_CHARGING_RULE);
  await page.locator('dl').screenshot({ path: `${SCREENSHOT_DIR}/pricing-faq.png` });
});
