// Regression tests: the "did you mean" for the commonest slips, which fail syntax before DNS is asked.
import { describe, expect, it } from 'vitest';
import { decideBySyntax } from './decide';

describe('syntax failures of a big provider\'s domain', () => {
  it.each([
    ['john@gmailcom', 'john@gmail.com'],
    ['john@gmail,com', 'john@gmail.com'],
    ['john@gmail..com', 'john@gmail.com'],
    ['john@hotmailcom', 'john@hotmail.com'],
  ])('%s is invalid and suggests %s', (email, suggestion) => {
    const d = decideBySyntax(email, 'smtp');
    expect(d.decided && d.result.verdict).toBe('undeliverable');
    expect(d.decided ? d.result.suggestion : 'not decided').toBe(suggestion);
  });
});
