// csv-parse as every file is read with it: its options (every line end a real file uses), the repair
// of text after a field's closing quote that it refuses (`"Ann Lee" <ann@x.com>`), and the refusal of
// a file it cannot read, saying on which line a never-closed quote opened (OpenQuoteFinder).

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
export function openQuoteLineOf(text: string, delimiter: string, firstLine: number): number | null {
  const finder = new OpenQuoteFinder(delimiter, firstLine);
  finder.push(text);
  return finder.end();
}
