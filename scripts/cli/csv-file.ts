// A CSV file of any size read by the upload's rules (server/features/jobs/csv-import.ts), piece by
// piece, for `mailvet verify --csv`: a self-hoster's list of millions of rows is never held whole.
// Two passes over the file: the first checks it (text, delimiter, email column, readable to the end)
// and counts what the rules leave out, before any address is verified; the second hands out the
// unique addresses in file order. Only the set of unique addresses is kept between them.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { SCHEDULE_MESSAGES } from '../../server/contracts/schedules';
import { addressKey, recordAddresses } from '../../server/features/jobs/csv-cells';
import { headerCodePage, parseEmailCsv } from '../../server/features/jobs/csv-import';
import { csvLayout, detectDelimiter, LAYOUT_SAMPLE, separatorHint, type CsvLayout } from '../../server/features/jobs/csv-layout';
import { csvParseOptions, isTextAfterClosingQuote, OpenQuoteFinder, repairTextAfterQuotes, unreadableMessage } from '../../server/features/jobs/csv-parse-options';
import { CsvTextDecoder, NotTextError, type LEGACY_CODE_PAGES } from '../../server/features/jobs/csv-text';

export interface CsvFileScan {
  /** Unique addresses (how many will be verified). */
  unique: number;
  /** Non-blank values read from the email column (before de-duplication). */
  rows: number;
  duplicates: number;
  /** Values too long to be an address, left out. */
  skipped: number;
  /** The unique addresses in file order (the second pass). */
  addresses(): AsyncIterable<string>;
}

export type CsvFileOutcome = { ok: true; value: CsvFileScan } | { ok: false; message: string };

/** The first two non-blank lines are complete (what detectDelimiter looks at), or the text has ended. */
function holdsTwoLines(head: string): boolean {
  const lines = head.split(/\r\n|\r|\n/);
  lines.pop(); // not ended yet
  return lines.filter((l) => l.trim().length > 0).length >= 2;
}

interface Records {
  layoutHead: string[][];
  rest: AsyncIterable<string[]>;
  /** Whether any text other than white space was read (known once every record has been read). */
  sawText(): boolean;
}

/** How a file is read: whether fields with text after their closing quote are repaired; the code page of lines not UTF-8. */
interface Reading {
  repair: boolean;
  codePage?: (typeof LEGACY_CODE_PAGES)[number];
}

/** The text with repairTextAfterQuotes applied a whole line at a time (what it rewrites never spans lines). */
async function* repairedLines(text: AsyncIterable<string>, delimiter: string): AsyncGenerator<string> {
  let rest = '';
  for await (const t of text) {
    rest += t;
    // The last line end of this piece (looked for in the piece only: a long line is not rescanned).
    const inPiece = Math.max(t.lastIndexOf('\n'), t.lastIndexOf('\r'));
    if (inPiece < 0) continue;
    const end = rest.length - t.length + inPiece + 1;
    yield repairTextAfterQuotes(rest.slice(0, end), delimiter);
    rest = rest.slice(end);
  }
  if (rest) yield repairTextAfterQuotes(rest, delimiter);
}

/** The file's records, decoded and parsed as the upload does; errors surface while iterating. */
async function recordsOf(file: string, reading: Reading, pieceBytes: number | undefined): Promise<Records> {
  const decoder = new CsvTextDecoder(reading.codePage ? new TextDecoder(reading.codePage) : undefined);
  let nonBlank = false;
  async function* text(): AsyncGenerator<string> {
    for await (const piece of createReadStream(file, { highWaterMark: pieceBytes })) {
      const t = decoder.decode(piece as Buffer, false);
      if (!nonBlank && /\S/.test(t)) nonBlank = true;
      if (t) yield t;
    }
    const t = decoder.decode(new Uint8Array(0), true);
    if (!nonBlank && /\S/.test(t)) nonBlank = true;
    if (t) yield t;
  }
  const pieces = text();
  let head = '';
  for (let next = await pieces.next(); ; next = await pieces.next()) {
    if (next.done) break;
    head += next.value;
    if (/[\r\n]/.test(next.value) && holdsTwoLines(head)) break;
  }
  const hint = separatorHint(head);
  const delimiter = hint?.delimiter ?? detectDelimiter(hint ? hint.rest : head);
  // The text as read also goes past an OpenQuoteFinder: a quote never closed is reported where it opened.
  if (hint) head = hint.rest;
  const finder = new OpenQuoteFinder(delimiter, hint ? 2 : 1);
  finder.push(head);
  const all = (async function* () {
    if (head) yield head;
    for await (const t of pieces) {
      finder.push(t);
      yield t;
    }
  })();
  const source = Readable.from(reading.repair ? repairedLines(all, delimiter) : all);
  const parser = parse(csvParseOptions(delimiter));
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);
  const parsed = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const records: AsyncIterator<string[]> = {
    next: async () => {
      try {
        return await parsed.next();
      } catch (err) {
        throw Object.assign(err as Error, { openQuoteLine: finder.end() });
      }
    },
  };
  const layoutHead: string[][] = [];
  while (layoutHead.length < LAYOUT_SAMPLE) {
    const next = await records.next();
    if (next.done) break;
    layoutHead.push(next.value);
  }
  return { layoutHead, rest: { [Symbol.asyncIterator]: () => records }, sawText: () => nonBlank };
}

async function* bodyOf(r: Records, layout: CsvLayout): AsyncGenerator<string | null> {
  for (const record of r.layoutHead.slice(layout.skip)) yield* recordAddresses(record, layout);
  for await (const record of r.rest) yield* recordAddresses(record, layout);
}

/**
 * The same text as one flat string: the normalised address is built of pieces (V8 keeps them as a
 * tree of slices), half again as big to keep in the set of millions. Lossless for any string.
 */
const flat = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

/** The file's first `n` bytes (fewer when it is shorter). */
async function leadingBytes(file: string, n: number): Promise<Uint8Array> {
  const pieces: Buffer[] = [];
  let got = 0;
  for await (const piece of createReadStream(file, { start: 0, end: n - 1 })) {
    pieces.push(piece as Buffer);
    got += (piece as Buffer).length;
    if (got >= n) break;
  }
  return Buffer.concat(pieces);
}

async function scan(file: string, reading: Reading, pieceBytes: number | undefined): Promise<CsvFileOutcome> {
  const r = await recordsOf(file, reading, pieceBytes);
  if (r.layoutHead.length === 0) return { ok: false, message: SCHEDULE_MESSAGES.csvEmpty };
  const layout = csvLayout(r.layoutHead);
  if (layout === null) {
    // As the upload: a header in another Windows code page (Excel on a Japanese, Russian … Windows).
    const codePage = reading.codePage ? null : headerCodePage(await leadingBytes(file, 65_536));
    if (codePage) return scan(file, { ...reading, codePage }, pieceBytes);
    return { ok: false, message: SCHEDULE_MESSAGES.csvNoEmailColumn };
  }
  const seen = new Set<string>();
  let rows = 0;
  let skipped = 0;
  for await (const email of bodyOf(r, layout)) {
    if (email === '') continue;
    rows++;
    if (email === null) skipped++;
    else if (!seen.has(addressKey(email))) seen.add(flat(addressKey(email)));
  }
  if (!r.sawText()) return { ok: false, message: SCHEDULE_MESSAGES.csvEmpty };
  if (seen.size === 0) return { ok: false, message: SCHEDULE_MESSAGES.noValidEmails };
  const unique = seen.size;
  return {
    ok: true,
    value: {
      unique,
      rows,
      duplicates: rows - skipped - unique,
      skipped,
      // The first time an address comes by it is handed out and leaves the set: a later copy is a duplicate.
      async *addresses() {
        for await (const email of bodyOf(await recordsOf(file, reading, pieceBytes), layout)) if (email && seen.delete(addressKey(email))) yield email;
      },
    },
  };
}

/**
 * Reads `file` by the upload's rules without its per-file cap (`pieceBytes`: the size of the pieces
 * it is read in; 64 KB unless a test makes them tiny). A file that cannot be read twice (a
 * pipe, /dev/stdin) is read whole, as an upload is. Throws only for a file that cannot be opened.
 */
export async function readCsvFile(file: string, o: { pieceBytes?: number } = {}): Promise<CsvFileOutcome> {
  if (!(await stat(file)).isFile()) {
    const pieces: Buffer[] = [];
    for await (const piece of createReadStream(file)) pieces.push(piece as Buffer);
    const bytes = Buffer.concat(pieces);
    const parsed = parseEmailCsv(bytes, { maxEmails: Number.MAX_SAFE_INTEGER });
    if (!parsed.ok) return { ok: false, message: parsed.error.message };
    const { emails, rows, duplicates, skipped } = parsed.value;
    return {
      ok: true,
      value: {
        unique: emails.length,
        rows,
        duplicates,
        skipped,
        async *addresses() {
          yield* emails;
        },
      },
    };
  }
  // Read as the upload reads: strictly, else with text after closing quotes repaired.
  try {
    try {
      return await scan(file, { repair: false }, o.pieceBytes);
    } catch (err) {
      if (!isTextAfterClosingQuote(err)) throw err;
      try {
        return await scan(file, { repair: true }, o.pieceBytes);
      } catch (again) {
        throw again instanceof NotTextError ? again : err;
      }
    }
  } catch (err) {
    if (err instanceof NotTextError) return { ok: false, message: err.message };
    if ((err as { code?: string }).code?.startsWith('CSV_')) return { ok: false, message: unreadableMessage(err, (err as { openQuoteLine?: number | null }).openQuoteLine ?? null) };
    throw err;
  }
}
