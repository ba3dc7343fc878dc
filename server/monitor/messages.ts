/**
 * A queued delivery → the formatter's input → the platform payload. What a message says is decided at send time from
 * the stored review, except for edits: an "updated review" shows the text of the version it announces (and the one
 * before), even if the review was edited again since.
 */
import { env } from '../env';
import { formatFor, type OutgoingMessage } from '../destinations/format';
import type { AppInfo, FormattedMessage, Platform, ReplyAction, ReviewMessageInput } from '../destinations/types';
import { oneClickUnsubscribeUrl, unsubscribePageUrl } from '../subscriptions/tokens';
import type { AppStore, NormalizedReview } from '../sources/types';
import { appInfoOf, type AppRow } from './apps';

export type OpenDelivery = {
  id: number;
  /** Its webhook-id ('msg_…', set when it was queued; null on rows older than migration 0034: messageIds.ts). */
  webhook_id?: string | null;
  kind: 'new' | 'updated' | 'welcome' | 'alert' | 'summary';
  review_version: number;
  status: 'pending' | 'sending' | 'retry';
  attempts: number;
  /** Its last attempt started (its 'sending' mark committed) but no outcome was recorded: a worker died mid-send. */
  interrupted: boolean;
  /** Attempts in a row before the last one that were interrupted too (deliveryMarks.ts). */
  interrupted_sends: number;
  next_attempt_at: Date;
  first_attempt_at: Date | null;
  created_at: Date;
  app_key: string;
  app_store: AppStore;
  app_id: string;
  app_title: string;
  app_icon_url: string | null;
  app_store_url: string | null;
  review_id: number | null;
  store_review_id: string | null;
  country: string | null;
  language: string | null;
  author_name: string | null;
  title: string | null;
  body: string | null;
  rating: number | null;
  app_version: string | null;
  written_at: Date | null;
  updated_at: Date | null;
  reply_text: string | null;
  reply_updated_at: Date | null;
  permalink: string | null;
  sentiment: string | null;
  sentiment_score: number | null;
  at_rating: number | null;
  at_title: string | null;
  at_body: string | null;
  at_updated_at: Date | null;
  prev_rating: number | null;
  prev_title: string | null;
  prev_body: string | null;
  /** The destination's organisation's tags on the review (json, or its text), for review messages. */
  tags?: Array<{ id: string; name: string; color: string }> | string | null;
  /** Welcome intro only: how many recent reviews were queued with it. */
  welcome_recent: number | null;
  /** A 'new' delivery queued with a welcome intro: one of the welcome's recent reviews (absent: false). */
  welcome_review?: boolean | null;
  /** Spike alerts only: the episode, when it began and what its alert says (server/alerts/details.ts AlertDetails). */
  alert_episode_id: number | null;
  alert_since: Date | null;
  alert_details: unknown;
  /** Weekly summaries only: the stored summary (server/insights/weekly.ts). */
  weekly_summary_id: number | null;
  summary_week_start: string | null;
  summary_method: 'extractive' | 'llm' | null;
  summary_content: unknown;
  summary_note: string | null;
};

function reviewOf(d: OpenDelivery): NormalizedReview {
  // For an edit that has been edited again since, review_versions holds the text this announcement is about.
  const useVersion = d.kind === 'updated' && d.at_body !== null;
  return {
    store: d.app_store,
    appId: d.app_id,
    storeReviewId: d.store_review_id ?? '',
    country: d.country,
    language: d.language,
    authorName: d.author_name ?? '',
    title: useVersion ? d.at_title : d.title,
    body: (useVersion ? d.at_body : d.body) ?? '',
    rating: (useVersion ? d.at_rating : d.rating) ?? 0,
    appVersion: d.app_version,
    createdAt: d.written_at,
    updatedAt: (useVersion ? d.at_updated_at : d.updated_at) ?? d.created_at,
    replyText: d.reply_text,
    replyUpdatedAt: d.reply_updated_at,
    permalink: d.permalink,
  };
}

/** The review's tags as the message shows them (absent when it has none, so untagged messages are as before). */
function tagsOf(d: OpenDelivery): { tags?: Array<{ id: string; name: string; color: string }> } {
  const tags = typeof d.tags === 'string' ? (JSON.parse(d.tags) as Array<{ id: string; name: string; color: string }>) : d.tags;
  return tags?.length ? { tags } : {};
}

function sentimentOf(d: OpenDelivery): ReviewMessageInput['sentiment'] {
  if (d.sentiment !== 'positive' && d.sentiment !== 'neutral' && d.sentiment !== 'negative' && d.sentiment !== 'mixed') return null;
  return { label: d.sentiment, score: d.sentiment_score ?? 0 };
}

/** A translation of the review (title and body), as a message shows it. */
export type MessageTranslation = { language: string; title: string | null; body: string };

/**
 * The translation line of a review message: only when the message shows the review's current text, the one the
 * translation was made from (an announcement of an edit that was edited again since shows an older text).
 */
function translationOf(d: OpenDelivery, shown: NormalizedReview, t: MessageTranslation | null | undefined): ReviewMessageInput['translation'] {
  if (!t || shown.body !== (d.body ?? '') || shown.title !== d.title) return null;
  const text = [t.title?.trim(), t.body.trim()].filter(Boolean).join('\n\n');
  return text ? { text, language: t.language, title: t.title, body: t.body } : null;
}

/**
 * E-mails use ARB's address-level unsubscribe (server/subscriptions): the link opens a page that asks first (mail
 * scanners open links), and List-Unsubscribe points at the one-click POST endpoint (RFC 8058).
 */
async function withUnsubscribe(address: string, format: (ctx: { unsubscribeUrl: string }) => FormattedMessage): Promise<FormattedMessage> {
  const message = format({ unsubscribeUrl: await unsubscribePageUrl(address) });
  if (message.kind !== 'email') return message;
  return { ...message, headers: { ...message.headers, 'List-Unsubscribe': `<${await oneClickUnsubscribeUrl(address)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}

/** The Reply button: its value names the destination (whose organisation may reply) and the review. */
export const slackReplyButton = (destinationId: string, reviewId: number | string): ReplyAction => ({ kind: 'button', value: `${destinationId}:${reviewId}` });

/** Where a message is going: Slack review messages offer a reply from there (see replyActionFor). */
export type MessageDestination = { id: string; slackTeamId: string | null };

/**
 * A Slack review message's way to reply: the Reply button when the channel came from "Add to Slack" and this server
 * can verify Slack's clicks (SLACK_SIGNING_SECRET), a link to the review in ARB's inbox otherwise.
 */
export function replyActionFor(platform: Platform, destination: MessageDestination | undefined, reviewId: number | null): ReviewMessageInput['replyAction'] {
  if (platform !== 'slack' || !destination || reviewId === null) return null;
  const e = env();
  if (destination.slackTeamId && e.SLACK_SIGNING_SECRET) return slackReplyButton(destination.id, reviewId);
  return { kind: 'link', url: `${e.APP_URL}/dashboard/reviews?${new URLSearchParams({ review: String(reviewId) })}` };
}

/** The kinds of message other areas own: the engine queues and sends them, their owner says what they say. */
export type RegisteredKind = Exclude<OpenDelivery['kind'], 'new' | 'updated' | 'welcome'>;

/**
 * How a queued delivery of a registered kind becomes the formatters' input: `d` carries the kind's own columns (an
 * alert's episode, a summary's stored row), `app` the app as messages show it, `appUrl` ARB's address for links.
 */
export type MessageKindBuilder = (d: OpenDelivery, app: AppInfo, appUrl: string) => OutgoingMessage;

export type MessageKind = { kind: RegisteredKind; build: MessageKindBuilder };

const kindBuilders = new Map<RegisteredKind, MessageKindBuilder>();

/**
 * A message kind's owner hands the engine its builder. Called for the explicit list in server/messageKinds.ts
 * (registerMessageKinds) before anything is sent; registering a kind again replaces its builder.
 */
export function registerMessageKind({ kind, build }: MessageKind): void {
  kindBuilders.set(kind, build);
}

/** The registered kinds without a builder (none once server/messageKinds.ts has registered its list). */
export function unregisteredMessageKinds(): RegisteredKind[] {
  const all: Record<RegisteredKind, true> = { alert: true, summary: true };
  return (Object.keys(all) as RegisteredKind[]).filter((k) => !kindBuilders.has(k));
}

function registeredMessage(kind: RegisteredKind, d: OpenDelivery, app: AppInfo): OutgoingMessage {
  const build = kindBuilders.get(kind);
  // Rejected by the delivery worker like any message that cannot be formatted, naming what is missing.
  if (!build) throw new Error(`no builder is registered for message kind '${kind}' (server/messageKinds.ts)`);
  return build(d, app, env().APP_URL);
}

/**
 * `target` is the destination's decrypted webhook URL or e-mail address (e-mails need it for their unsubscribe link);
 * `translation`, the review in the destination's `translate_to` language, when there is one.
 */
export async function buildMessage(
  platform: Platform,
  target: string,
  d: OpenDelivery,
  destination?: MessageDestination,
  translation?: MessageTranslation | null,
): Promise<FormattedMessage> {
  const app = appInfoOf({ store: d.app_store, app_id: d.app_id, title: d.app_title, icon_url: d.app_icon_url, store_url: d.app_store_url });
  const shown = reviewOf(d);
  const message: OutgoingMessage =
    d.kind === 'welcome'
      ? { type: 'welcome', input: { app, recentCount: d.welcome_recent ?? 0, manageUrl: `${env().APP_URL}/dashboard`, connectedAt: d.created_at } }
      : d.kind === 'alert' || d.kind === 'summary'
        ? registeredMessage(d.kind, d, app)
        : {
          type: 'review',
          input: {
            kind: d.kind,
            ...(d.welcome_review ? { recent: true } : {}),
            reviewId: d.review_id === null ? null : String(d.review_id),
            review: shown,
            app,
            sentiment: sentimentOf(d),
            translation: translationOf(d, shown, translation),
            previous: d.kind === 'updated' && d.prev_body !== null ? { rating: d.prev_rating ?? 0, body: d.prev_body, title: d.prev_title } : null,
            replyAction: replyActionFor(platform, destination, d.review_id),
            ...tagsOf(d),
          },
        };
  if (platform === 'email') return withUnsubscribe(target, (ctx) => formatFor(platform, message, ctx));
  return formatOnce(platform, message);
}

/**
 * Chat payloads already formatted, by platform and everything the formatter reads (the input as JSON: formatters are
 * pure functions of it, server/destinations/format). A review fanned out to several destinations of one platform —
 * an app's channels, the organisations watching the same app — is one payload, and formatting it (escaping, fitting
 * the platform's limits, measuring bytes) was a fifth of the engine's CPU per delivery (bench/deliver.ts). An edit, a
 * new developer reply, a translation, a renamed app or a destination's own Reply button makes a different input,
 * hence a new entry. E-mails are not kept: each carries its recipient's unsubscribe links. Bounded: forgotten
 * wholesale when full, like any cache here.
 */
const formatted = new Map<string, FormattedMessage>();
const FORMATTED_MAX = 256;

function formatOnce(platform: Exclude<Platform, 'email'>, message: OutgoingMessage): FormattedMessage {
  const key = `${platform} ${JSON.stringify(message)}`;
  let out = formatted.get(key);
  if (!out) {
    out = formatFor(platform, message);
    if (formatted.size >= FORMATTED_MAX) formatted.clear();
    formatted.set(key, out);
  }
  return out;
}

/** The words of a test message: a review-shaped message, so the channel shows exactly how reviews will look. */
export const TEST_MESSAGE_TITLE = 'Test message from ARB';

/**
 * A test message for a destination, formatted like a review of `app` (the platform's real review layout), sent when an
 * admin asks for one from the dashboard. Nothing is stored: it is not a review.
 */
export async function buildTestMessage(
  platform: Platform,
  target: string,
  app: Pick<AppRow, 'store' | 'app_id' | 'title' | 'icon_url' | 'store_url'>,
  now = new Date(),
): Promise<FormattedMessage> {
  const message: OutgoingMessage = {
    type: 'review',
    input: {
      kind: 'new',
      app: appInfoOf(app),
      sentiment: null,
      previous: null,
      review: {
        store: app.store,
        appId: app.app_id,
        storeReviewId: `arb-test-${now.getTime()}`,
        country: null,
        language: null,
        authorName: 'ARB',
        title: TEST_MESSAGE_TITLE,
        body: `This is a test: new reviews of ${app.title} will appear here like this one. Sent from the ARB dashboard.`,
        rating: 5,
        appVersion: null,
        createdAt: now,
        updatedAt: now,
        replyText: null,
        replyUpdatedAt: null,
        permalink: null,
      },
    },
  };
  if (platform === 'email') return withUnsubscribe(target, (ctx) => formatFor(platform, message, ctx));
  return formatFor(platform, message);
}
