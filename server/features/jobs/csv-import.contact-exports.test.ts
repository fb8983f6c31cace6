// Contact exports hold more than one address per contact: Outlook's "E-mail Address", "E-mail 2
// Address" and "E-mail 3 Address" columns, Google Contacts' " ::: " between two addresses of one
// kind, a cell someone typed "ann@x.com; ann@y.com" into. Each address is the list's (checked and
// charged once, as any other); nothing of the file is dropped or checked as one glued "address".
import { describe, expect, it } from 'vitest';
import { parseEmailCsv } from './csv-import';

const ok = (input: Uint8Array | string) => {
  const r = parseEmailCsv(input);
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value;
};

describe('parseEmailCsv on contacts with several addresses', () => {
  it('reads every address of an Outlook contacts export, also a contact whose only address is in "E-mail 2 Address"', () => {
    const outlook = [
      'First Name,Last Name,E-mail Address,E-mail Type,E-mail Display Name,E-mail 2 Address,E-mail 2 Type,E-mail 3 Address',
      'Ann,Lee,ann@x.com,SMTP,Ann Lee (ann@x.com),ann@home.example,SMTP,',
      'Bo,Berg,,,,bo@y.com,SMTP,bo@z.com',
      'Cy,Roe,cy@x.com,SMTP,Cy,,,',
    ].join('\r\n');
    const v = ok(`${outlook}\r\n`);
    expect(v.emails).toEqual(['ann@x.com', 'ann@home.example', 'bo@y.com', 'bo@z.com', 'cy@x.com']);
    expect({ rows: v.rows, duplicates: v.duplicates }).toEqual({ rows: 5, duplicates: 0 });
  });

  it('reads Outlook exports in German and French ("E-Mail 2: Adresse", "Adresse de messagerie 2")', () => {
    const de = 'Vorname;E-Mail-Adresse;E-Mail-Typ;E-Mail 2: Adresse;E-Mail 3: Adresse\r\nAnn;ann@x.de;SMTP;ann@y.de;\r\nBo;;;;bo@x.de\r\n';
    expect(ok(de).emails).toEqual(['ann@x.de', 'ann@y.de', 'bo@x.de']);
    const fr = 'Prénom,Adresse de messagerie,Type de messagerie,Nom complet de l\'adresse de messagerie,Adresse de messagerie 2,Adresse de messagerie 3\r\nAnn,ann@x.fr,SMTP,Ann,,\r\nBo,,,,bo@x.fr,\r\n';
    expect(ok(fr).emails).toEqual(['ann@x.fr', 'bo@x.fr']);
  });

  it('reads a Google Contacts export: two addresses of one kind in a cell (" ::: ") and "E-mail 2 - Value"', () => {
    const google = [
      'Name,Given Name,E-mail 1 - Type,E-mail 1 - Value,E-mail 2 - Type,E-mail 2 - Value,Phone 1 - Value',
      'Ann Lee,Ann,* Work,ann@x.com ::: ann.lee@x.com,Home,ann@home.example,555',
      'Bo,Bo,,,* Home,bo@y.com,',
    ].join('\r\n');
    expect(ok(`${google}\r\n`).emails).toEqual(['ann@x.com', 'ann.lee@x.com', 'ann@home.example', 'bo@y.com']);
  });

  it('reads a file whose email column comes twice under one name (two lists pasted side by side)', () => {
    expect(ok('Email,Name,Email\nann@x.com,Ann,ann@y.com\n,Bo,bo@y.com\ncy@x.com,Cy,cy@x.com\n').emails).toEqual(['ann@x.com', 'ann@y.com', 'bo@y.com', 'cy@x.com']);
  });

  it('reads each address of a cell holding several (comma, semicolon, line break, space), never one invalid "address"', () => {
    const v = ok('email\n"ann@x.com, bo@x.com"\ncy@x.com;dee@x.com\n"eve@x.com\nfay@x.com"\n"gus@x.com hal@x.com"\n"Ida <ida@x.com>, Jo <jo@x.com>"\n"mailto:kim@x.com,lou@x.com"\n');
    expect(v.emails).toEqual(['ann@x.com', 'bo@x.com', 'cy@x.com', 'dee@x.com', 'eve@x.com', 'fay@x.com', 'gus@x.com', 'hal@x.com', 'ida@x.com', 'jo@x.com', 'kim@x.com', 'lou@x.com']);
    expect(v.rows).toBe(12);
  });

  it('keeps one address one: a name holding a comma, a quoted local part holding a separator, an address literal', () => {
    const v = ok('email\n"Lee, Ann <ann@x.com>"\n"""a,b;c d""@x.com"\n"x@[IPv6:::1]"\n"""Roe, Bo"" <bo@x.com>"\n');
    expect(v.emails).toEqual(['ann@x.com', '"a,b;c d"@x.com', 'x@[ipv6:::1]', 'bo@x.com']);
  });

  it('counts an address a cell repeats, or another column holds, once (one result, one credit)', () => {
    const v = ok('Email,Email 2\n"ann@x.com; ANN@x.com",ann@x.com\nbo@x.com,\n');
    expect(v.emails).toEqual(['ann@x.com', 'bo@x.com']);
    expect({ rows: v.rows, duplicates: v.duplicates }).toEqual({ rows: 4, duplicates: 2 });
  });

  it('counts every address of such cells toward the 10,000-address limit', () => {
    const cells = Array.from({ length: 5_001 }, (_, i) => `"a${i}@x.io, b${i}@x.io"`);
    const r = parseEmailCsv(['email', ...cells].join('\n'));
    expect(r.ok ? r.value.emails.length : r.error.code).toBe('TOO_MANY_EMAILS');
  });

  it('answers a cell of 300,000 separated addresses (read in one pass)', { timeout: 20_000 }, () => {
    const r = parseEmailCsv(`email\r\n"${'a@x.io, '.repeat(300_000)}"\r\nann@x.com\r\n`);
    expect(r.ok ? r.value.emails : r.error.message).toEqual(['a@x.io', 'ann@x.com']);
  });
});
