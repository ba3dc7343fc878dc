/**
 * The dashboard's one date format (docs/DEVELOPING.md, Browser building blocks): every date and time a reader sees,
 * in the reader's own locale and time zone through `Intl.DateTimeFormat` — "2 Dec 2026" in en-GB, "Dec 2, 2026" in
 * en-US, "2. Dez. 2026" in de. Exports (CSV, the public API) stay ISO 8601: that is a file format, not a display.
 *
 * The reader's locale is the browser's, so these are called only where the server never renders: the dashboard's
 * content appears once the browser has read the stored session (DashboardShell shows a skeleton until then), and the
 * Ask ARB citation opens on a click. Formatting on the server would print the server's locale and zone, and hydrating
 * it would then differ. A `<time dateTime={iso}>` around the text keeps the exact value for machines.
 */

type DateInput = string | number | Date | null | undefined;

/** Shown where a date is missing. */
export const NO_DATE = '—';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per set of options (building one is far dearer than formatting with it). */
function formatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let f = formatters.get(key);
  if (!f) {
    // `undefined`: the reader's locale (the browser's language settings).
    f = new Intl.DateTimeFormat(undefined, options);
    formatters.set(key, f);
  }
  return f;
}

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const DATE_TIME: Intl.DateTimeFormatOptions = { ...DATE, hour: '2-digit', minute: '2-digit' };
// A calendar day ("2026-12-02": stats periods, date filters) is the same day wherever the reader is: read and shown in UTC.
const DAY: Intl.DateTimeFormatOptions = { ...DATE, timeZone: 'UTC' };

/** A moment's date in the reader's zone: "2 Dec 2026". */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  return d ? formatter(DATE).format(d) : NO_DATE;
}

/** A moment's date and time in the reader's zone: "2 Dec 2026, 14:05". */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  return d ? formatter(DATE_TIME).format(d) : NO_DATE;
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day given as `YYYY-MM-DD` (no time, no zone), as that day: "2 Dec 2026" everywhere. */
export function formatDay(day: string | null | undefined): string {
  if (!day || !DAY_PATTERN.test(day)) return day ?? NO_DATE;
  const d = toDate(`${day}T00:00:00Z`);
  return d ? formatter(DAY).format(d) : day;
}
