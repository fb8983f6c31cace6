// One CSV cell for every file we write (job results, the CLI's result file, the analytics report).

/**
 * A CSV cell (RFC 4180 quoting) that no spreadsheet runs as a formula. A leading = + - @ tab or CR
 * is prefixed with `'` (OWASP's CSV injection rule), and so is one that follows a `,` `;` or tab
 * inside the text: a spreadsheet whose list separator is `;` (Excel in many European locales) or
 * tab splits the cell there whatever the quotes, and that piece would start a formula. The
 * full-width and small-form variants (＝ ＋ － ＠ ﹦ ﹢ ﹣ ﹫) count too: a spreadsheet in a CJK locale
 * folds them to = + - @ and runs the formula. Blanks and double quotes before the character do not
 * hide it (`x;"=1`: split on `;`, the piece's quote closes at once and the rest runs), so the `'`
 * goes after them. Numbers are ours and stay numbers.
 */
const FORMULA_START = /(^|[,;\t])([\s"]*)(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B])/g;

export function csvCell(value: string | number | boolean | null): string {
  if (typeof value === 'number') return String(value);
  const s = (value === null ? '' : String(value)).replace(FORMULA_START, "$1$2'");
  return /[",;\t\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}
