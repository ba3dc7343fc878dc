/**
 * The review inbox's view (filters and search) as the page's URL query and as the API's: the same names and the same
 * comma-separated lists (`?rating=1,2&country=us,gb&q=crash`), so a view is shared by sharing the address. Pure.
 */
import type { AppStore } from '@/shared/appStores';

export type ReviewFilters = {
  app?: string[];
  store?: AppStore;
  rating?: number[];
  country?: string[];
  language?: string[];
  sentiment?: string[];
  replied?: 'true' | 'false';
  q?: string;
  /** One review by id: where a chat message's "Reply in ARB" link lands. */
  review?: string;
  /** Days, YYYY-MM-DD (UTC), both included. */
  from?: string;
  to?: string;
};

const LISTS = ['app', 'country', 'language', 'sentiment'] as const;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const split = (v: string | undefined) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The view in a URL query (Next's router.query); anything malformed is left out. */
export function filtersFromQuery(query: Record<string, string | string[] | undefined>): ReviewFilters {
  const f: ReviewFilters = {};
  for (const name of LISTS) {
    const values = split(first(query[name]));
    if (values.length) f[name] = values;
  }
  const ratings = split(first(query.rating)).map(Number).filter((n) => Number.isInteger(n) && n >= 1 && n <= 5);
  if (ratings.length) f.rating = [...new Set(ratings)].sort();
  const store = first(query.store);
  if (store === 'apple_app_store' || store === 'google_play_store') f.store = store;
  const replied = first(query.replied);
  if (replied === 'true' || replied === 'false') f.replied = replied;
  const q = first(query.q)?.trim();
  if (q) f.q = q.slice(0, 200);
  const review = first(query.review);
  if (review && /^\d{1,19}$/.test(review)) f.review = review;
  const from = first(query.from);
  const to = first(query.to);
  if (from && DAY.test(from)) f.from = from;
  if (to && DAY.test(to)) f.to = to;
  return f;
}

/** The query of a view: lists joined with commas, nothing for what is not set. */
export function filtersToQuery(f: ReviewFilters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(f)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    out[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return out;
}

export const hasFilters = (f: ReviewFilters) => Object.keys(filtersToQuery(f)).length > 0;
