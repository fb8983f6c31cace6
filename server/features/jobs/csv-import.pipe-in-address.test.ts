// '|' became a delimiter candidate (detectDelimiter). '|' is an ordinary character of an
// address's local part (RFC 5322 atext), so a header-less list whose first address holds one is now
// split on '|' and refused as a whole, though every line is one address (it was read before).
import { describe, expect, it } from 'vitest';
import { parseEmailCsv } from './csv-import';

describe('csv-import: pipe delimiter vs addresses holding "|" (review)', () => {
  it('a header-less one-address-per-line list whose first address contains "|" is read in full', () => {
    const out = parseEmailCsv('sales|eu@example.com\nann@example.com\nbob@example.com\n');
    expect(out.ok ? out.value.emails : out).toEqual(['sales|eu@example.com', 'ann@example.com', 'bob@example.com']);
  });
});
