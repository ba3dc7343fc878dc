/**
 * The review outside the server, described once, in two clothes:
 * - publicReviewSchema, times as ISO 8601 strings: the `data` items of the dashboard's inbox (GET v1/org/reviews, as
 *   inboxReviewSchema), the CSV export and the MCP tools — read by people, the browser and assistants;
 * - apiReviewSchema, the same fields with every time as unix seconds (an integer, null stays null), as the seed
 *   product's public API documents them: the public API (GET v1/apps/{appKey}/reviews) and — with the differences
 *   webhookReviewSchema lists — the `data` of a signed webhook's review message (server/destinations/platforms/webhook.ts,
 *   payload `version: 2`).
 * The OpenAPI document and so the browser's generated types (lib/api/schema.d.ts) read them from here. A field added to
 * publicReviewSchema is added to all of them; the server's reviewJson and webhookReview must then fill it (tsc says so).
 */
import { z } from 'zod';
import { WORKFLOW_STATUSES } from '@/shared/workflow';

/** One of the organisation's tags on a review (server/workflow). */
export const reviewTagSchema = z.object({ id: z.string(), name: z.string(), color: z.string().meta({ description: '#rrggbb' }) });

export const publicReviewSchema = z.object({
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
  reply_state: z.enum(['none', 'draft', 'sending', 'pending_publish', 'published', 'failed', 'awaiting_approval', 'rejected']).meta({
    description: "The reply's life: none, or the organisation's reply through ARB (sending, pending_publish until the store shows it, published, failed; a rule's draft awaiting_approval or rejected), or published when the store shows a reply written elsewhere.",
  }),
  reply: z
    .object({
      state: z.enum(['draft', 'sending', 'pending_publish', 'published', 'failed', 'awaiting_approval', 'rejected']),
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
  tags: z.array(reviewTagSchema).meta({ description: "The organisation's tags on the review, by name." }),
});

export type PublicReview = z.output<typeof publicReviewSchema>;

const unixSeconds = (what: string) => z.number().int().meta({ description: `${what}, in unix seconds (the second it falls in).` });

/** The public API's review: the public review with its times in unix seconds, as the seed product's API answers them. */
export const apiReviewSchema = publicReviewSchema.extend({
  content_updated_at: unixSeconds('When the reviewer last wrote or changed the review (the store\'s time); `from` and `to` filter on it'),
  written_at: unixSeconds('When the review was first written, when the store says so').nullable(),
  replied_at: unixSeconds("When the store's reply was last changed").nullable(),
  reply: publicReviewSchema.shape.reply.unwrap().extend({ at: unixSeconds('When it was sent') }).nullable().meta({ description: "The organisation's reply sent through ARB, or null." }),
});

export type ApiReview = z.output<typeof apiReviewSchema>;

/**
 * A signed webhook's review (`review.created`, `review.updated`, `review.test`): the public API's review, made from the
 * message the engine built rather than from the inbox's row.
 */
export const webhookReviewSchema = apiReviewSchema.extend({
  id: z.string().nullable().meta({ description: 'The review id of the public API; null in a test message (review.test).' }),
  reply_state: z.enum(['published', 'none']).meta({ description: 'published when the store shows a reply.' }),
  reply: z.null().meta({
    description:
      "ARB's own reply (the public API's `reply`): always null here, since a message is made when the store shows a new or changed review, and a reply sent through ARB is followed in the API (`reply_state`, `reply`), not in messages.",
  }),
  store_permalink: z.string().nullable(),
  translation: z
    .object({ language: z.string(), title: z.string().nullable(), body: z.string() })
    .optional()
    .meta({ description: 'Only for a destination with translate_to: the review in that language (absent when it is written in it already).' }),
});

export type WebhookReview = z.input<typeof webhookReviewSchema>;

/**
 * A review in the dashboard's inbox (GET v1/org/reviews): the public review and its place in the organisation's queue
 * (server/workflow).
 */
export const inboxReviewSchema = publicReviewSchema.extend({
  status: z.enum(WORKFLOW_STATUSES).meta({ description: 'new (nobody acted on it), needs_reply, replied (a reply is published) or done.' }),
  status_reason: z.string().nullable().meta({ description: 'Why it has its status when something other than a person set it, e.g. "edited after your reply".' }),
  assignee: z.object({ id: z.string(), email: z.string() }).nullable().meta({ description: 'The member it is assigned to (null: nobody, or a member who has left).' }),
  notes_count: z.number().int(),
  ticket: z
    .object({ ticket_id: z.number().int(), url: z.string(), status: z.string().nullable() })
    .nullable()
    .meta({ description: "The review's Zendesk ticket once Zendesk created it (its status as last seen), else null." }),
});

export type InboxReviewShape = z.output<typeof inboxReviewSchema>;
