/**
 * The review inbox's filters as the API reads them from the query (GET v1/org/reviews, its CSV export): the one
 * description of a filter. InboxFilters, what the inbox's queries take, is its output, so a filter added here reaches
 * the handlers' types, the OpenAPI document and (npm run api-types) the browser's ApiQuery of the inbox.
 */
import { z } from 'zod';
import { appStoreSchema } from '@/shared/appIdSchemas';
import { APP_KEY_PATTERN } from '../orgApps/endpoints';
import { WORKFLOW_STATUSES } from '@/shared/workflow';

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

export const filterFields = {
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
  status: list('status', z.enum(WORKFLOW_STATUSES), 'a status: new, needs_reply, replied or done', 4).meta({ description: 'Queue statuses, comma-separated.' }),
  tag: list('tag', z.string().min(1).max(40), 'a tag id or name', 20).meta({ description: 'Tags (ids or names), comma-separated: reviews with any of them.' }),
  assignee: list('assignee', z.string().regex(/^(me|none|[A-Za-z0-9_-]{1,64})$/), 'me, none or a member id', 20).meta({
    description: 'me (the caller), none (nobody) or member ids, comma-separated.',
  }),
  from: instant('from', false).meta({ description: 'On or after: a day (UTC), an ISO 8601 time or unix seconds (content_updated_at).' }),
  to: instant('to', true).meta({ description: 'Up to: a day (that whole day, UTC), an ISO 8601 time or unix seconds.' }),
};

/** The inbox's filters, parsed: lists as arrays, times as Dates, `replied` as a boolean. */
export const inboxFilterQuery = z.object(filterFields);
export type InboxFilters = z.output<typeof inboxFilterQuery>;
