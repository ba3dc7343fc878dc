/**
 * GET v1/org/overview: the /dashboard overview of the caller's organisation (./overview.ts). Everyone in the
 * organisation reads it; the membership is read from the database on every call, so someone removed or moved sees
 * their new organisation's (or a 401), never the old one's.
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { membershipOf } from '../org/membership';
import { overviewOf } from './overview';

const day = z.string().meta({ description: 'A UTC day, YYYY-MM-DD.' });
const periodShape = z.object({
  from: day,
  to: day,
  reviews: z.number(),
  average: z.number().nullable().meta({ description: 'The average star rating of the reviews ARB collected in the period (not the store rating).' }),
  previous_reviews: z.number(),
  previous_average: z.number().nullable().meta({ description: 'The same over the same number of days just before.' }),
  change: z.number().nullable(),
  low: z.number().meta({ description: '1–2★ reviews of the period.' }),
  low_share: z.number().nullable(),
});
const termShape = z.object({ term: z.string(), reviews: z.number(), previous_reviews: z.number(), href: z.string() });

export const overviewShape = z.object({
  generated_at: z.string(),
  setup: z.object({
    apps: z.boolean().meta({ description: 'The organisation follows an app.' }),
    channel: z.boolean().meta({ description: 'It has a destination (chat channel, e-mail or webhook).' }),
    team: z.boolean().meta({ description: 'Someone else is a member or invited.' }),
    complete: z.boolean(),
  }),
  apps: z.array(
    z.object({
      key: z.string(),
      title: z.string(),
      store: z.string(),
      icon_url: z.string().nullable(),
      paused: z.boolean(),
      store_rating: z
        .object({ rating: z.number().nullable(), ratings_count: z.number().nullable(), change_7d: z.number().nullable(), as_of: z.string() })
        .nullable()
        .meta({ description: "The store's own rating (all ratings, with or without text) from the daily snapshots; null before the first one." }),
      review_average: z.object({ last_7_days: periodShape, last_30_days: periodShape }),
      unanswered_30d: z.number(),
      unanswered_negative_30d: z.number(),
      reply_time: z.object({ median_seconds: z.number().nullable(), replies: z.number() }).meta({ description: 'Median time from a review to its reply, over the newest replies of the last 30 days.' }),
      terms: z.object({ rising: z.array(termShape), critical: z.array(termShape) }).nullable().meta({ description: 'The last 7 days; null while they are being counted (terms_pending).' }),
      links: z.object({ reviews: z.string(), trends: z.string(), unanswered: z.string() }),
    }),
  ),
  attention: z.array(
    z.object({
      kind: z.enum(['unanswered_negative', 'alert', 'destination', 'credentials']),
      title: z.string(),
      detail: z.string(),
      href: z.string().meta({ description: 'The dashboard page where it is fixed.' }),
      action: z.string(),
      app_key: z.string().nullable(),
    }),
  ),
  terms_pending: z.boolean().meta({ description: 'Some apps’ terms are still being counted: ask again in a few seconds.' }),
});

export const overviewEndpoint = endpoint({
  summary: "The organisation's overview: a card per app (store rating, review average, volume, 1–2★ share, unanswered, reply time, terms), what needs attention, the setup checklist",
  tags: ['org'],
  auth: 'user',
  response: overviewShape,
  handler: async ({ auth }) => overviewOf(await membershipOf(auth)),
});
