// IDNA2008 (RFC 5890–5893) for the domains of addresses, applied as written: nothing is mapped.
// UTS #46 (what tr46 and browsers do) maps input first — soft hyphens and zero-width characters
// vanish, fullwidth letters fold, emoji are let through — so a different domain would be looked up.
// Here every code point of every U-label (typed, or decoded from an A-label) must be PVALID, or a
// CONTEXTJ/CONTEXTO character in its allowed context (RFC 5892 appendix A); the Bidi rule
// (RFC 5893) applies when a label is right-to-left. The only change allowed is lower-casing, since
// DNS names are case-insensitive.
//
// The derived property is computed from the JavaScript engine's Unicode data (General_Category,
// Default_Ignorable_Code_Point, White_Space, Noncharacter_Code_Point) with the RFC 5892 exception
// table; no npm library implements IDNA2008 registration rules (tr46, idna-uts46-hx and the URL
// standard are all UTS #46). idna2008.test.ts proves the result equal, for every assigned code point,
// to the published IDNA2008 tables (Python's `idna` package, same Unicode version as Node).

export type IdnaProperty = 'PVALID' | 'CONTEXTJ' | 'CONTEXTO' | 'DISALLOWED' | 'UNASSIGNED';

/** RFC 5892 section 2.6 Exceptions (F). */
const EXCEPTIONS = new Map<number, IdnaProperty>([
  [0x00df, 'PVALID'], [0x03c2, 'PVALID'], [0x06fd, 'PVALID'], [0x06fe, 'PVALID'], [0x0f0b, 'PVALID'], [0x3007, 'PVALID'],
  [0x00b7, 'CONTEXTO'], [0x0375, 'CONTEXTO'], [0x05f3, 'CONTEXTO'], [0x05f4, 'CONTEXTO'], [0x30fb, 'CONTEXTO'],
  [0x0640, 'DISALLOWED'], [0x07fa, 'DISALLOWED'], [0x302e, 'DISALLOWED'], [0x302f, 'DISALLOWED'],
  [0x3031, 'DISALLOWED'], [0x3032, 'DISALLOWED'], [0x3033, 'DISALLOWED'], [0x3034, 'DISALLOWED'], [0x3035, 'DISALLOWED'], [0x303b, 'DISALLOWED'],
]);
for (let cp = 0x0660; cp <= 0x0669; cp++) EXCEPTIONS.set(cp, 'CONTEXTO');
for (let cp = 0x06f0; cp <= 0x06f9; cp++) EXCEPTIONS.set(cp, 'CONTEXTO');

const UNASSIGNED = /^\p{Cn}$/u;
const LDH = /^[a-z0-9-]$/;
const IGNORABLE_PROPERTIES = /^[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Noncharacter_Code_Point}]$/u;
const LETTER_DIGITS = /^[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]$/u;
const inRange = (cp: number, from: number, to: number) => cp >= from && cp <= to;
const CHEROKEE = /\p{Script=Cherokee}/u;

/**
 * Unicode full case folding (CaseFolding.txt C+F) from the engine's case mappings: lower(upper(s))
 * matches it except for Cherokee, which folds to upper case, and U+0131 dotless i, which has no
 * folding. Checked against the IDNA2008 tables of Python's idna package (Unicode 17): idna2008.test.ts.
 */
function caseFold(s: string): string {
  let out = '';
  for (const ch of s) {
    if (CHEROKEE.test(ch)) out += ch.toUpperCase();
    else if (ch === '\u0131') out += ch;
    else out += ch.toUpperCase().toLowerCase();
  }
  return out;
}

/** RFC 5892 section 3: the derived property of one code point. */
export function idnaProperty(cp: number): IdnaProperty {
  const exception = EXCEPTIONS.get(cp);
  if (exception) return exception;
  if (cp === 0x200c || cp === 0x200d) return 'CONTEXTJ';
  const ch = String.fromCodePoint(cp);
  if (UNASSIGNED.test(ch)) return 'UNASSIGNED';
  if (LDH.test(ch)) return 'PVALID';
  // Unstable: changed by NFKC_Casefold, computed as NFKC, case fold, NFKC.
  if (caseFold(ch.normalize('NFKC')).normalize('NFKC') !== ch) return 'DISALLOWED';
  if (IGNORABLE_PROPERTIES.test(ch)) return 'DISALLOWED';
  // IgnorableBlocks: Combining Diacritical Marks for Symbols, Musical Symbols, Ancient Greek Musical Notation.
  if (inRange(cp, 0x20d0, 0x20ff) || inRange(cp, 0x1d100, 0x1d24f)) return 'DISALLOWED';
  // OldHangulJamo.
  if (inRange(cp, 0x1100, 0x11ff) || inRange(cp, 0xa960, 0xa97f) || inRange(cp, 0xd7b0, 0xd7ff)) return 'DISALLOWED';
  return LETTER_DIGITS.test(ch) ? 'PVALID' : 'DISALLOWED';
}

/** Code points with Canonical_Combining_Class Virama (9), for the CONTEXTJ rules. */
const VIRAMAS = new Set([
  0x094d, 0x09cd, 0x0a4d, 0x0acd, 0x0b4d, 0x0bcd, 0x0c4d, 0x0ccd, 0x0d3b, 0x0d3c, 0x0d4d, 0x0dca, 0x0e3a, 0x0eba, 0x0f84, 0x1039,
  0x103a, 0x1714, 0x1715, 0x1734, 0x17d2, 0x1a60, 0x1b44, 0x1baa, 0x1bab, 0x1bf2, 0x1bf3, 0x2d7f, 0xa806, 0xa82c, 0xa8c4, 0xa953,
  0xa9c0, 0xaaf6, 0xabed, 0x10a3f, 0x11046, 0x11070, 0x1107f, 0x110b9, 0x11133, 0x11134, 0x111c0, 0x11235, 0x112ea, 0x1134d, 0x11442,
  0x114c2, 0x115bf, 0x1163f, 0x116b6, 0x1172b, 0x113ce, 0x113cf, 0x113d0, 0x11839, 0x1193d, 0x1193e, 0x119e0, 0x11a34, 0x11a47,
  0x11a99, 0x11c3f, 0x11d44, 0x11d45, 0x11d97, 0x11f41, 0x11f42, 0x1612f,
]);

/** RFC 5892 appendix A: is the CONTEXTJ/CONTEXTO character at i allowed where it stands? */
function contextAllows(cps: string[], i: number): boolean {
  const cp = cps[i]!.codePointAt(0)!;
  const before = cps[i - 1];
  const after = cps[i + 1];
  switch (cp) {
    case 0x200c: // ZERO WIDTH NON-JOINER: after a virama, or between joining letters. The second needs
      // each letter's Joining_Type, which JavaScript's Unicode data lacks: tr46 checks it (checkJoiners,
      // from the Unicode tables of its release) on every label right after this (idna.ts).
      return true;
    case 0x200d: // ZERO WIDTH JOINER: after a virama
      return before !== undefined && VIRAMAS.has(before.codePointAt(0)!);
    case 0x00b7: // MIDDLE DOT: between two l (Catalan)
      return before === 'l' && after === 'l';
    case 0x0375: // GREEK LOWER NUMERAL SIGN: followed by Greek
      return after !== undefined && /^\p{Script=Greek}$/u.test(after);
    case 0x05f3:
    case 0x05f4: // HEBREW GERESH / GERSHAYIM: after Hebrew
      return before !== undefined && /^\p{Script=Hebrew}$/u.test(before);
    case 0x30fb: // KATAKANA MIDDLE DOT: in a label with Hiragana, Katakana or Han
      return cps.some((c) => c !== '\u30fb' && /^[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]$/u.test(c));
    default:
      if (inRange(cp, 0x0660, 0x0669)) return !cps.some((c) => inRange(c.codePointAt(0)!, 0x06f0, 0x06f9));
      if (inRange(cp, 0x06f0, 0x06f9)) return !cps.some((c) => inRange(c.codePointAt(0)!, 0x0660, 0x0669));
      return false;
  }
}

/** An A-label is "xn--" and at least one character per code point of its U-label: at most 63 in all. */
const MAX_U_LABEL = 59;

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** Checks one U-label (already lower-cased) against IDNA2008; null when it is valid. */
export function uLabelProblem(label: string): string | null {
  const cps = [...label];
  // Its A-label would be longer still (RFC 5890 2.3.2.1: at most 63 octets); checked first, so a
  // crafted label costs no more than a real one.
  if (cps.length > MAX_U_LABEL) return `a domain label is longer than ${MAX_U_LABEL} characters`;
  if (label.normalize('NFC') !== label) return `domain label "${label}" is not in Unicode normalisation form C`;
  if (cps.length > 0 && /^\p{M}$/u.test(cps[0]!)) return `domain label "${label}" starts with a combining mark`;
  if (label.startsWith('-') || label.endsWith('-')) return `domain label "${label}" starts or ends with a hyphen`;
  // Positions are characters (code points), not UTF-16 units: 𠀀--𠀁 has its hyphens 2nd and 3rd.
  if (cps[2] === '-' && cps[3] === '-') return `domain label "${label}" has hyphens in the third and fourth positions`;
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!.codePointAt(0)!;
    const property = idnaProperty(cp);
    if (property === 'PVALID') continue;
    if ((property === 'CONTEXTJ' || property === 'CONTEXTO') && contextAllows(cps, i)) continue;
    const what = property === 'UNASSIGNED' ? 'an unassigned code point' : property === 'DISALLOWED' ? 'a character IDNA2008 does not allow' : 'a character not allowed in this position';
    return `domain contains ${hex(cp)}, ${what}`;
  }
  return null;
}
