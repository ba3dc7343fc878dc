/**
 * CSV for spreadsheets (RFC 4180): every cell quoted, quotes doubled, CRLF between records. A cell that a spreadsheet
 * would read as a formula (starting with = + - @, a tab or a carriage return) gets a leading apostrophe, so a review
 * written as `=HYPERLINK(…)` stays text when the export is opened.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '""';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvRecord(values: Array<string | number | boolean | null | undefined>): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
