/**
 * Signed webhooks (any HTTPS endpoint: n8n, Zapier, Make, a customer's own service): the review as JSON in the public
 * API's review shape (GET v1/apps/{appKey}/reviews), wrapped in the Standard Webhooks envelope
 * `{ type, timestamp, data }`. Types: `review.created`, `review.updated`, `review.test` (the dashboard's test message,
 * which is no stored review: its `id` is null), `destination.connected` (the welcome, before the recent reviews),
 * `alert.spike` (a spike alert) and `summary.weekly` (an app's weekly summary). `timestamp` is when the event happened
 * (ISO 8601, as Standard Webhooks has it): the review's last change, the connection, the start of the spike, the end
 * of the week. The three review types also carry `version: 2`: their review's times are unix seconds, as in the public
 * API (version 1 had ISO 8601 strings there and no `version`).
 * No length limits: the receiver is a program, not a chat. The body only depends on the message, so a retry sends the
 * same bytes (signed again with the time of the retry).
 */
import type { AlertMessageInput, AppInfo, FormattedMessage, ReviewMessageInput, SummaryMessageInput, WelcomeMessageInput } from '../types';
import type { WebhookReview } from '@/shared/review';
import { rejectsOn, type AnswerRules } from '../answers';
import { unixSecondsOrNull as seconds } from '../../publicApi/timeBounds';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The review messages' payload version: 2 since their review's times are unix seconds (1 had ISO 8601 strings). */
export const REVIEW_PAYLOAD_VERSION = 2;

/** The signed webhook's review: the public review's schema with the webhook's differences (shared/review.ts). */
export type { WebhookReview };

/** The public API's review fields (server/publicApi/apiReview.ts), from the message the engine built. */
export function webhookReview(input: ReviewMessageInput): WebhookReview {
  const { review: r, app } = input;
  return {
    id: input.reviewId ?? null,
    app_key: `${app.store}__${app.appId}`,
    app_id: app.appId,
    app_store: app.store,
    title: app.title,
    author_display_name: r.authorName,
    content_title: r.title,
    content_body: r.body,
    content_rating: r.rating,
    content_updated_at: seconds(r.updatedAt)!,
    written_at: seconds(r.createdAt),
    reply_text: r.replyText,
    replied_at: seconds(r.replyUpdatedAt),
    reply_state: r.replyText ? 'published' : 'none',
    reply: null,
    country: r.country,
    language: r.language,
    store_permalink: r.permalink ?? app.storeUrl ?? null,
    sentiment: input.sentiment?.label ?? null,
    ...(input.translation
      ? { translation: { language: input.translation.language, title: input.translation.title ?? null, body: input.translation.body ?? input.translation.text } }
      : {}),
    version: r.appVersion,
    edited: input.kind === 'updated',
    previous_rating: input.kind === 'updated' && input.previous && input.previous.rating !== r.rating ? input.previous.rating : null,
    tags: input.tags ?? [],
  };
}

export function formatReview(input: ReviewMessageInput): FormattedMessage {
  const data = webhookReview(input);
  const type = data.id === null ? 'review.test' : input.kind === 'updated' ? 'review.updated' : 'review.created';
  return { kind: 'json', body: { type, version: REVIEW_PAYLOAD_VERSION, timestamp: iso(input.review.updatedAt), data } };
}

/** The app as the public API names it, in the messages that are about an app rather than one review. */
const appFields = (app: AppInfo) => ({ app_key: `${app.store}__${app.appId}`, app_id: app.appId, app_store: app.store, title: app.title });

export function formatWelcome(input: WelcomeMessageInput): FormattedMessage {
  return {
    kind: 'json',
    body: {
      type: 'destination.connected',
      timestamp: iso(input.connectedAt),
      data: {
        ...appFields(input.app),
        recent_reviews: input.recentCount,
        manage_url: input.manageUrl,
      },
    },
  };
}

/** `alert.spike`: the detector's numbers as they are, the cited reviews by id (GET v1/apps/{appKey}/reviews has them). */
export function formatAlert(input: AlertMessageInput): FormattedMessage {
  return {
    kind: 'json',
    body: {
      type: 'alert.spike',
      timestamp: iso(input.since),
      data: {
        id: input.episodeId,
        ...appFields(input.app),
        scope: input.scope,
        since: iso(input.since),
        signals: input.signals,
        concentration: input.concentration,
        cited_review_ids: input.cited.map((r) => r.reviewId),
        inbox_url: input.inboxUrl,
      },
    },
  };
}

/**
 * `summary.weekly`: the week's summary as stored — how it was made, the model's themes with the review ids it cites
 * (checked), or the extractive quotes, and the server's figures as numbers. `timestamp` is the end of the week.
 */
export function formatSummary(input: SummaryMessageInput): FormattedMessage {
  const quote = (q: SummaryMessageInput['quotes'][number]) => ({ review_id: q.reviewId, rating: q.rating, text: q.text, why: q.why });
  return {
    kind: 'json',
    body: {
      type: 'summary.weekly',
      timestamp: new Date(new Date(`${input.to}T00:00:00Z`).getTime() + 86_400_000).toISOString(),
      data: {
        id: input.summaryId,
        ...appFields(input.app),
        week: { from: input.from, to: input.to },
        method: input.method,
        label: input.method === 'llm' ? 'AI summary' : 'extractive summary',
        read: input.read,
        overview: input.overview,
        changes: input.changes,
        themes: input.themes.map((t) => ({ title: t.title, summary: t.summary, reviews: t.reviews, review_ids: t.review_ids, quotes: t.quotes.map(quote) })),
        quotes: input.quotes.map(quote),
        figures: input.figures,
        note: input.note,
        inbox_url: input.inboxUrl,
      },
    },
  };
}

/** A receiver that validates the payload says so with 400 or 422: about this message, not the endpoint. */
export const answers: AnswerRules = { refusal: rejectsOn('webhook', [400, 413, 415, 422]) };
