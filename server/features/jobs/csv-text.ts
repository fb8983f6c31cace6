// A customer's file as text: UTF-8 (with or without BOM), UTF-16 (with its BOM, or told by its zero bytes), or Windows-1252 line by
// line where a line is not UTF-8 (an Excel export with accented names); refused as not text when it
// holds NUL with text after it (NUL padding at the end is dropped) or is mostly control characters (a binary file renamed .csv). Whole (decodeText) or as a
// stream of chunks (CsvTextDecoder, the CLI's --csv).
import { isUtf8 } from 'node:buffer';
import { hasNul } from '../../../probe/contract';

const UTF8_BOM = [0xef, 0xbb, 0xbf];


export const NOT_TEXT_MESSAGE = 'This file is not a readable CSV (it looks like binary data). Please upload a CSV file.';

/** A text file refused for one NUL byte: where it is, so that it can be found and removed. */
export const nulLineMessage = (line: number): string =>
  `This file is not a readable CSV: line ${line.toLocaleString('en-US')} holds a NUL character (a zero byte), which a text file never does. Remove it, or save the file again as CSV, and upload it again.`;

/** Thrown by CsvTextDecoder for bytes that are not text (NUL, mostly control characters). */
export class NotTextError extends Error {
  constructor(message = NOT_TEXT_MESSAGE) {
    super(message);
  }
}

const TEXT_SAMPLE = 65_536;

/** How many first bytes tell UTF-16 written without a byte-order mark. */
const UTF16_SNIFF = 64;

/**
 * UTF-16 without a byte-order mark (SQL Server's bcp -w, some .NET tools): text of mostly Latin
 * letters then has a zero byte in every pair, always on the same side. No other text has zero bytes
 * (a file holding one is refused as binary), so this never changes how a readable file is read.
 */
function unmarkedUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, UTF16_SNIFF) & ~1;
  if (n < 4) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero === pairs && evenZero === 0) return 'utf-16le';
  if (evenZero === pairs && oddZero === 0) return 'utf-16be';
  return null;
}
const isControl = (c: number): boolean => (c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 0xfffd || c === 0x7f;

const utf8Decoder = new TextDecoder('utf-8');
const cp1252Decoder = new TextDecoder('windows-1252');

/** Index just past the last CR or LF of `bytes` (0 when there is none). */
function afterLastLineEnd(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= 0; i--) if (bytes[i] === 0x0a || bytes[i] === 0x0d) return i + 1;
  return 0;
}

/**
 * Whole lines of bytes → text: UTF-8 where a line is UTF-8, else Windows-1252, line by line. A list
 * is often put together by more than one tool (an Excel "CSV UTF-8" export with rows pasted in from a
 * Latin-1 one): read whole as Windows-1252, its UTF-8 addresses came out as mojibake ("zoÃ«@…") and
 * were checked as other, invalid, addresses. CR and LF are single bytes in both encodings, never
 * inside a UTF-8 sequence, so lines can be told apart before decoding.
 */
function decodeLines(bytes: Uint8Array, fallback: InstanceType<typeof TextDecoder> = cp1252Decoder): string {
  if (isUtf8(bytes)) return utf8Decoder.decode(bytes);
  let out = '';
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) continue;
    const line = bytes.subarray(start, Math.min(i + 1, bytes.length));
    out += (isUtf8(line) ? utf8Decoder : fallback).decode(line);
    start = i + 1;
  }
  return out;
}

/**
 * Bytes → text by the intake's rules, a piece at a time (an upload is one piece; `mailvet verify
 * --csv` reads its file in pieces, so a list of any size is never held whole): UTF-16 with a
 * byte-order mark (Excel's "Unicode Text") or without one (unmarkedUtf16); else each line UTF-8, or Windows-1252 when it is not
 * UTF-8 (decodeLines). A UTF-8 BOM is dropped, and one U+FEFF at the start of the text. Throws
 * NotTextError when a NUL has text after it (a run of them that ends the file is dropped) or more
 * than 1% of the first 65,536 characters are control characters.
 */
export class CsvTextDecoder {
  /** UTF-16's decoder (a byte-order mark began the file); null: UTF-8 / Windows-1252 lines. */
  private decoder: InstanceType<typeof TextDecoder> | null = null;
  /** Whether the first bytes (a byte-order mark?) have been looked at. */
  private begun = false;
  /** Whether a U+FEFF at the start of the text may still have to be dropped. */
  private leading = true;
  /** Whether a run of NUL bytes has begun (only more of them may follow: padding). */
  private nulPadding = false;
  /** Whether the text so far ends with a line end (a U+FEFF next is a joined file's byte-order mark). */
  private afterLineEnd = false;
  /** Line ends in the text read so far (CRLF is one), and whether it ended with a CR. */
  private lineEnds = 0;
  private endsWithCR = false;
  /** Whether the text read so far holds no control character (tab, CR and LF aside). */
  private clean = true;
  /** Where the run of NUL bytes began: its line, and whether the text before it was clean text. */
  private nulAt: { line: number; afterText: boolean } | null = null;
  private sampled = 0;
  private control = 0;
  private judged = false;
  /** The bytes of a line not yet ended (UTF-8 / Windows-1252 text is decoded a whole line at a time). */
  private partial: Uint8Array[] = [];

  private head: Uint8Array = new Uint8Array(0);

  /** `fallback`: the code page of lines that are not UTF-8 (Windows-1252 unless told: legacyCodePages). */
  constructor(private readonly fallback: InstanceType<typeof TextDecoder> = cp1252Decoder) {}

  decode(piece: Uint8Array, final: boolean): string {
    let bytes = piece;
    if (!this.begun) {
      // The byte-order mark needs the first three bytes, and telling UTF-16 without one the first
      // UTF16_SNIFF, whatever the size of the pieces.
      bytes = this.head.length > 0 ? Buffer.concat([this.head, piece]) : piece;
      if (bytes.length < UTF16_SNIFF && !final) {
        this.head = bytes;
        return '';
      }
      this.head = new Uint8Array(0);
      const marked = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : null;
      const utf16 = marked ?? unmarkedUtf16(bytes);
      if (utf16) {
        this.decoder = new TextDecoder(utf16);
        if (marked) bytes = bytes.subarray(2);
      } else if (UTF8_BOM.every((b, i) => bytes[i] === b)) {
        // The UTF-8 byte-order mark is not text: read as Windows-1252 it would be "ï»¿", glued to the first header.
        bytes = bytes.subarray(UTF8_BOM.length);
      }
      this.begun = true;
    }
    let text = this.dropNulPadding(this.decoder ? this.decoder.decode(bytes, { stream: !final }) : this.lines(bytes, final));
    if (this.leading && text.length > 0) {
      this.leading = false;
      text = text.replace(/^\uFEFF/, '');
    }
    // Nothing but NUL bytes: no text at all.
    if (final && this.nulPadding && this.leading) throw new NotTextError();
    text = dropJoinedBoms(text, this.afterLineEnd);
    if (text.length > 0) this.afterLineEnd = /[\r\n]$/.test(text);
    this.judge(text, final);
    return text;
  }

  /**
   * U+0000 can be neither stored nor checked: text after a NUL makes the file binary (NotTextError).
   * A run of NULs that ends the file is padding (a file preallocated, or cut short by a crash: it
   * opens as the list in any editor) and is dropped; the text before it is read.
   */
  private dropNulPadding(text: string): string {
    if (this.nulPadding) {
      if (/[^\u0000]/.test(text)) throw this.strayNul();
      return '';
    }
    if (!hasNul(text)) {
      this.follow(text);
      return text;
    }
    const at = text.indexOf('\u0000');
    this.follow(text.slice(0, at));
    this.nulAt = { line: this.lineEnds + 1, afterText: this.clean && this.lineEnds > 0 };
    if (/[^\u0000]/.test(text.slice(at))) throw this.strayNul();
    this.nulPadding = true;
    return text.slice(0, at);
  }

  /**
   * A NUL with text after it. In a file of text lines (a line end before it and no control character:
   * a list with one stray zero byte) its line is named; else (on the first line, or after control
   * characters: a zip or an image renamed .csv) the file looks like binary data.
   */
  private strayNul(): NotTextError {
    return this.nulAt?.afterText ? new NotTextError(nulLineMessage(this.nulAt.line)) : new NotTextError();
  }

  /** Counts the line ends of text read (and whether it holds control characters). */
  private follow(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a) {
        if (!(i === 0 ? this.endsWithCR : text.charCodeAt(i - 1) === 0x0d)) this.lineEnds++;
      } else if (c === 0x0d) this.lineEnds++;
      else if (this.clean && isControl(c)) this.clean = false;
    }
    if (text.length > 0) this.endsWithCR = text.charCodeAt(text.length - 1) === 0x0d;
  }

  /** The piece's whole lines decoded (decodeLines); the unended last line waits for the next piece. */
  private lines(bytes: Uint8Array, final: boolean): string {
    const end = final ? bytes.length : afterLastLineEnd(bytes);
    if (end === 0 && !final) {
      if (bytes.length > 0) this.partial.push(bytes);
      return '';
    }
    const ready = this.partial.length > 0 ? Buffer.concat([...this.partial, bytes.subarray(0, end)]) : bytes.subarray(0, end);
    this.partial = end < bytes.length ? [bytes.subarray(end)] : [];
    return decodeLines(ready, this.fallback);
  }

  private judge(text: string, final: boolean): void {
    if (this.judged) return;
    const n = Math.min(text.length, TEXT_SAMPLE - this.sampled);
    for (let i = 0; i < n; i++) if (isControl(text.charCodeAt(i))) this.control++;
    this.sampled += n;
    if (this.sampled < TEXT_SAMPLE && !final) return;
    this.judged = true;
    if (this.control > Math.max(2, this.sampled * 0.01)) throw new NotTextError();
  }
}

/**
 * Files joined end to end (`cat a.csv b.csv`, Excel exports each with a byte-order mark) hold a
 * U+FEFF at the start of a later line: the next file's mark, not text. Left in, it was glued to
 * that line's first cell (a header-less list's address came back invalid). `atLineStart`: the text
 * continues one that ended with a line end.
 */
export function dropJoinedBoms(text: string, atLineStart = false): string {
  if (!text.includes('\uFEFF')) return text;
  const out = text.replace(/([\r\n])\uFEFF/g, '$1');
  return atLineStart && out.startsWith('\uFEFF') ? out.slice(1) : out;
}

/**
 * The code pages Excel writes "CSV (Comma delimited)" in on a Windows set to a language whose name
 * for the email column csv-layout.ts knows (Japanese, Chinese, Korean, Cyrillic, Greek, Hebrew,
 * Arabic and Persian, Thai, Vietnamese, Central European): not UTF-8, and read as Windows-1252 the
 * header 'メールアドレス' was mojibake. Tried only on a file refused for want of an email column.
 */
export const LEGACY_CODE_PAGES = ['shift_jis', 'gbk', 'big5', 'euc-kr', 'windows-1251', 'windows-1253', 'windows-1255', 'windows-1256', 'windows-874', 'windows-1258', 'windows-1250'] as const;

/** The file's first whole lines, about `max` bytes of them (all of it when shorter). */
export function leadingLines(bytes: Uint8Array, max: number): Uint8Array {
  if (bytes.length <= max) return bytes;
  const end = afterLastLineEnd(bytes.subarray(0, max));
  return bytes.subarray(0, end > 0 ? end : max);
}

/** Text from bytes (CsvTextDecoder's rules), or why it is not text. `codePage`: of the lines that are not UTF-8. */
export function decodeTextOrRefusal(bytes: Uint8Array, codePage?: (typeof LEGACY_CODE_PAGES)[number]): string | NotTextError {
  try {
    return new CsvTextDecoder(codePage ? new TextDecoder(codePage) : undefined).decode(bytes, true);
  } catch (err) {
    if (err instanceof NotTextError) return err;
    throw err;
  }
}

/** decodeTextOrRefusal, null when it is not text at all. */
export function decodeText(bytes: Uint8Array, codePage?: (typeof LEGACY_CODE_PAGES)[number]): string | null {
  const read = decodeTextOrRefusal(bytes, codePage);
  return read instanceof NotTextError ? null : read;
}

export function isMostlyText(text: string): boolean {
  let control = 0;
  const n = Math.min(text.length, TEXT_SAMPLE);
  for (let i = 0; i < n; i++) if (isControl(text.charCodeAt(i))) control++;
  return control <= Math.max(2, n * 0.01);
}
