// Reading a customer's CSV into a clean, de-duplicated list of addresses (pure: no I/O).
// csv-parse does the CSV (BOM, quoted fields, line ends; csv-parse-options.ts); this module reads the
// file as text (csv-text.ts), finds where its addresses are (csv-layout.ts: the delimiter, the email
// column, case-insensitive, or a header-less single column of addresses), reads each record's
// addresses (csv-cells.ts: trimmed, domain lower-cased) and refuses what is not a usable list with a
// clear message. planChunks groups the list by domain for the workers.
import { isUtf8 } from 'node:buffer';
import { parse } from 'csv-parse/sync';
import { hasLoneSurrogate, hasNul } from '../../../probe/contract';
import { MAX_EMAILS_PER_FILE } from '../../contracts/jobs';
import { SCHEDULE_MESSAGES } from '../../contracts/schedules';
import { groupBy } from '../../lib/group-by';
import { addressKey, recordAddresses } from './csv-cells';
import { csvLayout, detectDelimiter, LAYOUT_SAMPLE, separatorHint } from './csv-layout';
import { csvParseOptions, isTextAfterClosingQuote, openQuoteLineOf, repairTextAfterQuotes, unreadableMessage } from './csv-parse-options';
import { decodeText, decodeTextOrRefusal, dropJoinedBoms, isMostlyText, leadingLines, LEGACY_CODE_PAGES, NOT_TEXT_MESSAGE, NotTextError } from './csv-text';

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

const fail = (code: CsvImportErrorCode, message: string): CsvImportOutcome => ({ ok: false, error: { code, message } });

export const tooManyMessage = (maxEmails: number): string =>
  `This file has more than ${maxEmails.toLocaleString('en-US')} email addresses. The limit is ${maxEmails.toLocaleString('en-US')} per file: please split it.`;

export function parseEmailCsv(input: Uint8Array | string, o: { maxEmails?: number } = {}): CsvImportOutcome {
  // A lone surrogate (possible only in text handed in as a string: decoded bytes never hold one) is no text.
  const read = typeof input === 'string' ? (isMostlyText(input) && !hasNul(input) && !hasLoneSurrogate(input) ? dropJoinedBoms(input.replace(/^\uFEFF/, '')) : null) : decodeTextOrRefusal(input);
  const first = parseText(read, o);
  if (first.ok || first.error.code !== 'NO_EMAIL_COLUMN' || typeof input === 'string' || isUtf8(input)) return first;
  // No email column in a file that is not UTF-8: perhaps its header is in a language whose code
  // page is not Windows-1252 (Excel on a Japanese, Chinese, Russian … Windows).
  const codePage = headerCodePage(input);
  return codePage ? parseText(decodeTextOrRefusal(input, codePage), o) : first;
}

/**
 * The legacy code page in which the file's first lines (its first 64 KB) show a header naming its
 * email column, or null (none does, or those lines are UTF-8: read right already).
 */
export function headerCodePage(bytes: Uint8Array): (typeof LEGACY_CODE_PAGES)[number] | null {
  const head = leadingLines(bytes, 65_536);
  if (isUtf8(head)) return null;
  for (const codePage of LEGACY_CODE_PAGES) {
    const read = decodeText(head, codePage);
    if (read === null) continue; // not this code page (mostly U+FFFD)
    const text = separatorHint(read)?.rest ?? read;
    const delimiter = separatorHint(read)?.delimiter ?? detectDelimiter(text);
    let records: string[][];
    try {
      records = parse(text, csvParseOptions(delimiter)) as string[][];
    } catch {
      continue;
    }
    if (records.length > 0 && csvLayout(records.slice(0, LAYOUT_SAMPLE))?.hasHeader) return codePage;
  }
  return null;
}

function parseText(read: string | NotTextError | null, o: { maxEmails?: number }): CsvImportOutcome {
  const maxEmails = o.maxEmails ?? MAX_EMAILS_PER_FILE;
  if (read === null) return fail('NOT_TEXT', NOT_TEXT_MESSAGE);
  if (read instanceof NotTextError) return fail('NOT_TEXT', read.message);
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
