// A file's layout: where its addresses are. The delimiter (Excel's sep= hint line, else the most frequent
// of , ; tab | on the first line), the email column by its header, named in any of the exporting
// tools' languages or mentioning mail (or a header-less file's column of addresses), lines above the
// header, and the columns named as the email column but for a number (csvLayout).

/** A header cell reduced to lower-case letters and digits, accents dropped ("E-Mail-Adresse" → "emailadresse"). */
function headerKey(h: string): string {
  return h.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** What the exporting tool calls the email column, in the languages its user may run it in. */
export const EMAIL_HEADER_TEXTS = new Set(
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
  // A header-less file: the cells of the first row that hold an address ("ann@x.com" alone, or
  // "Ann,ann@x.com,ACME") name the column, or the columns: a line of addresses ("ann@x.com,bob@y.com",
  // a To: line pasted), two per row (a contact's and their manager's). Such a file was refused as
  // having no email column, though a cell "ann@x.com bob@y.com" was read as its two addresses.
  const first = head[0]!;
  const withAt = first.flatMap((c, i) => (c.includes('@') ? [i] : []));
  if (withAt.length > 0) return { column: withAt[0]!, columns: withAt, width: first.length, names: [], hasHeader: false, skip: 0 };
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
