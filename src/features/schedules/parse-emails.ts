import { parse } from 'csv-parse/browser/esm/sync';
import { splitEmailLines } from '../../../server/contracts/schedules';
import { SCHEDULE_TEXT } from './messages';

/** A CSV the dialog cannot use: the message is shown as the 'Error Parsing CSV' toast. */
export class CsvProblem extends Error {}

const DELIMITERS = [',', ';', '\t'];

function looksLikeEmail(s: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s);
}

/**
 * The addresses of a CSV file's `email` column (found case-insensitively; BOM, quotes, CRLF and
 * `,` `;` or tab delimiters handled by csv-parse). A header-less single column of addresses is
 * accepted too. Blank cells are skipped; duplicates are kept once.
 */
export function emailsFromCsv(text: string): string[] {
  if (text.replace(/^\uFEFF/, '').trim() === '') throw new CsvProblem(SCHEDULE_TEXT.csvEmpty);
  let rows: string[][];
  try {
    rows = parse(text, {
      bom: true,
      delimiter: DELIMITERS,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
    }) as string[][];
  } catch (e) {
    throw new CsvProblem(e instanceof Error ? e.message : String(e));
  }
  const header = rows[0];
  if (!header) throw new CsvProblem(SCHEDULE_TEXT.csvEmpty);

  let column = header.findIndex((cell) => cell.trim().toLowerCase() === 'email');
  let body = rows.slice(1);
  if (column === -1) {
    // No header: a single column whose first cell is already an address.
    if (header.length === 1 && looksLikeEmail(header[0] ?? '')) {
      column = 0;
      body = rows;
    } else {
      throw new CsvProblem(SCHEDULE_TEXT.csvNoEmailColumn);
    }
  }
  const emails = uniqueEmails(body.map((row) => row[column] ?? ''));
  if (emails.length === 0) throw new CsvProblem(SCHEDULE_TEXT.csvEmpty);
  return emails;
}

/** Typed addresses: one per line, trimmed, blanks dropped (spec section 5), then deduplicated. */
export function emailsFromText(text: string): string[] {
  return uniqueEmails(splitEmailLines(text));
}

function uniqueEmails(candidates: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of candidates) {
    const email = raw.trim();
    if (email === '') continue;
    const key = email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(email);
  }
  return out;
}

/** Splits a list into addresses that look like addresses and the rest. */
export function partitionEmails(list: string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const e of list) (looksLikeEmail(e) ? valid : invalid).push(e);
  return { valid, invalid };
}
