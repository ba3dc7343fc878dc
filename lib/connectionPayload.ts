/**
 * The v2 connection payload (docs/PRODUCT.md, Connection payload): what the browser hands to `POST v1/oauth/platform/connect` (and through
 * OAuth `state`) to say which app's reviews go to which webhook. URL-safe base64 JSON, so it survives query strings.
 * Pure module — the API server imports the decoder, so no browser-only APIs here.
 */
import { decode as decodeBase64Url, encode as encodeBase64Url } from 'jose/base64url';
import { DEFAULT_COUNTRY, isAppStore, type AppStore, type Platform } from './appStores';

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

export class InvalidConnectionPayloadError extends Error {}

/** Strict: bytes that are not UTF-8 make the payload invalid rather than text with replacement characters. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

const STRING_FIELDS = ['user_email', 'source', 'webhook_url', 'app_id', 'country'] as const;

/** Decode and check a payload; throws InvalidConnectionPayloadError with a message a 400 answer can show. */
export function decodeConnectionPayload(encoded: string): ConnectionPayload {
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(decodeBase64Url(encoded)));
  } catch {
    throw new InvalidConnectionPayloadError('The connection payload is not URL-safe base64 JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidConnectionPayloadError('The connection payload must be a JSON object.');
  }
  const p = parsed as Record<string, unknown>;
  if (p.version !== CONNECTION_PAYLOAD_VERSION) throw new InvalidConnectionPayloadError('Unsupported connection payload version (expected v2).');
  if (p.source_type !== 'webhook') throw new InvalidConnectionPayloadError('source_type must be "webhook".');
  for (const field of STRING_FIELDS) {
    if (typeof p[field] !== 'string') throw new InvalidConnectionPayloadError(`${field} must be a string.`);
  }
  if (!p.app_id) throw new InvalidConnectionPayloadError('app_id is required.');
  if (!isAppStore(p.app_store)) throw new InvalidConnectionPayloadError('app_store must be apple_app_store or google_play_store.');
  return {
    version: CONNECTION_PAYLOAD_VERSION,
    user_email: p.user_email as string,
    source: p.source as string,
    source_type: 'webhook',
    webhook_url: p.webhook_url as string,
    app_id: p.app_id as string,
    app_store: p.app_store,
    country: (p.country as string) || DEFAULT_COUNTRY,
  };
}
