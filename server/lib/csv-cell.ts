// One CSV cell for every file we write (job results, the CLI's result file, the analytics report).

/**
 * A CSV cell (RFC 4180 quoting) that no spreadsheet runs as a formula. A leading = + - @ tab or CR
 * is prefixed with `'` (OWASP's CSV injection rule), and so is one that follows a `,` `;` or tab
 * inside the text: a spreadsheet whose list separator is `;` (Excel in many European locales) or
 * tab splits the cell there whatever the quotes, and that piece would start a formula. Numbers are
 * ours and stay numbers.
 */
export function csvCell(value: string | number | boolean | null): string {
  if (typeof value === 'number') return String(value);
  const s = (value === null ? '' : String(value)).replace(/(^|[,;\t])(\s*)(?=[=+\-@\t\r])/g, "$1$2'");
  return /[",;\t\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}
