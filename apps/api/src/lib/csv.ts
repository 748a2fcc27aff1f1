// CSV files an administrator opens in a spreadsheet (issue 18; docs/decisions/032): RFC 4180 by
// csv-stringify, CRLF line ends, and its formula guard (escape_formulas, OWASP "CSV Injection"): a
// text cell that starts with = + - @, a tab or a carriage return, or the full-width = + - @ some
// spreadsheets read the same way, gets a leading apostrophe, so it shows as text and never runs.
// Numbers are typed and written as numbers with fixed decimals, never defused: a negative amount
// stays a number, while the same characters typed as text are guarded.
import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number;

/** The rows as CSV lines, each ending in CRLF; numbers with `decimals` places. */
export function csvLines(rows: readonly (readonly CsvCell[])[], options: { decimals: number }): string {
  return stringify(rows as CsvCell[][], {
    record_delimiter: 'windows',
    escape_formulas: true,
    cast: { number: (value) => value.toFixed(options.decimals) },
  });
}
