// One cell, or one record, of a file read into addresses: normalised (trimmed, mailto:, quotes,
// "Name <address>" and a formula escape removed, the domain lower-cased), too long ones counted out,
// a cell holding several cut into each, a ragged record's address found out of place, a repeated
// header read as none (cellAddress, cellAddresses, recordAddresses); addressKey de-duplicates.
import { trimAddress } from '../../../probe/contract';
import { lowerCaseDomain, toAsciiDomain } from '../../../probe/syntax/idna';
import { EMAIL_HEADER_TEXTS, type CsvLayout } from './csv-layout';

export const MAX_VALUE_LENGTH = 1024;

/**
 * SP/HTAB trimmed (nothing else: see trimAddress), a mailto: or <…> wrapper removed, the domain
 * lower-cased as the syntax check does it (true case pairs only; the local part keeps its case: it
 * may matter to the mailbox). JavaScript's toLowerCase would turn the KELVIN SIGN into k and İ into
 * i + U+0307, i.e. check a different domain from the one in the file.
 */
export function normalizeEmail(raw: string): string {
  let v = mailtoAddress(unwrapQuotes(textFormulaValue(trimAddress(raw))));
  if (v.startsWith('<') && v.endsWith('>')) v = mailtoAddress(trimAddress(v.slice(1, -1)));
  // "Ann Lee <ann@example.com>", as a mail program copies a recipient: the address in the brackets
  // (no address ends in '>', so nothing that could be one is changed). Found by index: a regex
  // backtracked over every '@' of a hostile cell from every other one (hours for a 10 MB cell).
  const named = namedAddress(v);
  if (named !== null) v = trimAddress(named);
  // "ann@x.com (Ann Lee)" as old address books write it, "Ann Lee (ann@x.com)", and an address with
  // the list's separator left after it ("bo@x.com;" from Outlook's To: line pasted one per row).
  const commented = commentedAddress(v);
  if (commented !== null) v = trimAddress(commented);
  v = withoutTrailingSeparators(v);
  const at = v.lastIndexOf('@');
  if (at < 0) return v;
  return `${v.slice(0, at)}@${lowerCaseDomain(v.slice(at + 1))}`;
}

/**
 * What two spellings of one mailbox have in common, for de-duplication: the address with the ASCII
 * letters of its local part lower-cased (the domain is already, normalizeEmail), an IDN domain as its A-label. RFC 5321 lets a
 * server tell John@ from john@, but no mail provider does, and a list merged from a CRM and a
 * newsletter tool holds both: checked (and charged) twice, the same mailbox came back as two rows.
 * Likewise a name in Unicode's two forms (NFC and NFD). The first spelling in the list is the one checked and shown.
 */
export function addressKey(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  // An IDN domain as typed (bücher.example) and as its A-label (xn--bcher-kva.example) is one domain.
  const domain = email.slice(at + 1);
  const ascii = /[^\x00-\x7f]/.test(domain) ? toAsciiDomain(domain) : null;
  // An accented name precomposed (é, U+00E9: Windows) and decomposed (e + U+0301: a Mac export) is
  // one name, drawn alike everywhere (RFC 6532 asks for NFC): both pass the syntax check, so the
  // merged list's one inbox was probed and charged twice.
  const local = email.slice(0, at);
  const name = /[^\x00-\x7f]/.test(local) ? local.normalize('NFC') : local;
  return `${name.replace(/[A-Z]+/g, (m) => m.toLowerCase())}@${ascii?.ok ? ascii.ascii : domain}`;
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

/**
 * The text of an Excel text formula, ="ann@x.com" (some exports write every value so, to keep Excel
 * from reformatting it), when it is the whole cell and its text holds an '@' and no other quote;
 * anything else as it is ('="ann"@x.com' is left to the syntax check).
 */
function textFormulaValue(v: string): string {
  if (v.length < 4 || !v.startsWith('="') || !v.endsWith('"')) return v;
  const inner = v.slice(2, -1);
  return inner.includes('@') && !inner.includes('"') ? trimAddress(inner) : v;
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

/**
 * The address of "address (comment)" or "comment (address)": one '(' and one ')', at the end, an '@'
 * on one side only. No address ends in ')' (a domain never holds one), so nothing that could be an
 * address is changed; '"a(b)"@x.com' and '(comment)ann@x.com' stay as written.
 */
function commentedAddress(v: string): string | null {
  const open = v.indexOf('(');
  if (open <= 0 || v.lastIndexOf('(') !== open || v.indexOf(')') !== v.length - 1) return null;
  const before = trimAddress(v.slice(0, open));
  const inner = trimAddress(v.slice(open + 1, -1));
  if (before.includes('@') && !inner.includes('@') && !before.includes('"')) return before;
  if (inner.includes('@') && !before.includes('@')) return inner;
  return null;
}

/** Without a run of ',' ';' (and blanks) after an address: no domain ends in one. By index, not a regex (no rescans). */
function withoutTrailingSeparators(v: string): string {
  let end = v.length;
  for (let c = v.charCodeAt(end - 1); end > 0 && (c === 0x2c || c === 0x3b || c === 0x20 || c === 0x09); c = v.charCodeAt(end - 1)) end--;
  if (end === v.length || v.charCodeAt(end - 1) === 0x22) return v; // nothing to drop, or a quoted local part's end
  const rest = v.slice(0, end);
  return rest.includes('@') ? rest : v;
}

/** The address of "Name <address>" (one '<', one '>' at the end, an '@' between), else null. */
function namedAddress(v: string): string | null {
  const lt = v.indexOf('<');
  if (lt < 0 || v.lastIndexOf('<') !== lt || v.indexOf('>') !== v.length - 1) return null;
  const inner = v.slice(lt + 1, -1);
  return inner.includes('@') ? inner : null;
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
