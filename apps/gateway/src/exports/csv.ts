import { ExportCell } from '@app/contracts';

/** A spreadsheet runs a cell that starts with one of these as a formula: such a cell is written as text. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; null is empty. */
export function csvCell(value: ExportCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, CRLF-terminated. */
export const csvLine = (cells: readonly ExportCell[]): string => `${cells.map(csvCell).join(',')}\r\n`;
