// The RFC 5892 derived property computed from the engine's Unicode data must equal the published
// IDNA2008 tables for every assigned code point. The reference (idna2008.tables.json) is the
// PVALID/CONTEXTJ/CONTEXTO ranges of the Python `idna` package's idnadata, for the same Unicode
// version as this Node (a different version would make the comparison meaningless, so it is checked).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { idnaProperty, uLabelProblem } from './idna2008';

type Tables = { source: string; PVALID: [number, number][]; CONTEXTJ: [number, number][]; CONTEXTO: [number, number][] };
const tables = JSON.parse(fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'idna2008.tables.json'), 'utf8')) as Tables;

function reference(): Map<number, 'PVALID' | 'CONTEXTJ' | 'CONTEXTO'> {
  const m = new Map<number, 'PVALID' | 'CONTEXTJ' | 'CONTEXTO'>();
  for (const kind of ['PVALID', 'CONTEXTJ', 'CONTEXTO'] as const) for (const [from, to] of tables[kind]) for (let cp = from; cp <= to; cp++) m.set(cp, kind);
  return m;
}

describe('IDNA2008 derived property (RFC 5892 section 3)', () => {
  it('uses the same Unicode version as the reference tables', () => {
    expect(tables.source).toContain(`Unicode ${process.versions.unicode}`);
  });

  it('agrees with the published tables on every assigned code point', () => {
    const ref = reference();
    const differences: string[] = [];
    let compared = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const mine = idnaProperty(cp);
      if (mine === 'UNASSIGNED') {
        if (ref.has(cp)) differences.push(`U+${cp.toString(16)} unassigned here, ${ref.get(cp)} in the tables`);
        continue;
      }
      compared++;
      const theirs = ref.get(cp) ?? 'DISALLOWED';
      if (mine !== theirs) differences.push(`U+${cp.toString(16)} ${mine} here, ${theirs} in the tables`);
    }
    expect(differences.slice(0, 20)).toEqual([]);
    expect(compared).toBeGreaterThan(150_000);
  });

  it.each([
    ['U+13A0 CHEROKEE LETTER A (folds to itself)', 0x13a0, 'PVALID'],
    ['U+AB70 CHEROKEE SMALL LETTER A (folds to upper case)', 0xab70, 'DISALLOWED'],
    ['U+0345 COMBINING GREEK YPOGEGRAMMENI (folds to iota)', 0x0345, 'DISALLOWED'],
    ['U+0131 LATIN SMALL LETTER DOTLESS I (no folding)', 0x0131, 'PVALID'],
    ['U+00DF SHARP S (exception)', 0x00df, 'PVALID'],
    ['U+03C2 FINAL SIGMA (exception)', 0x03c2, 'PVALID'],
    ['U+1F600 emoji', 0x1f600, 'DISALLOWED'],
    ['U+00AD SOFT HYPHEN', 0x00ad, 'DISALLOWED'],
    ['U+200B ZERO WIDTH SPACE', 0x200b, 'DISALLOWED'],
    ['U+200D ZERO WIDTH JOINER', 0x200d, 'CONTEXTJ'],
    ['U+00B7 MIDDLE DOT', 0x00b7, 'CONTEXTO'],
  ] as const)('%s is %s', (_name, cp, property) => {
    expect(idnaProperty(cp)).toBe(property);
  });

  it.each([
    ['catalan l·l', 'col·legi', null],
    ['middle dot not between l', 'co·legi', /U\+00B7/],
    ['zwj after a virama (Devanagari)', 'क्\u200dष', null],
    ['zwj without a virama', 'ab\u200dcd', /U\+200D/],
    ['greek keraia before greek', '\u0375α', null],
    ['greek keraia before latin', '\u0375a', /U\+0375/],
    ['arabic-indic digits mixed with extended digits', '\u0661\u06f1', /U\+0661|U\+06F1/],
    ['katakana middle dot with katakana', 'ア\u30fbイ', null],
    ['katakana middle dot alone with latin', 'a\u30fbb', /U\+30FB/],
  ] as const)('CONTEXT rule (RFC 5892 appendix A): %s', (_name, label, problem) => {
    const p = uLabelProblem(label);
    if (problem === null) expect(p).toBeNull();
    else expect(p).toMatch(problem);
  });
});
