// A customer list the product has never seen (tests/fixtures/customer-list.ts), in three exporting
// tools' dialects: every dialect reads to the same addresses, each once, in file order.
import { describe, expect, it } from 'vitest';
import { CP1252_SAFE, customerContacts, DIALECTS, dialectFile, uniqueAddresses } from '../../../tests/fixtures/customer-list';
import { parseEmailCsv } from './csv-import';

describe('parseEmailCsv on a generated customer list', () => {
  const contacts = customerContacts();
  for (const dialect of DIALECTS) {
    it(`reads the ${dialect.name} export (${dialect.encoding}, ${JSON.stringify(dialect.delimiter)}) to the list's unique addresses in file order`, () => {
      const bytes = dialectFile(dialect, contacts);
      expect(bytes.length).toBeLessThan(100_000);
      const r = parseEmailCsv(bytes);
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      const want = uniqueAddresses(contacts).map((a) => (dialect.encoding === 'cp1252' ? CP1252_SAFE(a) : a));
      expect(r.value.emails).toEqual(want);
      expect(r.value.delimiter).toBe(dialect.delimiter);
      expect(r.value.rows).toBe(contacts.length);
      expect(r.value.duplicates).toBe(contacts.length - want.length);
    });
  }
});
