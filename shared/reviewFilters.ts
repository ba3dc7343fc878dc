/**
 * A review inbox view (filters and search) as a URL query, the same as the API's: the same names and the same
 * comma-separated lists (`?rating=1,2&country=us,gb&q=crash`), so a view is shared by sharing the address. Pure, and
 * typed only by shape: the view's type is the browser's (ReviewFilters in lib/api/reviewFilters.ts, read from the API's
 * query parameters; it also parses the page's URL query back), and the server builds its inbox links with these.
 */

/** A view's values: lists (arrays), words, days, flags. */
export type FilterValues = Readonly<Record<string, string | number | boolean | readonly (string | number)[] | undefined>>;

/** The query of a view: lists joined with commas, nothing for what is not set. */
export function filtersToQuery(f: FilterValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(f)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    out[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return out;
}

export const hasFilters = (f: FilterValues) => Object.keys(filtersToQuery(f)).length > 0;
