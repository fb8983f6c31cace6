// Validate Email with the field left empty, Enter pressed again and again (as a user does who
// thinks nothing happened): one 'Please enter an email address' toast, not a stack of the same one
// filling the three toasts the page shows at most.
import { expect, test } from '@playwright/test';
import { newUserOn } from './helpers';

test("Enter pressed three times on an empty Validate Email shows one 'Please enter an email address' toast", async ({ page }) => {
  await newUserOn(page, '/dashboard/validate', { tag: 'rv-validate-empty' });
  const field = page.getByLabel('Email address');
  await field.focus();
  for (let i = 0; i < 3; i += 1) {
    await field.press('Enter');
    await expect(page.locator('[data-sonner-toast]', { hasText: 'Please enter an email address' }).first()).toBeVisible();
  }
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Please enter an email address' })).toHaveCount(1);
  await expect(page.getByRole('form', { name: 'Single email check' }).getByText('Please enter an email address')).toBeVisible();
  await expect(field).toBeFocused();
});
