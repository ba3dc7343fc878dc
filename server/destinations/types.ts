/**
 * What the formatters take and give. Formatters are pure functions (server/destinations/format/<platform>.ts):
 * review in, platform payload out. Sending, SSRF guard, rate limits and retries live in the delivery engine.
 */
import type { AppStore, NormalizedReview } from '../sources/types';

export type Platform = 'slack' | 'msteams' | 'mattermost' | 'discord' | 'webex' | 'email';
export const PLATFORMS: readonly Platform[] = ['slack', 'msteams', 'mattermost', 'discord', 'webex', 'email'];

export type AppInfo = { appId: string; store: AppStore; title: string; iconUrl?: string | null; storeUrl?: string | null };

export type Sentiment = { label: 'positive' | 'neutral' | 'negative' | 'mixed'; score: number };

export type ReviewMessageInput = {
  kind: 'new' | 'updated';
  review: NormalizedReview;
  app: AppInfo;
  sentiment?: Sentiment | null;
  translation?: { text: string; language: string } | null;
  /** For 'updated': what it was before. */
  previous?: { rating: number; body: string; title: string | null } | null;
};

export type WelcomeMessageInput = {
  app: AppInfo;
  /** How many recent reviews follow the welcome. */
  recentCount: number;
  /** Where to manage the destination (e.g. APP_URL + '/dashboard'). */
  manageUrl: string;
};

/** A JSON payload for a webhook, or an e-mail. */
export type FormattedMessage =
  | { kind: 'json'; body: unknown }
  | { kind: 'email'; subject: string; text: string; html: string; headers?: Record<string, string> };

export type EmailContext = { unsubscribeUrl: string };
