// Reading a customer's CSV into a clean, de-duplicated list of addresses (pure: no I/O).
// csv-parse does the CSV (BOM, quoted fields, line ends); this module picks the delimiter, finds the
// email column (case-insensitive; or a header-less single column of addresses), normalises each
// address (trimmed, domain lower-cased) and refuses what is not a usable list with a clear message.
import { parse } from 'csv-parse/sync';
import { hasLoneSurrogate, hasNul, trimAddress } from '../../../probe/contract';
import { lowerCaseDomain } from '../../../probe/syntax/idna';
import { MAX_EMAILS_PER_FILE } from '../../contracts/jobs';
import { SCHEDULE_MESSAGES } from '../../contracts/schedules';
import { groupBy } from '../../lib/group-by';

export type CsvImportErrorCode = 'EMPTY_FILE' | 'NOT_TEXT' | 'UNREADABLE' | 'NO_EMAIL_COLUMN' | 'NO_EMAILS' | 'TOO_MANY_EMAILS';

export interface CsvImportError {
  code: CsvImportErrorCode;
  message: string;
}

export interface CsvImport {
  /** Unique normalised addresses, in file order. */
  emails: string[];
  /** Non-blank values read from the email column (before de-duplication). */
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
const EMAIL_HEADERS = new Set(
  [
    'email', 'e-mail', 'email address', 'e-mail address', 'emails', 'mail', 'mail address',
    'e-mail-adresse', 'mailadresse', // de
    'adresse e-mail', 'adresse électronique', 'courriel', 'adresse courriel', 'mél', // fr
    'correo', 'correo electrónico', 'dirección de correo', 'dirección de correo electrónico', // es
    'endereço de e-mail', 'endereço de email', 'endereço eletrônico', 'endereço electrónico', // pt
    'indirizzo email', 'indirizzo e-mail', 'posta elettronica', // it
    'e-mailadres', 'e-post', 'e-postadresse', 'e-postadress', 'e-postiosoite', 'sähköposti', 'sähköpostiosoite', // nl, nordic
    'e-posta', 'e-posta adresi', 'adres e-mail', 'e-mailová adresa', // tr, pl, cs
    'электронная почта', 'эл. почта', 'почта', 'адрес электронной почты', // ru
    'メールアドレス', 'メール', 'eメール', '电子邮件', '电子邮箱', '邮箱', '邮件地址', '電子郵件', '電子郵件地址', '이메일', '이메일 주소', '전자우편', // ja, zh, ko
  ].map(headerKey),
);
/** Words that make a header a candidate for the email column ("Work E-mail", "E-mail 1 - Value"). */
const EMAIL_HEADER_WORDS = ['mail', 'courriel', 'correo', 'posta', 'post', 'почта', 'メール', '邮', '郵', '이메일'].map(headerKey);
export const MAX_VALUE_LENGTH = 1024;

const fail = (code: CsvImportErrorCode, message: string): CsvImportOutcome => ({ ok: false, error: { code, message } });

/**
 * SP/HTAB trimmed (nothing else: see trimAddress), a mailto: or <…> wrapper removed, the domain
 * lower-cased as the syntax check does it (true case pairs only; the local part keeps its case: it
 * may matter to the mailbox). JavaScript's toLowerCase would turn the KELVIN SIGN into k and İ into
 * i + U+0307, i.e. check a different domain from the one in the file.
 */
export function normalizeEmail(raw: string): string {
  let v = trimAddress(raw);
  if (v.toLowerCase().startsWith('mailto:')) v = trimAddress(v.slice(7));
  if (v.startsWith('<') && v.endsWith('>')) v = trimAddress(v.slice(1, -1));
  // "Ann Lee <ann@example.com>", as a mail program copies a recipient: the address in the brackets
  // (no address ends in '>', so nothing that could be one is changed).
  const named = /^[^<>]*<([^<>]*@[^<>]*)>$/.exec(v);
  if (named) v = trimAddress(named[1]!);
  const at = v.lastIndexOf('@');
  if (at < 0) return v;
  return `${v.slice(0, at)}@${lowerCaseDomain(v.slice(at + 1))}`;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * Every record delimiter a real file uses, longest first: Windows (CRLF), Unix (LF) and old Mac (CR)
 * line ends, mixed in one file too (an Excel export with rows appended by a script). Left to itself,
 * csv-parse takes the first line end it meets as the only one and glues the other lines together.
 * A quoted field keeps its line breaks whichever they are.
 */
const RECORD_DELIMITERS = ['\r\n', '\n', '\r'];

/** Text from bytes: UTF-8 (BOM allowed), else Windows-1252; null when it is not text at all. */
export function decodeText(bytes: Uint8Array): string | null {
  // Excel's "Unicode Text" and some exports are UTF-16 with a byte-order mark.
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : null;
  if (utf16) {
    const text = new TextDecoder(utf16).decode(bytes.subarray(2));
    return isMostlyText(text) ? text : null;
  }
  if (bytes.includes(0)) return null;
  // The UTF-8 byte-order mark is not text in either decoding: Windows-1252 would read it as "ï»¿"
  // (an Excel "CSV UTF-8" file with one line added by a Latin-1 tool), glued to the first header.
  const unmarked = UTF8_BOM.every((b, i) => bytes[i] === b) ? bytes.subarray(UTF8_BOM.length) : bytes;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(unmarked);
  } catch {
    text = new TextDecoder('windows-1252').decode(unmarked);
  }
  return isMostlyText(text) ? text : null;
}

function isMostlyText(text: string): boolean {
  let control = 0;
  const n = Math.min(text.length, 65_536);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 0xfffd || c === 0x7f) control++;
  }
  return control <= Math.max(2, n * 0.01);
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
  const sample = records.slice(1, 51);
  return keys.findIndex((k, i) => k !== '' && EMAIL_HEADER_WORDS.some((w) => k.includes(w)) && sample.some((r) => (r[i] ?? '').includes('@')));
}

export function parseEmailCsv(input: Uint8Array | string, o: { maxEmails?: number } = {}): CsvImportOutcome {
  const maxEmails = o.maxEmails ?? MAX_EMAILS_PER_FILE;
  const read = typeof input === 'string' ? (isMostlyText(input) ? input : null) : decodeText(input);
  // U+0000 can be neither stored nor checked: a file holding one is treated as binary. A lone
  // surrogate (possible only in text handed in as a string: decoded bytes never hold one) is no text.
  const decoded = read !== null && (hasNul(read) || hasLoneSurrogate(read)) ? null : read;
  if (decoded === null) return fail('NOT_TEXT', 'This file is not a readable CSV (it looks like binary data). Please upload a CSV file.');
  const text = decoded.replace(/^\uFEFF/, '');
  if (text.trim().length === 0) return fail('EMPTY_FILE', SCHEDULE_MESSAGES.csvEmpty);

  const delimiter = detectDelimiter(text);
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter,
      record_delimiter: RECORD_DELIMITERS,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
    }) as string[][];
  } catch (err) {
    return fail('UNREADABLE', `The CSV could not be read: ${(err as Error).message}`);
  }
  if (records.length === 0) return fail('EMPTY_FILE', SCHEDULE_MESSAGES.csvEmpty);

  let column = emailColumnOf(records);
  let body: string[][];
  let hasHeader: boolean;
  if (column >= 0) {
    body = records.slice(1);
    hasHeader = true;
  } else if (records[0]!.filter((c) => c.trim() !== '').length === 1 && records[0]!.find((c) => c.trim() !== '')!.includes('@')) {
    // A header-less list: one address per line.
    column = records[0]!.findIndex((c) => c.trim() !== '');
    body = records;
    hasHeader = false;
  } else {
    return fail('NO_EMAIL_COLUMN', SCHEDULE_MESSAGES.csvNoEmailColumn);
  }

  const seen = new Set<string>();
  const emails: string[] = [];
  let rows = 0;
  let skipped = 0;
  for (const record of body) {
    const raw = record[column];
    if (raw === undefined) continue;
    const email = normalizeEmail(raw);
    if (email === '') continue;
    rows++;
    if (email.length > MAX_VALUE_LENGTH) {
      skipped++;
      continue;
    }
    if (seen.has(email)) continue;
    seen.add(email);
    emails.push(email);
    if (emails.length > maxEmails) {
      return fail('TOO_MANY_EMAILS', `This file has more than ${maxEmails.toLocaleString('en-US')} email addresses. The limit is ${maxEmails.toLocaleString('en-US')} per file: please split it.`);
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
