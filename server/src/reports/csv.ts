// CSV as RFC 4180 writes it: CRLF line ends, a cell quoted when it holds a comma, quote or line break.
// Cells that a spreadsheet would run as a formula are neutralised as OWASP recommends ("CSV
// injection"): a Source name or a referer such as `=HYPERLINK(...)` comes from whoever set it.

/** Starts a formula in Excel, LibreOffice or Google Sheets: =, +, -, @, tab, carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number (`-3`, `+1.5`) is data, not a formula, and stays as it is. */
const NUMBER = /^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** A leading apostrophe makes the spreadsheet take the cell as text. */
function neutralised(value: string): string {
  return FORMULA_START.test(value) && !NUMBER.test(value) ? `'${value}` : value;
}

function cell(value: string): string {
  const text = neutralised(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(cell).join(",")}\r\n`;
}
