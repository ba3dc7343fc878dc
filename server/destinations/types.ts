/**
 * What the formatters take and give. Formatters are pure functions (server/destinations/platforms/<id>.ts):
 * review in, platform payload out. Sending, SSRF guard, rate limits and retries live in the delivery engine.
 */
import { ALL_PLATFORMS, type Platform } from '@/shared/platforms';
import type { AppStore, NormalizedReview } from '../sources/types';

/** The registry's platforms (shared/platforms.ts); `webhook`: any HTTPS endpoint, sent the review as JSON and signed. */
export type { Platform } from '@/shared/platforms';
export const PLATFORMS: readonly Platform[] = ALL_PLATFORMS;

export type AppInfo = { appId: string; store: AppStore; title: string; iconUrl?: string | null; storeUrl?: string | null };

export type Sentiment = { label: 'positive' | 'neutral' | 'negative' | 'mixed'; score: number };

export type ReviewMessageInput = {
  kind: 'new' | 'updated';
  /** One of the welcome's recent reviews (stored before the destination watched the app): "Recent review". */
  recent?: boolean;
  /** The stored review's id (what the public API calls it); absent for a test message, which is no stored review. */
  reviewId?: string | null;
  review: NormalizedReview;
  app: AppInfo;
  sentiment?: Sentiment | null;
  /** The review in another language: `text` as people read it (title, blank line, body); title and body apart for programs. */
  translation?: { text: string; language: string; title?: string | null; body?: string } | null;
  /** For 'updated': what it was before. */
  previous?: { rating: number; body: string; title: string | null } | null;
  /** The destination's organisation's tags on the review (server/workflow), shown as a "Tags" line. */
  tags?: Array<{ id: string; name: string; color: string }>;
  /**
   * Slack only: how the message offers a reply. A button whose click ARB receives (channels added with "Add to Slack",
   * server/slack), or a link to the review in ARB's inbox (pasted webhooks: Slack sends their clicks nowhere).
   */
  replyAction?: ReplyAction | null;
  /** Slack only: the reply sent from the message, shown under the review once it is sent. */
  sentReply?: { text: string; by: string; state: string } | null;
};

export type ReplyAction = { kind: 'button'; value: string } | { kind: 'link'; url: string };

export type WelcomeMessageInput = {
  app: AppInfo;
  /** How many recent reviews follow the welcome. */
  recentCount: number;
  /** Where to manage the destination (e.g. APP_URL + '/dashboard'). */
  manageUrl: string;
  /**
   * When the welcome was queued: at the connection, or at the app's first poll right after it. Signed webhooks send it
   * as the event's `timestamp`; stored, so every retry sends the same bytes.
   */
  connectedAt?: Date | null;
};

/** A JSON payload for a webhook, or an e-mail. */
export type FormattedMessage =
  | { kind: 'json'; body: unknown }
  | { kind: 'email'; subject: string; text: string; html: string; headers?: Record<string, string> };

export type EmailContext = { unsubscribeUrl: string };

/**
 * A spike alert (server/alerts): the 1–2★ reviews of an app (or of one country or version of it) surged, or its
 * average rating dropped, against the app's own recent past. Numbers are as the detector measured them.
 */
export type AlertMessageInput = {
  /** The spike episode's id: what a receiver program may dedupe on. */
  episodeId: string;
  app: AppInfo;
  /** What part of the app: all of it, one country (two letters), one app version, or a topic (value: the term's key). */
  scope: { kind: 'app' | 'country' | 'version' | 'topic'; value: string };
  /** The first low review (1–2★; up to 3★ for a drop of the average alone) of the window that opened the episode. */
  since: Date;
  signals: AlertSignal[];
  /** For an app-wide alert: the countries and versions with the most 1–2★ reviews in the window. */
  concentration: Array<{ kind: 'country' | 'version'; value: string; low: number; reviews: number }>;
  /** A few of the window's lowest-rated reviews, with a link each (the review in ARB's inbox). */
  cited: AlertCitedReview[];
  /** The app's low-rated reviews since the episode began, in ARB's inbox. */
  inboxUrl: string;
};

export type AlertSignal =
  | { metric: 'low_share'; reviews: number; low: number; share: number; usualShare: number }
  | { metric: 'rating_drop'; reviews: number; average: number; usualAverage: number }
  /** A term filling the window's 1–2★ reviews: `ratio` times its usual rate per day (null: unused before). */
  | { metric: 'topic'; term: string; forms: string[]; reviews: number; low: number; usualPerDay: number; ratio: number | null; baselineDays: number };

export type AlertCitedReview = {
  reviewId: string;
  rating: number;
  title: string | null;
  body: string;
  author: string;
  country: string | null;
  version: string | null;
  link: string;
};

/**
 * A weekly summary of an app (server/insights/weekly.ts), as stored for its week: the model's themes with the reviews
 * they cite (checked by the server), or the extractive summary's quotes, with the server's own figures either way.
 * Every text in it — the model's included — is treated as hostile as review text.
 */
export type SummaryMessageInput = {
  /** The stored summary's id: what a receiver program may dedupe on. */
  summaryId: string;
  app: AppInfo;
  /** The week's UTC days, Monday and Sunday, 'YYYY-MM-DD'. */
  from: string;
  to: string;
  method: 'extractive' | 'llm';
  /** With a model: how many of the week's reviews it read. */
  read: number | null;
  overview: string | null;
  /** With a model: its words on what changed against the week before. */
  changes: string | null;
  themes: Array<{ title: string; summary: string; reviews: number; review_ids: string[]; quotes: SummaryQuote[] }>;
  /** Extractive: representative reviews, each with why it was picked. */
  quotes: SummaryQuote[];
  /** The server's figures as lines: counts and the week before, the rating change, terms rising and falling, versions. */
  figureLines: string[];
  /** The same figures as numbers (the signed webhook's). */
  figures: {
    reviews: number;
    previous_reviews: number;
    average_rating: number | null;
    previous_average_rating: number | null;
    rating_change: number | null;
    rising_terms: string[];
    falling_terms: string[];
    versions: Array<{ version: string | null; reviews: number; average_rating: number | null }>;
  };
  note: string | null;
  /** The week's reviews of the app in ARB's inbox. */
  inboxUrl: string;
};

export type SummaryQuote = { reviewId: string; rating: number; text: string; why: string; link: string };
