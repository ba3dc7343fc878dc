/**
 * GET v1/org/reviews (the inbox, cursor-paged) and GET v1/org/reviews/export.csv (the same view as CSV). Lists are
 * comma-separated in the query (`rating=1,2&country=us,gb`), so a view fits in a shareable URL.
 */
import { z } from 'zod';
import { RAW, endpoint, pageAnswer } from '../http/api';
import { membershipOf } from '../org/membership';
import { EXPORT_MAX_ROWS, exportCsv, inboxOf } from './inbox';
import { filterFields, inboxFilterQuery } from './filterQuery';
import { inboxReviewSchema } from '@/shared/review';

export { list } from './filterQuery';

export const listOrgReviews = endpoint({
  statuses: [404],
  summary: "The organisation's reviews, newest first, filtered (also by queue status, tag and assignee) and searched, cursor-paged, with the result count",
  tags: ['reviews'],
  auth: 'user',
  query: z.object({
    ...filterFields,
    limit: z.coerce.number('limit must be a number.').int().min(1, 'limit must be 1 to 100.').max(100, 'limit must be 1 to 100.').default(25),
    starting_after: z.string().max(64, 'starting_after: not a cursor of this list.').optional().meta({ description: 'The next_cursor of the previous page.' }),
  }),
  response: z.array(inboxReviewSchema),
  paged: true,
  handler: async ({ auth, query }) => {
    const { limit, starting_after, ...filters } = query;
    const page = await inboxOf(await membershipOf(auth), filters, { limit, startingAfter: starting_after });
    return pageAnswer(page.data, page.has_more, page.next_cursor, { total: page.total, total_is_estimate: page.total_is_estimate });
  },
});

export const exportOrgReviews = endpoint({
  statuses: [404],
  summary: `The inbox's current view as CSV (text/csv), newest first, at most ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows`,
  tags: ['reviews'],
  auth: 'user',
  query: inboxFilterQuery,
  handler: async ({ auth, query, res }) => {
    await exportCsv(await membershipOf(auth), query, res);
    return RAW;
  },
});
