// Reading a customer's CSV into a clean, de-duplicated list of addresses (pure: no I/O).
// csv-parse does the CSV (BOM, quoted fields, line ends); this module picks the delimiter, finds the
// email column (case-insensitive; or a header-less single column of addresses), normalises each
// address (trimmed, domain lower-cased) and refuses what is not a usable list with a clear message.
import { parse } from 'csv-parse/sync';
import { hasLoneSurrogate, hasNul, trimAddress } from '../../../probe/contract';
import { lowerCaseDomain, toAsciiDomain } from '../../../probe/syntax/idna';
import { MAX_EMAILS_PER_FILE } from '../../contracts/jobs';
import { SCHEDULE_MESSAGES } from '../../contracts/schedules';
import { groupBy } from '../../lib/group-by';
import { decodeText, dropJoinedBoms, isMostlyText, NOT_TEXT_MESSAGE } from './csv-text';

export type CsvImportErrorCode = 'EMPTY_FILE' | 'NOT_TEXT' | 'UNREADABLE' | 'NO_EMAIL_COLUMN' | 'NO_EMAILS' | 'TOO_MANY_EMAILS';

export interface CsvImportError {
  code: CsvImportErrorCode;
  message: string;
}

export interface CsvImport {
  /** Unique normalised addresses (addressKey: John@ and john@ are one), in file order, as first written. */
  emails: string[];
  /** Addresses read from the email column(s) (before de-duplication; a cell holding two counts two). */
  rows: number;
  duplicates: number;
  /** Values too long to be an address (over 1,024 characters), left out. */
  skipped: number;
  delimiter: string;
  hasHeader: boolean;
}

export type CsvImportOutcome = { ok: true; value: CsvImport } | { ok: false; error: CsvImportError };

/** A header cell reduced to lower-case letters and digits, accents dropped ("E-Mail-Adresse" → "emailadresse"). */
function headerKey(h: string): string {
  return h.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** What the exporting tool calls the email column, in the languages its user may run it in. */
const EMAIL_HEADER_TEXTS = new Set(
  [
    'email', 'e-mail', 'email address', 'e-mail address', 'emails', 'mail', 'mail address',
    'e-mail-adresse', 'mailadresse', // de
    'adresse e-mail', 'adresse électronique', 'courriel', 'adresse courriel', 'mél', 'adresse de messagerie', // fr (the last: Outlook's)
    'correo', 'correo electrónico', 'dirección de correo', 'dirección de correo electrónico', // es
    'endereço de e-mail', 'endereço de email', 'endereço eletrônico', 'endereço electrónico', // pt
    'indirizzo email', 'indirizzo e-mail', 'posta elettronica', // it
    'e-mailadres', 'e-post', 'e-postadresse', 'e-postadress', 'e-postiosoite', 'sähköposti', 'sähköpostiosoite', // nl, nordic
    'e-posta', 'e-posta adresi', 'adres e-mail', 'e-mailová adresa', // tr, pl, cs
    'электронная почта', 'эл. почта', 'почта', 'адрес электронной почты', // ru
    'メールアドレス', 'メール', 'eメール', '电子邮件', '电子邮箱', '邮箱', '邮件地址', '電子郵件', '電子郵件地址', '이메일', '이메일 주소', '전자우편', // ja, zh, ko
    'البريد الإلكتروني', 'بريد إلكتروني', 'ایمیل', 'ايميل', 'پست الکترونیک', 'דוא"ל', 'דואר אלקטרוני', 'אימייל', // ar, fa, he
    'ηλεκτρονικό ταχυδρομείο', 'ηλ. ταχυδρομείο', 'ईमेल', 'ईमेल पता', 'อีเมล', 'електронна пошта', 'ел. пошта', 'surel', 'thư điện tử', // el, hi, th, uk, id, vi
  ],
);
const EMAIL_HEADERS = new Set([...EMAIL_HEADER_TEXTS].map(headerKey));
/** Words that make a header a candidate for the email column ("Work E-mail", "E-mail 1 - Value"). */
const EMAIL_HEADER_WORDS = ['mail', 'courriel', 'correo', 'posta', 'post', 'почта', 'пошта', 'メール', '邮', '郵', '이메일', 'بريد', 'ایمیل', 'ايميل', 'דואל', 'אימייל', 'ταχυδρομειο', 'ईमेल', 'อีเมล'].map(headerKey);
export const MAX_VALUE_LENGTH = 1024;

const fail = (code: CsvImportErrorCode, message: string): CsvImportOutcome => ({ ok: false, error: { code, message } });

/**
 * SP/HTAB trimmed (nothing else: see trimAddress), a mailto: or <…> wrapper removed, the domain
 * lower-cased as the syntax check does it (true case pairs only; the local part keeps its case: it
 * may matter to the mailbox). JavaScript's toLowerCase would turn the KELVIN SIGN into k and İ into
 * i + U+0307, i.e. check a different domain from the one in the file.
 */
export function normalizeEmail(raw: string): string {
  let v = mailtoAddress(unwrapQuotes(trimAddress(raw)));
  if (v.startsWith('<') && v.endsWith('>')) v = mailtoAddress(trimAddress(v.slice(1, -1)));
  // "Ann Lee <ann@example.com>", as a mail program copies a recipient: the address in the brackets
  // (no address ends in '>', so nothing that could be one is changed). Found by index: a regex
  // backtracked over every '@' of a hostile cell from every other one (hours for a 10 MB cell).
  const named = namedAddress(v);
  if (named !== null) v = trimAddress(named);
  const at = v.lastIndexOf('@');
  if (at < 0) return v;
  return `${v.slice(0, at)}@${lowerCaseDomain(v.slice(at + 1))}`;
}

/**
 * What two spellings of one mailbox have in common, for de-duplication: the address with the ASCII
 * letters of its local part lower-cased (the domain is already, normalizeEmail), an IDN domain as its A-label. RFC 5321 lets a
 * server tell John@ from john@, but no mail provider does, and a list merged from a CRM and a
 * newsletter tool holds both: checked (and charged) twice, the same mailbox came back as two rows.
 * The first spelling in the list is the one checked and shown.
 */
export function addressKey(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  // An IDN domain as typed (bücher.example) and as its A-label (xn--bcher-kva.example) is one domain.
  const domain = email.slice(at + 1);
  const ascii = /[^\x00-\x7f]/.test(domain) ? toAsciiDomain(domain) : null;
  return `${email.slice(0, at).replace(/[A-Z]+/g, (m) => m.toLowerCase())}@${ascii?.ok ? ascii.ascii : domain}`;
}

/**
 * The address of a mailto: link as a web page holds it (RFC 6068): what comes before its ?subject=…
 * or ?cc=…, percent-decoded (mailto:ann%40x.com). A decoding that would hold a control character
 * (%00, %0A) is not done: the text stays as written, for the syntax check to judge. Anything else: as it is.
 */
function mailtoAddress(v: string): string {
  if (!v.toLowerCase().startsWith('mailto:')) return v;
  const link = v.slice(7);
  const q = link.indexOf('?');
  const to = q < 0 ? link : link.slice(0, q);
  let decoded = to;
  try {
    decoded = decodeURIComponent(to);
  } catch {
    // not percent-encoded text: kept as written
  }
  return trimAddress(/[\u0000-\u001f\u007f]/.test(decoded) ? to : decoded);
}

/** The quotes a value may be wrapped in, opening → closing. */
const WRAPPING_QUOTES: Record<string, string> = { "'": "'", '"': '"', '\u201c': '\u201d', '\u2018': '\u2019', '\u201e': '\u201c', '\u00ab': '\u00bb' };

/**
 * A value wrapped whole in quotes ('ann@x.com' from SQL output, "ann@x.com" from a file quoted twice,
 * “ann@x.com” from a word processor) without them. No address ends in a quote (a domain never
 * holds one), so nothing that could be an address is changed; "ann lee"@x.com keeps its quotes.
 */
function unwrapQuotes(v: string): string {
  const close = v.length > 2 ? WRAPPING_QUOTES[v[0]!] : undefined;
  if (close === undefined || !v.endsWith(close)) return v;
  const inner = trimAddress(v.slice(1, -1));
  return inner.includes('@') ? inner : v;
}

/** The address of "Name <address>" (one '<', one '>' at the end, an '@' between), else null. */
function namedAddress(v: string): string | null {
  const lt = v.indexOf('<');
  if (lt < 0 || v.lastIndexOf('<') !== lt || v.indexOf('>') !== v.length - 1) return null;
  const inner = v.slice(lt + 1, -1);
  return inner.includes('@') ? inner : null;
}

/**
 * Every record delimiter a real file uses, longest first: Windows (CRLF), Unix (LF) and old Mac (CR)
 * line ends, mixed in one file too (an Excel export with rows appended by a script). Left to itself,
 * csv-parse takes the first line end it meets as the only one and glues the other lines together.
 * A quoted field keeps its line breaks whichever they are.
 */
const RECORD_DELIMITERS = ['\r\n', '\n', '\r'];

/** csv-parse's options for every file we read (the delimiter from detectDelimiter). */
export function csvParseOptions(delimiter: string) {
  return {
    bom: true,
    delimiter,
    record_delimiter: RECORD_DELIMITERS,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    trim: true,
  };
}

/**
 * csv-parse's refusal of text after a field's closing quote: `"Ann Lee" <ann@x.com>` (a recipient as
 * a mail program copies it) or `"Doc" Smith` (a nickname in a name column), written unquoted. Such a
 * file is read again, repaired (repairTextAfterQuotes).
 */
export const isTextAfterClosingQuote = (err: unknown): boolean => {
  const code = (err as { code?: string } | null)?.code;
  return code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE' || code === 'CSV_INVALID_CLOSING_QUOTE';
};

/**
 * Each field that opens with a quoted piece and goes on after its closing quote (`"Lee, Ann"
 * <ann@x.com>`, `"Doc" Smith`) rewritten as the CSV field holding that text (`"""Doc"" Smith"`):
 * the cell reads as it shows, and normalizeEmail reads "Name" <address> as the address. Only a
 * whole field (from a line start or a delimiter to the next) is rewritten, never across a line, so
 * the text may be repaired a line at a time; a field of valid CSV never has this shape.
 */
export function repairTextAfterQuotes(text: string, delimiter: string): string {
  const d = delimiter.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&');
  const field = new RegExp(`(?<![^\\r\\n${d}])([ \\t]*)"([^"\\r\\n]*)"([^"\\r\\n${d}]+)(?=${d}|[\\r\\n]|$)`, 'g');
  return text.replace(field, (_m, lead: string, quoted: string, rest: string) => `${lead}"""${quoted}""${rest}"`);
}

/**
 * Where a quote that opens a cell and is never closed started (csv-parse says only where its reading
 * ended: the file's last line, or further, counting each CRLF twice). Reads text as csv-parse does
 * (a quote is special only at the start of a cell, after blanks; "" inside is one quote), a piece at
 * a time; lines are counted as the file's own (CRLF, LF or CR).
 */
export class OpenQuoteFinder {
  private line: number;
  private prevCR = false;
  private fieldStart = true;
  private quoted = false;
  private quoteAfter = false; // a " seen inside a quoted cell: closing, or the first of ""
  private openedOn = 0;

  /** `firstLine`: the line the text starts on (2 after a separator hint line, which is not CSV). */
  constructor(
    private readonly delimiter: string,
    firstLine = 1,
  ) {
    this.line = firstLine;
  }

  push(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\n' && !this.prevCR) this.line++;
      else if (ch === '\r') this.line++;
      this.prevCR = ch === '\r';
      if (this.quoted) {
        if (this.quoteAfter) {
          this.quoteAfter = false;
          if (ch === '"') continue; // "" is a quote inside the cell
          this.quoted = false; // the quote before closed the cell; this character is outside it
        } else {
          if (ch === '"') this.quoteAfter = true;
          continue;
        }
      }
      if (ch === this.delimiter || ch === '\r' || ch === '\n') this.fieldStart = true;
      else if (this.fieldStart && (ch === ' ' || ch === '\t')) continue;
      else if (this.fieldStart && ch === '"') {
        this.quoted = true;
        this.openedOn = this.line;
        this.fieldStart = false;
      } else this.fieldStart = false;
    }
  }

  /** The line of the quote still open at the end of the text, or null. */
  end(): number | null {
    return this.quoted && !this.quoteAfter ? this.openedOn : null;
  }
}

/** The refusal of a file csv-parse could not read; `openQuoteLine` where a never-closed quote opened. */
export function unreadableMessage(err: unknown, openQuoteLine: number | null): string {
  if ((err as { code?: string } | null)?.code === 'CSV_QUOTE_NOT_CLOSED' && openQuoteLine !== null) {
    return `The CSV could not be read: the quote that starts a cell on line ${openQuoteLine.toLocaleString('en-US')} is never closed. Close it or remove it.`;
  }
  return `The CSV could not be read: ${(err as Error).message}`;
}

/** openQuoteLine for text read whole. */
function openQuoteLineOf(text: string, delimiter: string, firstLine: number): number | null {
  const finder = new OpenQuoteFinder(delimiter, firstLine);
  finder.push(text);
  return finder.end();
}

/**
 * Excel's separator hint: a first line `sep=;` (tools write it so that Excel, which honours and hides
 * it, splits the file right in any locale). The delimiter it names and the text after the line; null
 * when the file has none.
 */
export function separatorHint(text: string): { delimiter: string; rest: string } | null {
  const m = /^"?sep=([^\r\n"])"?[ \t]*(?:\r\n|\r|\n|$)/i.exec(text);
  return m ? { delimiter: m[1]!, rest: text.slice(m[0].length) } : null;
}

/**
 * The delimiter of the first non-blank line: the most frequent of , ; tab | outside quotes (a tie:
 * the earlier). `|` is also legal inside an address's local part (`sales|eu@example.com`), so it is
 * taken only from a header line (no @ in it) or when the next line has as many.
 */
export function detectDelimiter(text: string): string {
  const [line = '', next] = text.split(/\r\n|\r|\n/).filter((l) => l.trim().length > 0);
  const counts = delimiterCounts(line);
  if (line.includes('@') && (next === undefined || delimiterCounts(next)['|'] !== counts['|'])) counts['|'] = 0;
  let best = ',';
  for (const d of [';', '\t', '|']) if (counts[d]! > counts[best]!) best = d;
  return best;
}

function delimiterCounts(line: string): Record<string, number> {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0, '|': 0 };
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch]! += 1;
  }
  return counts;
}

/**
 * The email column named by the header row (-1: none). "Email" itself first, then another name for it
 * in any of the exporting tools' languages ("E-Mail-Adresse", "Courriel", "メールアドレス"), then a
 * header that mentions mail ("Work E-mail", Google Contacts' "E-mail 1 - Value") whose column holds an
 * address in its first rows — Google's "E-mail 1 - Type" before it, or a postal "Mailing Street",
 * does not. A header cell holding '@' is an address (a header-less list), not a name.
 */
function emailColumnOf(records: string[][]): number {
  const keys = records[0]!.map((h) => (h.includes('@') ? '' : headerKey(h)));
  const exact = keys.indexOf('email');
  if (exact >= 0) return exact;
  const named = keys.findIndex((k) => EMAIL_HEADERS.has(k));
  if (named >= 0) return named;
  const sample = records.slice(1, LAYOUT_SAMPLE);
  return keys.findIndex((k, i) => k !== '' && EMAIL_HEADER_WORDS.some((w) => k.includes(w)) && sample.some((r) => (r[i] ?? '').includes('@')));
}

/** How many records (the header and the rows after it) decide a file's layout. */
export const LAYOUT_SAMPLE = 51;

export interface CsvLayout {
  column: number;
  /**
   * Every column read for addresses, in file order: the email column and the ones named as it is
   * but for a number (Outlook's "E-mail 2 Address" and "E-mail 3 Address" beside "E-mail Address",
   * Google's "E-mail 2 - Value", a second "Email" of two lists pasted side by side). A contact whose
   * only address is in "E-mail 2 Address" is one of the list's, not a blank row.
   */
  columns: number[];
  /** How many cells the header (or a header-less file's first row) has: a row of another width is ragged. */
  width: number;
  /** The email columns' header cells, lower-cased (none without a header): a later row so written is a header again. */
  names: string[];
  hasHeader: boolean;
  /** Records before the first row of addresses: lines above the header, and the header. */
  skip: number;
}

/** How many lines above the header a file may have (LinkedIn's notes, a report's title). */
export const MAX_PREAMBLE = 10;

/**
 * Where the addresses are, from the file's first LAYOUT_SAMPLE records: the email column under its
 * header (the first record, or one after a few lines that hold no address), or a header-less
 * file's column of addresses; null when neither (no email column).
 */
export function csvLayout(head: string[][]): CsvLayout | null {
  const column = emailColumnOf(head);
  if (column >= 0) return headerLayout(head[0]!, column, 1);
  // A header-less file: the one cell of the first row that holds an address ("ann@x.com" alone, or
  // "Ann,ann@x.com,ACME") names the column.
  const first = head[0]!;
  const withAt = first.flatMap((c, i) => (c.includes('@') ? [i] : []));
  if (withAt.length === 1) return { column: withAt[0]!, columns: [withAt[0]!], width: first.length, names: [], hasHeader: false, skip: 0 };
  // Lines above the header (LinkedIn's Connections.csv starts with notes; a report tool's title):
  // the header may come after up to MAX_PREAMBLE records, as long as none of them holds an address
  // and each is a line of text (one cell) or narrower than the header: a table whose rows hold the
  // word "email" somewhere has no header in them.
  for (let i = 1; i <= MAX_PREAMBLE && i < head.length; i++) {
    if (head[i - 1]!.some((c) => c.includes('@'))) break;
    const col = emailColumnOf(head.slice(i));
    if (col < 0) continue;
    const width = filledCells(head[i]!);
    if (head.slice(0, i).every((r) => filledCells(r) <= 1 || filledCells(r) < width)) return headerLayout(head[i]!, col, i + 1);
  }
  return null;
}

const filledCells = (record: string[]): number => record.filter((c) => c !== '').length;

function headerLayout(header: string[], column: number, skip: number): CsvLayout {
  const columns = namesakes(header, column);
  return { column, columns, width: header.length, names: columns.map((c) => header[c]!.toLowerCase()), hasHeader: true, skip };
}

/** The header's columns named as `column` is but for its digits ("E-mail 2 Address" for "E-mail Address"), in file order. */
function namesakes(header: string[], column: number): number[] {
  const bare = (h: string) => headerKey(h).replace(/\p{N}/gu, '');
  const name = bare(header[column]!);
  return header.flatMap((h, i) => (i === column || (name !== '' && !h.includes('@') && bare(h) === name) ? [i] : []));
}

/**
 * A cell escaped against formulas as csvCell (lib/csv-cell.ts) and OWASP write it: a ' before
 * = + - @ tab CR or their full-width forms. A result download re-uploaded, or loaded into a
 * schedule, holds its addresses so; the ' is the escape's, not the address's.
 */
const ESCAPED_FORMULA = /^'(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B])/;

/**
 * A value of the email column, normalised: the address to check, '' when the cell is blank or
 * missing, null when it is too long to be an address (left out, and counted).
 */
export function cellAddress(raw: string | undefined): string | null {
  if (raw === undefined) return '';
  const email = normalizeEmail(raw).replace(ESCAPED_FORMULA, '');
  return email.length > MAX_VALUE_LENGTH ? null : email;
}

/**
 * Where a cell holding several addresses is cut: between list items (`,` `;` a line break, or
 * Google Contacts' ` ::: `), else between words. Outside a quoted string ("a,b"@x.com), <…> and
 * […] (an address literal such as [IPv6:::1]); a backslash in a quoted string escapes the next character.
 */
type Cut = 'list' | 'words';

/** The [start, end) of each piece of `v` between `cut` separators, in one pass. */
function* pieces(v: string, cut: Cut): Generator<[number, number]> {
  let start = 0;
  let quoted = false;
  let angle = 0;
  let square = 0;
  for (let i = 0; i < v.length; i++) {
    const ch = v[i]!;
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '<') angle++;
    else if (ch === '>') angle = Math.max(0, angle - 1);
    else if (ch === '[') square++;
    else if (ch === ']') square = Math.max(0, square - 1);
    else if (angle === 0 && square === 0) {
      const width = cut === 'list' ? (ch === ',' || ch === ';' || ch === '\r' || ch === '\n' ? 1 : v.startsWith(':::', i) ? 3 : 0) : ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n' ? 1 : 0;
      if (width > 0) {
        yield [start, i];
        start = i + width;
        i = start - 1;
      }
    }
  }
  yield [start, v.length];
}

/** Whether `v` cut so is two or more addresses: every piece not blank holds an '@' ("Lee, Ann <ann@x.com>" is one). */
function isSeveral(v: string, cut: Cut): boolean {
  let filled = 0;
  for (const [a, b] of pieces(v, cut)) {
    const piece = trimAddress(v.slice(a, b));
    if (piece === '') continue;
    if (!piece.includes('@')) return false;
    filled++;
  }
  return filled > 1;
}

/**
 * The addresses of one cell, as cellAddress reads each ('' for a blank cell yields nothing). A cell
 * holding several ("ann@x.com; bo@x.com", Google Contacts' "ann@x.com ::: ann@y.com", one per line
 * of a spreadsheet cell) is each of them: checked as one glued "address" it came back invalid, and
 * each of its real addresses was never checked.
 */
export function cellAddresses(raw: string | undefined, out: Array<string | null> = []): Array<string | null> {
  if (raw === undefined) return out;
  // Several addresses need an '@' each: a cell with one at most is one value (the common case, at once).
  const at = raw.indexOf('@');
  const cut: Cut | null = at < 0 || raw.indexOf('@', at + 1) < 0 ? null : isSeveral(raw, 'list') ? 'list' : isSeveral(raw, 'words') ? 'words' : null;
  if (cut === null) {
    const one = cellAddress(raw);
    if (one !== '') out.push(one);
    return out;
  }
  for (const [a, b] of pieces(raw, cut)) {
    const one = cellAddress(raw.slice(a, b));
    if (one !== '') out.push(one);
  }
  return out;
}

/**
 * The addresses of one record under `layout`: each of its email columns (CsvLayout.columns), in
 * order. A ragged record (not as wide as the header: "Lee, Cy" written unquoted, a cell left out)
 * whose email columns hold no '@' has its cells out of place: its one cell holding an '@' is the
 * address. Read by the column, "Cy" was checked and charged and cy@x.com never was, or a row one
 * cell short was dropped as blank.
 */
export function recordAddresses(record: string[], layout: Pick<CsvLayout, 'columns' | 'width' | 'names'>): Array<string | null> {
  const { columns } = layout;
  if (!columns.some((c) => record[c]?.includes('@'))) {
    if (isHeaderRow(record, layout.names, columns)) return [];
    if (record.length !== layout.width) {
      const withAt = record.flatMap((cell, i) => (cell.includes('@') ? [i] : []));
      if (withAt.length === 1) return cellAddresses(record[withAt[0]!]);
      // Another tool's header (files of two shapes joined): no address in it, an email column named.
      if (withAt.length === 0 && record.some((cell) => EMAIL_HEADER_TEXTS.has(cell.toLowerCase()))) return [];
    }
  }
  const out: Array<string | null> = [];
  for (const c of columns) cellAddresses(record[c], out);
  return out;
}

/**
 * A header again, below the first (files joined end to end, each with its header): a row without
 * an '@' whose email column is named as an email column. Read as a row, each was checked and charged
 * as the "address" Email.
 */
function isHeaderRow(record: string[], names: string[], columns: number[]): boolean {
  return columns.some((c) => {
    const cell = record[c]?.toLowerCase();
    return !!cell && (names.includes(cell) || EMAIL_HEADER_TEXTS.has(cell));
  });
}

export const tooManyMessage = (maxEmails: number): string =>
  `This file has more than ${maxEmails.toLocaleString('en-US')} email addresses. The limit is ${maxEmails.toLocaleString('en-US')} per file: please split it.`;

export function parseEmailCsv(input: Uint8Array | string, o: { maxEmails?: number } = {}): CsvImportOutcome {
  const maxEmails = o.maxEmails ?? MAX_EMAILS_PER_FILE;
  // A lone surrogate (possible only in text handed in as a string: decoded bytes never hold one) is no text.
  const read = typeof input === 'string' ? (isMostlyText(input) && !hasNul(input) && !hasLoneSurrogate(input) ? dropJoinedBoms(input.replace(/^\uFEFF/, '')) : null) : decodeText(input);
  if (read === null) return fail('NOT_TEXT', NOT_TEXT_MESSAGE);
  const hint = separatorHint(read);
  const text = hint ? hint.rest : read;
  if (text.trim().length === 0) return fail('EMPTY_FILE', SCHEDULE_MESSAGES.csvEmpty);

  const delimiter = hint?.delimiter ?? detectDelimiter(text);
  let records: string[][];
  try {
    records = parse(text, csvParseOptions(delimiter)) as string[][];
  } catch (err) {
    try {
      if (!isTextAfterClosingQuote(err)) throw err;
      records = parse(repairTextAfterQuotes(text, delimiter), csvParseOptions(delimiter)) as string[][];
    } catch {
      return fail('UNREADABLE', unreadableMessage(err, openQuoteLineOf(text, delimiter, hint ? 2 : 1)));
    }
  }
  if (records.length === 0) return fail('EMPTY_FILE', SCHEDULE_MESSAGES.csvEmpty);

  const layout = csvLayout(records.slice(0, LAYOUT_SAMPLE));
  if (layout === null) return fail('NO_EMAIL_COLUMN', SCHEDULE_MESSAGES.csvNoEmailColumn);
  const { hasHeader, skip } = layout;

  const seen = new Set<string>();
  const emails: string[] = [];
  let rows = 0;
  let skipped = 0;
  for (const record of records.slice(skip)) {
    for (const email of recordAddresses(record, layout)) {
      rows++;
      if (email === null) {
        skipped++;
        continue;
      }
      const key = addressKey(email);
      if (seen.has(key)) continue;
      seen.add(key);
      emails.push(email);
      if (emails.length > maxEmails) return fail('TOO_MANY_EMAILS', tooManyMessage(maxEmails));
    }
  }
  if (emails.length === 0) return fail('NO_EMAILS', SCHEDULE_MESSAGES.noValidEmails);
  return { ok: true, value: { emails, rows, duplicates: rows - skipped - emails.length, skipped, delimiter, hasHeader } };
}

/** The domain part the probe groups by ('' when there is none). */
export function domainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).toLowerCase();
}

/**
 * Splits addresses into chunks for the workers. Addresses of one domain stay together (so one
 * SMTP session at the probe serves many recipients); a domain bigger than a chunk fills whole
 * chunks of its own; small domains are packed together up to the chunk size.
 */
export function planChunks(emails: string[], chunkSize: number): string[][] {
  const byDomain = groupBy(emails, domainOf);
  const domains = [...byDomain.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const chunks: string[][] = [];
  let current: string[] = [];
  for (const [, list] of domains) {
    let rest = list;
    while (rest.length >= chunkSize) {
      chunks.push(rest.slice(0, chunkSize));
      rest = rest.slice(chunkSize);
    }
    if (rest.length === 0) continue;
    if (current.length + rest.length > chunkSize) {
      chunks.push(current);
      current = [];
    }
    current.push(...rest);
  }
  if (current.length > 0) chunks.push(current);
  return chunks.filter((c) => c.length > 0);
}
