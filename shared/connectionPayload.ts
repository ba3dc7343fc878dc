/**
 * The v2 connection payload (docs/PRODUCT.md, Connection payload): what the browser hands to `POST v1/oauth/platform/connect` (and through
 * OAuth `state`) to say which app's reviews go to which webhook. URL-safe base64 JSON, so it survives query strings.
 * Browser side: building and encoding only. The server decodes and checks it with a zod schema
 * (server/connect/payload.ts), kept out of here so the pages that connect do not load zod.
 */
import { encode as encodeBase64Url } from 'jose/base64url';
import { DEFAULT_COUNTRY, type AppStore, type Platform } from '@/shared/appStores';

export const CONNECTION_PAYLOAD_VERSION = 'v2';

export type ConnectionPayload = {
  version: typeof CONNECTION_PAYLOAD_VERSION;
  user_email: string;
  source: string;
  source_type: 'webhook';
  webhook_url: string;
  app_id: string;
  app_store: AppStore;
  country: string;
};

export type ConnectionPayloadInput = {
  platform: Platform;
  /** What the visitor typed in the flow; falls back to the signed-in user's e-mail. */
  userEmail?: string | null;
  authEmail?: string | null;
  /** Where the connection was started (the connection store's connectionSource, e.g. 'home'). */
  source: string;
  webhookUrl: string;
  appId: string;
  appStore: AppStore;
  country?: string | null;
};

export function buildConnectionPayload(input: ConnectionPayloadInput): ConnectionPayload {
  return {
    version: CONNECTION_PAYLOAD_VERSION,
    user_email: (input.userEmail?.trim() || input.authEmail?.trim() || '').toLowerCase(),
    source: input.source,
    source_type: 'webhook',
    webhook_url: input.webhookUrl.trim(),
    app_id: input.appId,
    app_store: input.appStore,
    country: (input.country?.trim() || DEFAULT_COUNTRY).toLowerCase(),
  };
}

export function encodeConnectionPayload(payload: ConnectionPayload): string {
  return encodeBase64Url(JSON.stringify(payload));
}

/** The encoded payload together with its platform, the shape the connect call sends. */
export function connectionRequest(input: ConnectionPayloadInput): { platform: Platform; payload: string } {
  return { platform: input.platform, payload: encodeConnectionPayload(buildConnectionPayload(input)) };
}
