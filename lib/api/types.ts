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

/** A connection's state (GET v1/public/destination/{id}): one definition, shared with the server. */
export type { DestinationState } from '@/shared/destinations';

export type ChatMessage = { role: 'user' | 'assistant'; content: string };
export type ChatRequest = { messages: ChatMessage[]; app_id?: string; app_store?: AppStore; chat_id?: string };
export type ChatReply = { chat_id: string; message: ChatMessage | string };
export type ChatTranscript = { id: string; messages: ChatMessage[] };
