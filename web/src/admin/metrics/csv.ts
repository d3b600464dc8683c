/**
 * The CSV of a chart or table on the metrics screens: the same rows the screen shows, as RFC 4180
 * (CRLF line ends, quoted where needed), with the audit export's guard against spreadsheet
 * formulas. Pure, so the rules are unit-tested apart from the download.
 */

/** One value of a table: text, a number, or nothing measured (an empty cell). */
export type Cell = string | number | null;

/** A header row and the rows under it, as every metrics chart and table shows its numbers. */
export interface MetricsTable {
  columns: readonly string[];
  rows: readonly (readonly Cell[])[];
}

export function csvCell(value: Cell): string {
  if (value === null) return '';
  // Numbers are the figures themselves; only text can smuggle a formula (a name like "=cmd").
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function toCsv(table: MetricsTable): string {
  return [table.columns, ...table.rows].map(csvLine).join('');
}

/** `locus-demo-county-911-locates-per-day-2026-11-01-to-2026-11-28.csv` */
export function csvFileName(parts: readonly string[], range: { from: string; to: string }): string {
  const slug = parts
    .join(' ')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `locus-${slug}-${range.from}-to-${range.to}.csv`;
}
