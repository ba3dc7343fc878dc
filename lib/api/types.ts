/** Shapes of the API's `data` answers the browser reads (described by GET /api/openapi.json). */
import type { AppStore, Platform } from '@/lib/appStores';

/** authToken: short-lived access token; refreshToken: renews it until the session ends (logout, 30 days). */
export type SignedInUser = { authToken: string; refreshToken?: string; email: string; name?: string | null; displayName?: string | null };

export type AttributionMetadata = {
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  referral: string | null;
};

export type AppSearchResult = {
  app_id: string;
  app_store: AppStore;
  title: string;
  developer?: string | null;
  icon?: string | null;
  rating?: number | null;
  ratings_count?: number | null;
};

export type AppDetails = AppSearchResult & { country?: string | null; url?: string | null };

export type CheckoutUrl = { url: string };

export type PurchaseRequest = { price_id: string; referral_code?: string } & Record<string, unknown>;

export type ConnectResult = {
  destination_id: string;
  platform: Platform;
  app?: unknown;
  /** A new e-mail destination waits for its mailbox: whether this request sent the confirmation e-mail, in words. */
  confirmation?: { sent: boolean; sent_at: string | null; resend_after: string | null; message: string } | null;
};

export type Destination = {
  id: string;
  platform: Platform;
  status: string;
  app?: { app_id: string; app_store: AppStore; title?: string | null } | null;
} & Record<string, unknown>;

/**
 * A connection's state as GET v1/public/destination/{id} answers it: the server builds it (server/monitor/service.ts
 * DestinationStatus), the status card reads it.
 */
export type DestinationState = {
  /** pending_confirmation: an e-mail destination waiting for its mailbox to click the confirmation link. */
  status: 'active' | 'paused' | 'disabled' | 'pending_confirmation';
  /** Why it is paused, disabled or pending, in plain words. */
  status_reason: string | null;
  /** Channel name when known. */
  label: string | null;
  /** Where it posts, redacted (host and last characters): enough to recognise, useless to abuse. */
  target: string;
  warning: string | null;
  welcome: 'waiting_for_first_poll' | 'queued' | 'delivered';
  queued: number;
  delivered: number;
  last_delivery_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /** A store's reviews of a connected app cannot be read right now (its format changed), in plain words. */
  source_problem: string | null;
  /** Pending e-mail destinations: when the confirmation e-mail went out (null before it did). */
  confirmation_sent_at: string | null;
};

export type ChatMessage = { role: 'user' | 'assistant'; content: string };
export type ChatRequest = { messages: ChatMessage[]; app_id?: string; app_store?: AppStore; chat_id?: string };
export type ChatReply = { chat_id: string; message: ChatMessage | string };
export type ChatTranscript = { id: string; messages: ChatMessage[] };
