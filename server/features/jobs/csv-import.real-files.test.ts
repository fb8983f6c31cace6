// CSV files as real tools write them: mixed line ends, pipe delimiters, a UTF-8 file (BOM or not)
// holding Windows-1252 lines. parseEmailCsv is the one parser behind the dashboard upload, POST
// /v1/bulk multipart, schedules and `mailvet verify --csv`, so each case holds for every door.
import { describe, expect, it } from 'vitest';
import { csvCell } from '../../lib/csv-cell';
import { parseEmailCsv } from './csv-import';
import { NOT_TEXT_MESSAGE, nulLineMessage } from './csv-text';

const ok = (input: Uint8Array | string) => {
  const r = parseEmailCsv(input);
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value;
};

describe('parseEmailCsv on files from real tools', () => {
  it("reads back our own result download: an address the download escaped against formulas ('-x@…) is the address again", () => {
    // A result file re-uploaded, or loaded into a schedule: csvCell wrote '-x@x.com so that no
    // spreadsheet runs it; read as it stands, the list would check (and charge) '-x@x.com, an invalid address.
    const download = ['email,result', ...['-x@x.com', '+y@x.com', '=z@x.com', '@w@x.com', 'ann@x.com'].map((e) => `${csvCell(e)},valid`)].join('\r\n');
    expect(download).toContain("'-x@x.com");
    expect(ok(download).emails).toEqual(['-x@x.com', '+y@x.com', '=z@x.com', '@w@x.com', 'ann@x.com']);
    // An apostrophe that is not such an escape stays: it is part of the address.
    expect(ok("email\n'ann@x.com\no'neil@x.com\n").emails).toEqual(["'ann@x.com", "o'neil@x.com"]);
  });

  it("reads Excel's CSV from a Japanese, Chinese, Korean or Russian Windows (the system code page, not UTF-8) by its header in that language", () => {
    // Excel's "CSV (Comma delimited)" is written in the system's code page: Shift-JIS, GBK, Big5,
    // Korean (949) or Windows-1251. Read as Windows-1252 its header was mojibake, never 'メールアドレス',
    // and the file was refused as having no email column.
    const hex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
    const files: Array<[string, string, string]> = [
      ['Shift-JIS 名前,メールアドレス', '96bc914f2c8381815b838b83418368838c83580d0a8e5293632c79616d61646140782e6a700d0a', 'yamada@x.jp'],
      ['GBK 姓名,电子邮件', 'd0d5c3fb2cb5e7d7d3d3cabcfe0d0acdf52c77616e6740782e636e0d0a', 'wang@x.cn'],
      ['Big5 姓名,電子郵件', 'a96da6572cb971a46cb66ca5f30d0ab3af2c6368656e40782e74770d0a', 'chen@x.tw'],
      ['949 이름,이메일', 'c0ccb8a72cc0ccb8dec0cf0d0ab1e82c6b696d40782e6b720d0a', 'kim@x.kr'],
      ['1251 Имя;Электронная почта', 'c8ecff3bddebe5eaf2f0eeedede0ff20efeef7f2e00d0ac8e2e0ed3b6976616e40782e72750d0a', 'ivan@x.ru'],
    ];
    for (const [name, bytes, email] of files) {
      const r = parseEmailCsv(hex(bytes));
      expect(r.ok ? r.value.emails : r.error.message, name).toEqual([email]);
    }
    // A file with no email column in any of them is still refused so.
    expect(parseEmailCsv(hex('96bc914f2c89ef8ed00d0a8e5293632c41434d450d0a'))).toMatchObject({ ok: false, error: { code: 'NO_EMAIL_COLUMN' } });
  });

  it('keeps every address when a CRLF file has rows appended with LF line ends', () => {
    // An Excel export (CRLF) with rows added by a script or a Unix editor (LF).
    const v = ok('email\r\na@x.com\nb@x.com\nc@x.com\n');
    expect(v.emails).toEqual(['a@x.com', 'b@x.com', 'c@x.com']);
  });

  it('keeps every address of a header-less list whose line ends are mixed (CRLF, then LF)', () => {
    const v = ok('a@x.com\r\nb@x.com\nc@x.com\n');
    expect(v.emails).toEqual(['a@x.com', 'b@x.com', 'c@x.com']);
  });

  it('keeps every address when an LF file holds a CR-only line end (old Mac export pasted in)', () => {
    const v = ok('email\nbob@x.com\rann@x.com\n');
    expect(v.emails).toEqual(['bob@x.com', 'ann@x.com']);
  });

  it('never turns two lines into one "address" holding a line break', () => {
    const v = ok('Name,Email\r\nAnn,ann@x.com\r\nBob,bob@x.com\nCid,cid@x.com\r\n');
    expect(v.emails.filter((e) => /[\r\n]/.test(e))).toEqual([]);
    expect(v.emails).toEqual(['ann@x.com', 'bob@x.com', 'cid@x.com']);
  });

  it('reads a pipe-delimited file with an Email header', () => {
    const v = ok('Name|Email|Company\nAnn|ann@x.com|A\nBob|bob@x.com|B\n');
    expect(v.emails).toEqual(['ann@x.com', 'bob@x.com']);
  });

  it('does not accept "address|name" cells of a header-less pipe file as addresses', () => {
    const r = parseEmailCsv('ann@x.com|Ann\nbob@x.com|Bob\n');
    // Either read as pipe-delimited (the addresses) or refused; never a job over "ann@x.com|ann".
    if (r.ok) expect(r.value.emails).toEqual(['ann@x.com', 'bob@x.com']);
    else expect(r.error.code).toBe('NO_EMAIL_COLUMN');
  });

  it('keeps line breaks inside quoted fields, whichever line end they are', () => {
    const v = ok('Name,Email\r\n"Ann\r\nSmith",ann@x.com\r\n"Bob\nB",bob@x.com\n"Cid\rC",cid@x.com\r');
    expect(v.emails).toEqual(['ann@x.com', 'bob@x.com', 'cid@x.com']);
  });

  it('refuses text handed in as a string that holds a lone surrogate (it is not Unicode text)', () => {
    const r = parseEmailCsv('email\nann@x.com\n\ud800ann@x.com\n');
    expect(r.ok ? null : r.error.code).toBe('NOT_TEXT');
  });

  it('reads an Excel "CSV UTF-8" file (BOM, Email first) that also holds one Latin-1 line', () => {
    // UTF-8 with a BOM, one row appended by a Latin-1 tool: that line is not UTF-8, so it is read as Windows-1252.
    const bytes = Buffer.concat([Buffer.from('\uFEFFEmail,Name\r\nzoe@x.com,Zoë\r\n', 'utf8'), Buffer.from('jose@x.com,José\r\n', 'latin1')]);
    const v = ok(new Uint8Array(bytes));
    expect(v.emails).toEqual(['zoe@x.com', 'jose@x.com']);
  });

  it('reads each line of a UTF-8 file that also holds a Windows-1252 line in its own encoding (no mojibake addresses)', () => {
    // An Excel "CSV UTF-8" list with rows pasted in by a Latin-1 tool: read whole as Windows-1252,
    // zoë@ became "zoÃ«@" and münchen.de "mÃ¼nchen.de", checked as other (invalid) addresses.
    const bytes = Buffer.concat([Buffer.from('\uFEFFEmail,Name\r\nzoë@x.com,Zoë\r\nann@münchen.de,Ann\r\n', 'utf8'), Buffer.from('josé@x.com,José\r\n', 'latin1'), Buffer.from('łukasz@x.pl,Łukasz\r\n', 'utf8')]);
    expect(ok(new Uint8Array(bytes)).emails).toEqual(['zoë@x.com', 'ann@münchen.de', 'josé@x.com', 'łukasz@x.pl']);
  });

  it('never glues the UTF-8 byte-order mark onto the first address of a header-less list', () => {
    const bytes = Buffer.concat([Buffer.from('\uFEFFann@x.com\r\n', 'utf8'), Buffer.from('jos\xe9@x.com\r\n', 'latin1')]);
    const v = ok(new Uint8Array(bytes));
    expect(v.emails[0]).toBe('ann@x.com');
  });

  it('finds the email column of a Google Contacts export ("E-mail 1 - Type" before "E-mail 1 - Value")', () => {
    const v = ok('Name,Given Name,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Value\r\nAnn Lee,Ann,* Home,ann@x.com,555\r\nBo,Bo,Work,bo@y.com,\r\n');
    expect(v.emails).toEqual(['ann@x.com', 'bo@y.com']);
  });

  it('finds the email column under a header in the language of the exporting tool', () => {
    const headers = ['E-Mail-Adresse', 'E-Mail', 'Adresse e-mail', 'Courriel', 'Correo electrónico', 'Correo', 'Indirizzo email', 'E-mailadres', 'E-post', 'E-posta', 'Sähköposti', 'Endereço de e-mail', 'メールアドレス', '电子邮件', '이메일', 'Электронная почта', 'Primary Email', 'Work E-mail',
      'البريد الإلكتروني', 'ایمیل', 'דוא"ל', 'אימייל', 'Ηλεκτρονικό ταχυδρομείο', 'ईमेल', 'อีเมล', 'Електронна пошта', 'Surel', 'Thư điện tử'];
    for (const h of headers) {
      const r = parseEmailCsv(`Name;${h};Stadt\r\nJosé;jose@x.com;Köln\r\n`);
      expect(r.ok ? r.value.emails : r.error.message, h).toEqual(['jose@x.com']);
    }
  });

  it('never takes a column whose header only mentions mail but holds no address (a postal "Mailing Street")', () => {
    const r = parseEmailCsv('Name,Mailing Street,City\r\nAnn,1 Main St,Springfield\r\n');
    expect(r.ok ? r.value.emails : r.error.message).toBe("CSV must contain an 'email' column");
  });

  it('reads a mailto: link copied from a web page, with its ?subject= or %40, as the address', () => {
    const v = ok('email\nmailto:ann@x.com?subject=Hello%20there\nMAILTO:bo%40x.com\n<mailto:cy@x.com?cc=di@x.com>\n');
    expect(v.emails).toEqual(['ann@x.com', 'bo@x.com', 'cy@x.com']);
    // Without mailto: a ? or % is part of the text as written (a local part may hold either).
    expect(ok('email\nann?x@x.com\nbo%40x@x.com\n').emails).toEqual(['ann?x@x.com', 'bo%40x@x.com']);
    // A decoding that would put a control character (U+0000 cannot even be stored) into the address is not done.
    expect(ok('email\nmailto:a%00b@x.com\nmailto:c%0Ad@x.com\n').emails).toEqual(['a%00b@x.com', 'c%0Ad@x.com']);
  });

  it('reads an address wrapped whole in quotes (\'ann@x.com\', "ann@x.com", “ann@x.com”: SQL output, a file quoted twice) as the address', () => {
    // Wrapped so, no address is valid (the @ is inside the quotes, or the domain ends in a quote): checked as it stood, each came back invalid.
    const v = ok(`email\n'ann@x.com'\n"\"\"bo@x.com\"\""\n“cy@x.com”\n‘di@x.com’\n  ' eve@x.com '  \n`);
    expect(v.emails).toEqual(['ann@x.com', 'bo@x.com', 'cy@x.com', 'di@x.com', 'eve@x.com']);
    // A quoted local part is part of the address, and a lone apostrophe stays.
    expect(ok('email\n"\"\"ann lee\"\"@x.com"\n\'bo@x.com\no\'neil@x.com\n').emails).toEqual(['"ann lee"@x.com', "'bo@x.com", "o'neil@x.com"]);
  });

  it('reads UTF-16 written without a byte-order mark (SQL Server bcp -w, .NET tools), instead of refusing it as binary', () => {
    const le = Buffer.from('Name\tEmail\r\nZoë\tzoe@x.com\r\nBo\tbo@x.com\r\n', 'utf16le');
    expect(ok(new Uint8Array(le)).emails).toEqual(['zoe@x.com', 'bo@x.com']);
    expect(ok(new Uint8Array(Buffer.from('email\nann@x.com\n', 'utf16le').swap16())).emails).toEqual(['ann@x.com']);
    // Bytes that are not such text are still refused.
    expect(parseEmailCsv(new Uint8Array(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]))).ok).toBe(false);
  });

  it('reads a list whose end is padded with NUL bytes (a file preallocated, or cut short by a crash), instead of refusing it as binary', () => {
    const padded = Buffer.concat([Buffer.from('email\r\nann@x.com\r\nbo@x.com\r\n'), Buffer.alloc(4096)]);
    expect(ok(new Uint8Array(padded)).emails).toEqual(['ann@x.com', 'bo@x.com']);
    const unended = Buffer.concat([Buffer.from('email\nann@x.com'), Buffer.alloc(7)]);
    expect(ok(new Uint8Array(unended)).emails).toEqual(['ann@x.com']);
    const u16 = Buffer.concat([Buffer.from('\uFEFFemail\r\nann@x.com\r\n', 'utf16le'), Buffer.alloc(512)]);
    expect(ok(new Uint8Array(u16)).emails).toEqual(['ann@x.com']);
    // A NUL with text after it, or nothing but NULs, is still no CSV.
    expect(parseEmailCsv(new Uint8Array(Buffer.concat([Buffer.from('email\nann@x.com\n'), Buffer.alloc(3), Buffer.from('bo@x.com\n')]))).ok).toBe(false);
    const zeros = parseEmailCsv(new Uint8Array(Buffer.alloc(1024)));
    expect(zeros.ok ? null : zeros.error.code).toBe('NOT_TEXT');
  });

  it('names the line of a stray NUL byte in a text file (binary files are still told so)', () => {
    // A list of thousands of lines with one zero byte in it (a tool's bug, a bad copy) was refused as
    // "binary data" with nothing to find it by: the file opens as text everywhere.
    const rows = Array.from({ length: 40 }, (_, i) => `u${i}@x.com`);
    rows[30] = 'u30@x.com\u0000';
    const stray = parseEmailCsv(new Uint8Array(Buffer.from(`email\r\n${rows.join('\r\n')}\r\n`)));
    expect(stray).toMatchObject({ ok: false, error: { code: 'NOT_TEXT' } });
    expect(stray.ok ? '' : stray.error.message).toBe(nulLineMessage(32));
    expect(nulLineMessage(32)).toMatch(/line 32 /);
    // On a file's first line, or after control characters (a zip, a PNG renamed .csv): binary, as before.
    for (const bin of [[0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]]) {
      const r = parseEmailCsv(new Uint8Array(bin));
      expect(r.ok ? '' : r.error.message).toBe(NOT_TEXT_MESSAGE);
    }
  });

  it('reads files joined end to end (cat a.csv b.csv): the second header is no address and its byte-order mark is no character', () => {
    // Each repeated header was checked and charged as the "address" Email (invalid), and the second
    // file's byte-order mark was glued to its first line: a header-less list's first address came back invalid.
    const excel = (rows: string) => Buffer.from(`\uFEFF${rows}`, 'utf8');
    const joined = ok(new Uint8Array(Buffer.concat([excel('Name,Email\r\nAnn,ann@x.com\r\n'), excel('Name,Email\r\nBo,bo@x.com\r\n'), Buffer.from('name,EMAIL\ncy,cy@x.com\n')])));
    expect({ emails: joined.emails, rows: joined.rows }).toEqual({ emails: ['ann@x.com', 'bo@x.com', 'cy@x.com'], rows: 3 });
    // Another tool's export joined on: its header has another shape.
    expect(ok('Name,Email\nAnn,ann@x.com\nFirst Name,Last Name,E-mail Address\nBo,Berg,bo@x.com\n').emails).toEqual(['ann@x.com', 'bo@x.com']);
    const bare = ok(new Uint8Array(Buffer.concat([excel('ann@x.com\r\n'), excel('bo@x.com\r\n')])));
    expect(bare.emails).toEqual(['ann@x.com', 'bo@x.com']);
    // UTF-16 files joined: the second one's byte-order mark is decoded as U+FEFF at a line start.
    const u16 = (t: string) => Buffer.from(`\uFEFF${t}`, 'utf16le');
    expect(ok(new Uint8Array(Buffer.concat([u16('Email\tName\r\nann@x.com\tAnn\r\n'), u16('Email\tName\r\nbo@x.com\tBo\r\n')]))).emails).toEqual(['ann@x.com', 'bo@x.com']);
  });

  it('reads the address of a ragged row (a name with an unquoted comma, a row missing a cell), not the cell that slid into the email column', () => {
    // Hand-edited files: "Lee, Cy" unquoted pushed cy@x.com out of the Email column, and "Cy" was
    // checked (and charged) instead; Bo's row, one cell short, had no Email cell and was dropped unsaid.
    const v = ok('Name,Email,City\nAnn Lee,ann@x.com,Oslo\nLee, Cy,cy@x.com,Oslo\n');
    expect({ emails: v.emails, rows: v.rows }).toEqual({ emails: ['ann@x.com', 'cy@x.com'], rows: 2 });
    expect(ok('Name,City,Email\nAnn,Oslo,ann@x.com\nBo,bo@x.com\nDi,Rome\n').emails).toEqual(['ann@x.com', 'bo@x.com']);
    // A row as wide as the header is read by its columns, whatever its other cells hold.
    expect(ok('Name,Email,Note\nAnn,,ask ann@x.com\nBo,bo@x.com,\n').emails).toEqual(['bo@x.com']);
  });

  it('reads "Name <address>" cells (a recipient list copied from a mail program) as the address', () => {
    const v = ok('email\r\n"Ann Lee <ann@X.com>"\r\n"""Lee, Bo"" <bo@x.com>"\r\nann@x.com\r\nCy <cy@x.com>\r\n');
    expect(v.emails).toEqual(['ann@x.com', 'bo@x.com', 'cy@x.com']);
    expect(v.duplicates).toBe(1);
  });

  it('reads "Name" <address> cells written unquoted (a To line pasted from a mail program), not refusing the file', () => {
    // The display name's quotes open the CSV field and the bracketed address follows them: strictly
    // not CSV, yet what a mail program copies. The rest of the file (quoted fields too) reads as CSV.
    expect(ok('email\r\n"Ann Lee" <ann@X.com>\r\n"Lee, Bo" <bo@x.com>\r\ncy@x.com\r\n').emails).toEqual(['ann@x.com', 'bo@x.com', 'cy@x.com']);
    expect(ok('"Ann Lee" <ann@x.com>\n"Bo" <bo@x.com>\n').emails).toEqual(['ann@x.com', 'bo@x.com']);
    expect(ok('name,email,company\n"Lee, Ann","Ann" <ann@x.com>,ACME\n"Bo, B",bo@x.com,"B, Inc"\n').emails).toEqual(['ann@x.com', 'bo@x.com']);
  });

  it('reads a file whose other columns start a cell with a quoted word ("Doc" Smith), instead of refusing it whole', () => {
    // A nickname in quotes at the start of a name: strictly not CSV (text after the closing quote),
    // and nothing to do with the addresses. The cell is kept as the text it shows.
    expect(ok('Name,Email,Company\r\n"Doc" Smith,doc@x.com,"ACME, Inc"\r\nAnn,ann@x.com,A\r\n').emails).toEqual(['doc@x.com', 'ann@x.com']);
    expect(ok('Name;Email\n"Bo" Berg;bo@x.com\n').emails).toEqual(['bo@x.com']);
    // In the email column such a cell is one value, checked as typed (and found invalid), not a refusal of the file.
    expect(ok('email\n"ann@x.com"x\nbo@x.com\n').emails).toEqual(['"ann@x.com"x', 'bo@x.com']);
  });

  it("reads LinkedIn's Connections.csv, whose notes come before the header row", () => {
    const linkedIn = [
      'Notes:',
      '"When exporting your connection data, you may notice that some of the email addresses are missing. You will only see email addresses for connections who have allowed their connections to see or download their email address using this setting https://www.linkedin.com/mypreferences/d/download-my-data. You can learn more here https://www.linkedin.com/help/linkedin/answer/261"',
      '',
      'First Name,Last Name,URL,Email Address,Company,Position,Connected On',
      'Ann,Lee,https://www.linkedin.com/in/annlee,ann@x.com,ACME,CTO,01 Mar 2024',
      'Bo,Berg,https://www.linkedin.com/in/bo,,Initech,Dev,02 Mar 2024',
      'Cy,Ng,https://www.linkedin.com/in/cy,cy@y.com,"Globex, Inc",CEO,03 Mar 2024',
      '',
    ].join('\n');
    expect(ok(linkedIn).emails).toEqual(['ann@x.com', 'cy@y.com']);
    // A title line over an export's header, as report tools write one.
    expect(ok('Customer list exported 2024-03-01\r\nName,Email\r\nAnn,ann@x.com\r\n').emails).toEqual(['ann@x.com']);
    // Lines above a header are read as a preamble only while they hold no address: a header-less list stays one.
    expect(parseEmailCsv('Customers\r\nann@x.com\r\nemail\r\nbo@x.com\r\n').ok).toBe(false);
    // A title is one line, narrower than the header: a table whose data rows happen to hold the word "email" has no header below.
    expect(ok('Address book\r\nemail\r\nann@x.com\r\n').emails).toEqual(['ann@x.com']);
    const notAList = parseEmailCsv('Name,Note\r\nAnn,email\r\nBo,call back\r\n');
    expect(notAList.ok ? notAList.value.emails : notAList.error.code).toBe('NO_EMAIL_COLUMN');
  });

  it('says on which line a never-closed quote opens (not the last line of the file, where the reading ended)', () => {
    const lines = ['Name,Email', 'Ann,ann@x.com', '"Bob,bob@x.com', ...Array.from({ length: 50 }, (_, i) => `U${i},u${i}@x.com`)];
    const r = parseEmailCsv(`${lines.join('\r\n')}\r\n`);
    expect(r.ok ? r.value.emails : r.error.message).toBe('The CSV could not be read: the quote that starts a cell on line 3 is never closed. Close it or remove it.');
    // Quoted cells that hold line breaks, and a separator hint line, count as the lines they are.
    const hinted = parseEmailCsv('sep=;\nName;Email\n"two\nlines";a@x.com\n"Cy;cy@x.com\nDi;di@x.com\n');
    expect(hinted.ok ? hinted.value.emails : hinted.error.message).toBe('The CSV could not be read: the quote that starts a cell on line 5 is never closed. Close it or remove it.');
  });

  it("honours Excel's separator hint line (sep=;) instead of reading it as the header", () => {
    expect(ok('sep=;\r\nName;Email\r\nAnn;ann@x.com\r\n').emails).toEqual(['ann@x.com']);
    expect(ok('\uFEFFsep=,\nemail\nann@x.com\n').emails).toEqual(['ann@x.com']);
    expect(ok('"sep=;"\nName;E-mail\nLee, Bo;bo@x.com\n').emails).toEqual(['bo@x.com']);
    expect(ok('SEP=\t\r\nemail\tname\r\nann@x.com\tAnn\r\n').emails).toEqual(['ann@x.com']);
  });

  it('reads a header-less file whose rows hold the address and other columns (address first or not)', () => {
    expect(ok('ann@x.com,Ann Lee,ACME\r\nbo@x.com,Bo,\r\n').emails).toEqual(['ann@x.com', 'bo@x.com']);
    expect(ok('Ann;ann@x.com;1\nBo;bo@x.com;2\n').emails).toEqual(['ann@x.com', 'bo@x.com']);
  });
});
