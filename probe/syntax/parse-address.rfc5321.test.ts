import { describe, expect, it } from 'vitest';
import { parseAddress } from './parse-address';

const valid: [string, { normalized: string; quoted?: boolean; smtputf8?: boolean }][] = [
  ['john@example.com', { normalized: 'john@example.com' }],
  ['John.Smith@Example.COM', { normalized: 'John.Smith@example.com' }],
  ['a+tag@sub.example.co.uk', { normalized: 'a+tag@sub.example.co.uk' }],
  ["o'brien@example.ie", { normalized: "o'brien@example.ie" }],
  ['x!#$%&*/=?^_`{|}~-@example.com', { normalized: 'x!#$%&*/=?^_`{|}~-@example.com' }],
  ['"john doe"@example.com', { normalized: '"john doe"@example.com', quoted: true }],
  ['"a@b"@example.com', { normalized: '"a@b"@example.com', quoted: true }],
  ['"a\\"b"@example.com', { normalized: '"a\\"b"@example.com', quoted: true }],
  ['user@bücher.de', { normalized: 'user@xn--bcher-kva.de' }],
  ['user@XN--BCHER-KVA.DE', { normalized: 'user@xn--bcher-kva.de' }],
  ['用户@例子.广告', { normalized: '用户@xn--fsqu00a.xn--4rr70v', smtputf8: true }],
  ['josé@example.com', { normalized: 'josé@example.com', smtputf8: true }],
  [' padded@example.com ', { normalized: 'padded@example.com' }],
  [`${'a'.repeat(64)}@example.com`, { normalized: `${'a'.repeat(64)}@example.com` }],
];

const invalid: [string, RegExp][] = [
  ['', /empty/],
  ['plainaddress', /no @/],
  ['@example.com', /local part is empty/],
  ['john@', /empty domain/],
  ['john..doe@example.com', /consecutive dots/],
  ['.john@example.com', /starts or ends with a dot/],
  ['john.@example.com', /starts or ends with a dot/],
  ['john(comment)@example.com', /comments/],
  ['John Doe <john@example.com>', /space/],
  ['john doe@example.com', /space/],
  ['john."doe"@example.com', /quotes/],
  ['"unterminated@example.com', /quoted/],
  ['john@example.com\r\nBcc: x@y.com', /control/],
  ['john@exa\nmple.com', /control/],
  ['jo\u0000hn@example.com', /control/],
  ['jo\thn@example.com', /control/],
  ['john@\u0085example.com', /control/],
  ['john@localhost', /two labels/],
  ['john@example', /two labels/],
  ['john@example.com.', /ends with a dot/],
  ['john@-example.com', /invalid characters/],
  ['john@example-.com', /invalid characters/],
  ['john@exa_mple.com', /invalid characters|internationalised/],
  ['john@example..com', /empty label/],
  ['john@1.2.3.4', /numeric/],
  [`${'a'.repeat(65)}@example.com`, /64 octets/],
  [`${'é'.repeat(33)}@example.com`, /64 octets/],
  [`a@${'b'.repeat(64)}.com`, /63/],
  [`a@${Array.from({ length: 64 }, () => 'abc').join('.')}.com`, /253/],
  [`${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(6)}.com`, /254/],
  ['a@b@example.com', /invalid character/],
  ['john@exam ple.com', /invalid|internationalised/],
];

describe('parseAddress (RFC 5321 mailbox)', () => {
  it.each(valid)('accepts %s', (input, want) => {
    const r = parseAddress(input);
    expect(r.ok ? r.details : r.error).toMatchObject({ normalized: want.normalized, quoted: want.quoted ?? false, smtputf8: want.smtputf8 ?? false });
  });

  it.each(invalid)('rejects %j', (input, why) => {
    const r = parseAddress(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(why);
  });

  it('rejects a 1 MB string at once, by its length, before reading it', () => {
    const huge = `${'a'.repeat(1_000_000)}@example.com`;
    const r = parseAddress(huge);
    // The length gate's own reason: the local part was never looked at (it would say "longer than 64 octets").
    expect(r.ok ? '' : r.error.message).toBe('address is far too long');
  });

  // Only surrounding SP/HTAB are ignored, however many: a fixed-width export pads its cells with
  // blanks, and the CLI and the daemon pass a line as typed. The length gate measures the address.
  it('accepts an address padded with more blanks than the length gate allows an address', () => {
    for (const padded of [`john@example.com${' '.repeat(2000)}`, `${'\t'.repeat(1500)}john@example.com`]) {
      const r = parseAddress(padded);
      expect(r.ok ? r.details.normalized : r.error.message).toBe('john@example.com');
    }
    const r = parseAddress(`  ${'a'.repeat(1100)}@example.com  `);
    expect(r.ok ? '' : r.error.message).toBe('address is far too long');
  });

  it('keeps the case of the local part (it may be case-sensitive) and lower-cases the domain', () => {
    const r = parseAddress('MiXeD@ExAmPlE.org');
    expect(r.ok && r.details).toMatchObject({ local: 'MiXeD', domain: 'example.org' });
  });
});
