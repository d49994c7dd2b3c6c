/**
 * The one CSV cell writer of every export (batch results, rankings, the console's download): RFC 4180
 * quoting, and text a spreadsheet would run as a formula neutralised (OWASP "CSV injection").
 */

/** a cell's value: text is written as text, a number as a number (never neutralised) */
export type CsvValue = string | number | null | undefined;

/** first characters that make Excel, LibreOffice or Sheets read a cell as a formula */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell. Text starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'` and quotes, so it opens
 * as the text it is; a JS number (a score, an amount, even negative) is written as the number, with
 * `digits` decimals when given. A number that is not finite, null and undefined are empty cells.
 */
export function csvCell(value: CsvValue, digits?: number): string {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "";
    return digits === undefined ? String(value) : value.toFixed(digits);
  }
  if (value === null || value === undefined) return "";
  if (FORMULA_START.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** one line of cells (no terminator): values as csvCell writes them */
export function csvLine(cells: readonly CsvValue[]): string {
  return cells.map((cell) => csvCell(cell)).join(",");
}
