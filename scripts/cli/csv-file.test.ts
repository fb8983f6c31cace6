// `mailvet verify --csv` reads its file piece by piece (readCsvFile) and the upload reads its bytes
// whole (parseEmailCsv): the same file gives the same addresses, in the same order, or the same
// refusal, whatever the size of the pieces (a multi-byte character, a CRLF or the byte-order mark
// split between two of them).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEmailCsv } from '../../server/features/jobs/csv-import';
import { readCsvFile } from './csv-file';

const utf16 = (text: string, order: 'le' | 'be'): Buffer => {
  const b = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return order === 'le' ? b : b.swap16();
};

const FILES: Record<string, Buffer> = {
  'UTF-8 with BOM, CRLF': Buffer.from('\uFEFFName,Email\r\nJosé,jose@x.com\r\nAnn,ann@X.COM\r\n'),
  'UTF-16 LE (Excel Unicode Text), tabs': utf16('Name\tE-mail\r\nZoë\tzoe@x.com\r\nBo\tbo@x.com\r\n', 'le'),
  'UTF-16 BE': utf16('email\nann@x.com\nbo@x.com\n', 'be'),
  'UTF-16 LE without a byte-order mark': Buffer.from('Name\tEmail\r\nZoë\tzoe@x.com\r\nBo\tbo@x.com\r\n', 'utf16le'),
  'UTF-16 BE without a byte-order mark, shorter than the sniffed head': Buffer.from('a@x.com\n', 'utf16le').swap16(),
  'Windows-1252 with semicolons': Buffer.from('Nom;Courriel\r\nJos\xe9;jose@x.com\r\nD\xfcrer;durer@x.com\r\n', 'latin1'),
  'UTF-8 BOM, then one Latin-1 line late in the file': Buffer.concat([Buffer.from(`\uFEFFEmail\r\n${Array.from({ length: 300 }, (_, i) => `u${i}@x.com`).join('\r\n')}\r\n`), Buffer.from('caf\xe9@x.com\r\n', 'latin1')]),
  'UTF-8 lines with one Windows-1252 line between them': Buffer.concat([Buffer.from('email\nzoë@x.com\n', 'utf8'), Buffer.from('josé@x.com\r\n', 'latin1'), Buffer.from('ann@münchen.de\rłukasz@x.pl', 'utf8')]),
  'CR-only line ends (old Mac)': Buffer.from('email\ra@x.com\rb@x.com\r'),
  'quoted field holding line breaks': Buffer.from('name,email\r\n"two\r\nlines",a@x.com\r\n"x",b@x.com\r\n'),
  'Google Contacts export': Buffer.from('Name,E-mail 1 - Type,E-mail 1 - Value\r\nAnn,* Home,ann@x.com\r\n'),
  'Google Contacts export, two addresses in a cell and E-mail 2': Buffer.from('Name,E-mail 1 - Type,E-mail 1 - Value,E-mail 2 - Value\r\nAnn,* Home,ann@x.com ::: ann@y.com,ann@z.com\r\nBo,,,bo@x.com\r\n'),
  'Outlook contacts (E-mail Address, E-mail 2 Address, E-mail 3 Address)': Buffer.from('Name,E-mail Address,E-mail 2 Address,E-mail 3 Address\r\nAnn,ann@x.com,ann@y.com,\r\nBo,,bo@x.com,bo@y.com\r\n'),
  'Excel exports joined end to end (cat a.csv b.csv: a second BOM and header)': Buffer.from('\uFEFFName,Email\r\nAnn,ann@x.com\r\n\uFEFFName,Email\r\nBo,bo@x.com\r\n'),
  'header-less lists joined end to end (a BOM at a line start)': Buffer.from('\uFEFFann@x.com\n\uFEFFbo@x.com\n'),
  'ragged rows (an unquoted comma in a name, a cell left out)': Buffer.from('Name,City,Email\r\nAnn,Oslo,ann@x.com\r\nLee, Bo,Oslo,bo@x.com\r\nCy,cy@x.com\r\nDi,Rome\r\n'),
  'cells holding several addresses (comma, semicolon, line break)': Buffer.from('email\n"ann@x.com, bo@x.com"\ncy@x.com;ann@x.com\n"di@x.com\neve@x.com"\n"Lee, Fay <fay@x.com>"\n'),
  'duplicates, "Name <address>", blanks and trailing empty columns': Buffer.from('email,,,\r\n"Ann <ann@x.com>",,,\r\nann@x.com,,,\r\n,,,\r\n  bo@x.com ,,,\r\n'),
  '"Name" <address> cells written unquoted': Buffer.from('name,email,company\r\n"Lee, Ann","Ann" <ann@x.com>,ACME\r\n"Bo, B",bo@x.com,"B, Inc"\r\n"Cy" <cy@x.com>\r\n'),
  '"Name" <address> header-less, LF': Buffer.from('"Ann Lee" <ann@x.com>\n"Bo" <bo@x.com>\nann@x.com\n'),
  "LinkedIn's Connections.csv (notes above the header)": Buffer.from('Notes:\n"When exporting your connection data, you may notice that some of the email addresses are missing."\n\nFirst Name,Last Name,URL,Email Address,Company\nAnn,Lee,https://x/in/a,ann@x.com,ACME\nBo,B,https://x/in/b,,\nCy,N,https://x/in/c,cy@y.com,"Globex, Inc"\n'),
  'a quoted nickname at the start of a name cell': Buffer.from('Name,Email\r\n"Doc" Smith,doc@x.com\r\nAnn,ann@x.com\r\n'),
  'header-less list': Buffer.from('ann@x.com\nbo@x.com\nann@x.com\n'),
  'header-less, two addresses a row': Buffer.from('ann@x.com,bob@y.com\ncy@z.com,ann@x.com\n'),
  "Excel's CSV from a Japanese Windows (Shift-JIS: 名前,メールアドレス)": Buffer.from('96bc914f2c8381815b838b83418368838c83580d0a8e5293632c79616d61646140782e6a700d0a', 'hex'),
  'one mailbox written in other letter case': Buffer.from('email\r\nJohn@x.com\njohn@X.COM\nANN@x.com\nann@x.com\nJohn@x.com\n'),
  'one IDN mailbox written as typed and as its A-label': Buffer.from('email\nida@bücher.de\nida@xn--bcher-kva.de\nIDA@BÜCHER.DE\n'),
  'header-less rows with other columns': Buffer.from('Ann,ann@x.com,ACME\r\nBo,bo@x.com,\r\n'),
  "Excel's separator hint line": Buffer.from('\uFEFFsep=;\r\nName;Email\r\nLee, Bo;bo@x.com\r\n'),
  'only a separator hint line': Buffer.from('sep=;\r\n'),
  'value too long to be an address': Buffer.from(`email\n${'a'.repeat(1100)}@x.com\nok@x.com\n`),
  'one huge line': Buffer.from(`email,${'x'.repeat(200_000)}\nann@x.com,y\n`),
  '0 bytes': Buffer.alloc(0),
  'only white space': Buffer.from(' \r\n\t\r\n'),
  'only a header': Buffer.from('Email,Name\r\n'),
  'no email column': Buffer.from('name,city\nAnn,Oslo\n'),
  'a zip (or xlsx) renamed .csv': Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x21, 0x00, 0x62, 0x9a]),
  'a list padded with NUL bytes at its end': Buffer.concat([Buffer.from('email\r\nann@x.com\r\nbo@x.com\r\n'), Buffer.alloc(300)]),
  'UTF-16 padded with NUL bytes at its end': Buffer.concat([utf16('email\nann@x.com\n', 'le'), Buffer.alloc(64)]),
  'only NUL bytes': Buffer.alloc(100),
  'a stray NUL byte in a CRLF list': Buffer.from(`email\r\n${Array.from({ length: 3000 }, (_, i) => `u${i}@x.com${i === 2500 ? '\u0000' : ''}`).join('\r\n')}\r\n`),
  'text with a NUL late in the file': Buffer.concat([Buffer.from(`email\n${'a@x.com\n'.repeat(20_000)}`), Buffer.from([0x00]), Buffer.from('\n')]),
  'UTF-16 holding U+0000': utf16('email\na\u0000@x.com\n', 'le'),
  'mostly control characters': Buffer.from('email\n\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f@x.com\n'),
  'an unclosed quote after a quoted line break and a separator hint': Buffer.from('sep=;\r\nName;Email\r\n"two\r\nlines";a@x.com\r\n"Cy;cy@x.com\r\nDi;di@x.com\r\n'),
  'an unclosed quote': Buffer.from('email\n"ann@x.com\nbo@x.com\n'),
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mailvet-csv-file-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function streamed(file: string, pieceBytes?: number): Promise<unknown> {
  const r = await readCsvFile(file, { pieceBytes });
  if (!r.ok) return r.message;
  const emails: string[] = [];
  for await (const e of r.value.addresses()) emails.push(e);
  return { emails, rows: r.value.rows, duplicates: r.value.duplicates, skipped: r.value.skipped, unique: r.value.unique };
}

function whole(bytes: Buffer): unknown {
  const r = parseEmailCsv(bytes, { maxEmails: Number.MAX_SAFE_INTEGER });
  if (!r.ok) return r.error.message;
  return { emails: r.value.emails, rows: r.value.rows, duplicates: r.value.duplicates, skipped: r.value.skipped, unique: r.value.emails.length };
}

describe('readCsvFile (mailvet verify --csv) and parseEmailCsv (uploads, /v1, schedules) agree', () => {
  for (const [name, bytes] of Object.entries(FILES)) {
    it(name, async () => {
      const file = path.join(dir, `${name.replace(/\W+/g, '-')}.csv`);
      await writeFile(file, bytes);
      const expected = whole(bytes);
      for (const pieceBytes of bytes.length < 10_000 ? [1, 2, 7, undefined] : [4093, undefined]) expect(await streamed(file, pieceBytes), `pieces of ${pieceBytes ?? 65_536} bytes`).toEqual(expected);
    });
  }
});
