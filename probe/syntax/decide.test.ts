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

// RFC 3490 3.1 made U+3002, U+FF0E and U+FF61 label separators; IDNA2008 (RFC 5891 5.2) does not: only
// "." separates labels. A Chinese or Japanese input method types 。 for a dot, so the address is
// invalid as typed, says why, and offers the same domain with its dots written as ".".
describe('full stops of other scripts typed as dots', () => {
  it.each([
    ['john@gmail\u3002com', 'john@gmail.com', 'U+3002'],
    ['john@gmail\uff0ecom', 'john@gmail.com', 'U+FF0E'],
    ['user@\u4f8b\u5b50\uff61\u4e2d\u56fd', 'user@\u4f8b\u5b50.\u4e2d\u56fd', 'U+FF61'],
    ['user@mail\u3002example\u3002co\u3002uk', 'user@mail.example.co.uk', 'U+3002'],
  ])('%s is invalid, says the dot is not ".", and suggests %s', (email, suggestion, dot) => {
    const d = decideBySyntax(email, 'smtp');
    expect(d.decided && d.result.verdict).toBe('undeliverable');
    expect(d.decided ? d.result.suggestion : 'not decided').toBe(suggestion);
    expect(d.decided ? d.result.evidence.detail : '').toContain(`${dot}`);
    expect(d.decided ? d.result.evidence.detail : '').toContain('only "." separates');
  });

  it('suggests nothing when the address is still invalid with its dots repaired', () => {
    const d = decideBySyntax('jo hn@example\u3002com', 'smtp');
    expect(d.decided ? d.result.suggestion : 'not decided').toBeNull();
  });
});

// Only surrounding SP/HTAB are ignored (trimAddress), and the CLI and the daemon hand the line over as
// typed: "john@gmailcom " from a file with trailing blanks is the same slip as "john@gmailcom" and gets
// the same suggestion, written without the blanks.
describe('surrounding blanks around a slip', () => {
  it.each([
    ['john@gmailcom ', 'john@gmail.com'],
    ['\tjohn@gmail,com\t', 'john@gmail.com'],
    [' john@hotmailcom', 'john@hotmail.com'],
    ['user@\u4f8b\u5b50\u3002\u4e2d\u56fd ', 'user@\u4f8b\u5b50.\u4e2d\u56fd'],
  ])('%j suggests %s', (email, suggestion) => {
    const d = decideBySyntax(email, 'smtp');
    expect(d.decided && d.result.verdict).toBe('undeliverable');
    expect(d.decided ? d.result.suggestion : 'not decided').toBe(suggestion);
  });
});
