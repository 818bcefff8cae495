// CSV as RFC 4180 writes it: CRLF line ends, a cell quoted when it holds a comma, quote or line break.

function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(cell).join(",")}\r\n`;
}
