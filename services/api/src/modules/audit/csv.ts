/**
 * RFC 4180 CSV: CRLF line ends, a field in double quotes when it holds a quote, comma, CR or LF,
 * quotes doubled. A cell a spreadsheet would run as a formula (starting with =, +, -, @, or a
 * tab or CR that some spreadsheets skip first) gets a leading apostrophe: the trail holds text
 * typed by users (names, reasons, numbers), and opening the download must never run it.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
