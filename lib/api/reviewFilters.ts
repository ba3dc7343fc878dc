/**
 * The review inbox's view (filters and search) in the browser: its type read from the API's own query parameters
 * (ApiQuery of GET v1/org/reviews, generated from the server's inboxFilterQuery by `npm run api-types`), so a filter
 * the server renames or drops fails to compile here, and the parser of the page's URL query. The view and the API use
 * the same names and the same comma-separated lists (`?rating=1,2&country=us,gb&q=crash`), so a view is shared by
 * sharing the address; filtersToQuery (shared/reviewFilters.ts) writes it back. Pure.
 */
import type { ApiQuery } from './openapi';
import { isAppStore } from '@/shared/appStores';
import { WORKFLOW_STATUSES, type WorkflowStatus } from '@/shared/workflow';

/** The inbox's query without its paging (the client adds those per page). */
type InboxQuery = Omit<ApiQuery<'/api/v1/org/reviews', 'get'>, 'limit' | 'starting_after'>;

/** The comma-separated lists of strings; `rating` is a list of numbers. */
const LISTS = ['app', 'country', 'language', 'sentiment'] as const satisfies readonly (keyof InboxQuery)[];
type ListName = (typeof LISTS)[number];

/**
 * The view: the API's query with its lists as arrays. `review` is one review by id (where a chat message's "Reply in
 * ARB" link lands); `from` and `to` are days, YYYY-MM-DD (UTC), both included.
 */
export type ReviewFilters = { [K in Exclude<keyof InboxQuery, keyof QueueFilters>]?: K extends ListName ? string[] : K extends 'rating' ? number[] : InboxQuery[K] } & QueueFilters;

/**
 * The support queue's part of the view: statuses and tags (ids) as lists, and the assignee: `me`, `none` or a member's
 * user id.
 */
export type QueueFilters = { status?: WorkflowStatus[]; tag?: string[]; assignee?: string };

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
  const statuses = split(first(query.status)).filter((v): v is WorkflowStatus => (WORKFLOW_STATUSES as readonly string[]).includes(v));
  if (statuses.length) f.status = [...new Set(statuses)];
  const tags = split(first(query.tag)).filter((v) => /^[\w-]{1,64}$/.test(v));
  if (tags.length) f.tag = [...new Set(tags)];
  const assignee = first(query.assignee);
  if (assignee && /^[\w-]{1,64}$/.test(assignee)) f.assignee = assignee;
  const store = first(query.store);
  if (isAppStore(store)) f.store = store;
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
