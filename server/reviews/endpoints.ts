/**
 * GET v1/org/reviews (the inbox, cursor-paged) and GET v1/org/reviews/export.csv (the same view as CSV). Lists are
 * comma-separated in the query (`rating=1,2&country=us,gb`), so a view fits in a shareable URL.
 */
import { z } from 'zod';
import { RAW, endpoint, pageAnswer } from '../http/api';
import { membershipOf } from '../org/membership';
import { appStoreSchema } from '@/lib/appIdSchemas';
import { APP_KEY_PATTERN } from '../orgApps/endpoints';
import { EXPORT_MAX_ROWS, exportCsv, inboxOf, type InboxFilters } from './inbox';

/** `a,b,c` → each checked by `item`; at most `max`. */
export const list = <T extends z.ZodType>(name: string, item: T, what: string, max = 50) =>
  z
    .string()
    .max(4000, `${name} is too long.`)
    .transform((s, ctx) => {
      const parts = s.split(',').map((p) => p.trim()).filter(Boolean);
      if (parts.length > max) ctx.addIssue({ code: 'custom', message: `at most ${max} values.` });
      const out: z.output<T>[] = [];
      for (const p of parts) {
        const r = item.safeParse(p);
        if (!r.success) {
          ctx.addIssue({ code: 'custom', message: `"${p.slice(0, 40)}" is not ${what}.` });
          return z.NEVER;
        }
        out.push(r.data);
      }
      return out;
    })
    .optional();

/** A day (2026-05-01, the start of that day in UTC), a time (ISO 8601) or unix seconds. */
const instant = (name: string, endOfDay: boolean) =>
  z
    .string()
    .max(40)
    .transform((s, ctx) => {
      let t: number;
      if (/^\d{1,12}$/.test(s)) t = Number(s) * 1000;
      else if (/^\d{4}-\d{2}-\d{2}$/.test(s)) t = Date.parse(`${s}T00:00:00Z`) + (endOfDay ? 86_400_000 : 0);
      else t = /^\d{4}-\d{2}-\d{2}T/.test(s) ? Date.parse(s) : NaN;
      if (!Number.isFinite(t)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a date (2026-05-01), an ISO 8601 time or unix seconds.` });
        return z.NEVER;
      }
      return new Date(t);
    })
    .optional();

const filterFields = {
  app: list('app', z.string().regex(APP_KEY_PATTERN), 'an app key ({app_store}__{app_id})').meta({ description: 'App keys, comma-separated.' }),
  store: appStoreSchema.optional(),
  rating: list('rating', z.coerce.number().int().min(1).max(5), 'a star rating 1 to 5', 5),
  country: list('country', z.string().regex(/^[A-Za-z]{2}$/).transform((c) => c.toLowerCase()), 'a two-letter country code'),
  language: list('language', z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/), 'a language code like en or pt-BR'),
  sentiment: list('sentiment', z.enum(['positive', 'neutral', 'negative', 'mixed']), 'positive, neutral, negative or mixed', 4),
  replied: z.enum(['true', 'false'], 'replied must be true or false.').transform((v) => v === 'true').optional(),
  q: z
    .string()
    .trim()
    .max(200, 'q: the search can be at most 200 characters.')
    .transform((v) => v || undefined)
    .optional()
    .meta({ description: 'Words in the title or text; "a phrase", -word and or work as in a web search.' }),
  review: z
    .string()
    .regex(/^\d{1,19}$/, 'review must be a review id (digits).')
    .optional()
    .meta({ description: 'One review by its id (a chat message\'s "Reply in ARB" link opens the inbox on it).' }),
  from: instant('from', false).meta({ description: 'On or after: a day (UTC), an ISO 8601 time or unix seconds (content_updated_at).' }),
  to: instant('to', true).meta({ description: 'Up to: a day (that whole day, UTC), an ISO 8601 time or unix seconds.' }),
};

const filtersOf = (q: InboxFilters): InboxFilters => q;

export const reviewShape = z.object({
  id: z.string(),
  app_key: z.string(),
  app_id: z.string(),
  app_store: z.string(),
  title: z.string().meta({ description: "The app's title." }),
  author_display_name: z.string(),
  content_title: z.string().nullable(),
  content_body: z.string(),
  content_rating: z.number(),
  content_updated_at: z.string(),
  written_at: z.string().nullable(),
  reply_text: z.string().nullable(),
  replied_at: z.string().nullable(),
  reply_state: z.enum(['none', 'draft', 'sending', 'pending_publish', 'published', 'failed']).meta({
    description: "The reply's life: none, or the organisation's reply through ARB (sending, pending_publish until the store shows it, published, failed), or published when the store shows a reply written elsewhere.",
  }),
  reply: z
    .object({
      state: z.enum(['draft', 'sending', 'pending_publish', 'published', 'failed']),
      text: z.string(),
      failure: z.string().nullable().meta({ description: 'Why the store refused it, in plain words (state failed).' }),
      by: z.string().nullable().meta({ description: 'Who sent it: an e-mail address, or "API key <name>".' }),
      at: z.string(),
      edited_after_reply: z.boolean().meta({ description: 'The reviewer changed the review after this reply was sent.' }),
    })
    .nullable()
    .meta({ description: "The organisation's reply sent through ARB, or null." }),
  country: z.string().nullable(),
  language: z.string().nullable(),
  store_permalink: z.string(),
  sentiment: z.string().nullable(),
  version: z.string().nullable().meta({ description: 'The app version the review was written for.' }),
  edited: z.boolean(),
  previous_rating: z.number().nullable().meta({ description: 'The rating before the last edit.' }),
});

export const listOrgReviews = endpoint({
  summary: "The organisation's reviews, newest first, filtered and searched, cursor-paged",
  tags: ['reviews'],
  auth: 'user',
  query: z.object({
    ...filterFields,
    limit: z.coerce.number('limit must be a number.').int().min(1, 'limit must be 1 to 100.').max(100, 'limit must be 1 to 100.').default(25),
    starting_after: z.string().max(64, 'starting_after: not a cursor of this list.').optional().meta({ description: 'The next_cursor of the previous page.' }),
  }),
  response: z.array(reviewShape),
  paged: true,
  handler: async ({ auth, query }) => {
    const { limit, starting_after, ...filters } = query;
    const page = await inboxOf(await membershipOf(auth), filtersOf(filters), { limit, startingAfter: starting_after });
    return pageAnswer(page.data, page.has_more, page.next_cursor);
  },
});

export const exportOrgReviews = endpoint({
  summary: `The inbox's current view as CSV (text/csv), newest first, at most ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows`,
  tags: ['reviews'],
  auth: 'user',
  query: z.object(filterFields),
  handler: async ({ auth, query, res }) => {
    await exportCsv(await membershipOf(auth), filtersOf(query), res);
    return RAW;
  },
});
