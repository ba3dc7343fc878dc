/**
 * The v2 connection payload (shared/connectionPayload.ts) as the server accepts it: decoded, then every field checked
 * for the platform it is meant for. The browser checks the same things as the visitor types; this is the check that
 * counts. Anything wrong is a 400 whose message says which field and what it should look like.
 */
import { z } from 'zod';
import { CONNECTION_PAYLOAD_VERSION, type ConnectionPayload } from '@/shared/connectionPayload';
import { validateWebhookUrl, type WebhookPlatform } from '@/shared/webhookUrls';
import { ALL_COUNTRIES, isStorefrontCode } from '@/shared/storefronts';
import { APP_STORES, DEFAULT_COUNTRY, type AppStore, type Platform } from '@/shared/appStores';
import { normalizeAppId } from '@/shared/appIds';
import { ALL_PLATFORMS } from '@/shared/platforms';
import { env } from '../env';
import { badRequest } from '../http/errors';
import { emailAddress } from '../http/schemas';

/** Where the reviews go: a webhook as its platform's check returned it (with any warning of that check), or an address. */
export type ConnectTarget = { kind: 'webhook'; url: string; warning: string | null } | { kind: 'email'; email: string };

export type ConnectRequest = {
  platform: Platform;
  /** null while an OAuth install has not yet said which webhook it made. */
  target: ConnectTarget | null;
  /** Who connected it, when known (the visitor's e-mail, else the signed-in user's). */
  userEmail: string | null;
  app: { store: AppStore; appId: string };
  /** iOS: a storefront code or 'all'; Google Play: '' (its public reviews are read by language, not country). */
  country: string;
  /** Where the flow started (home, try-free, a platform page…), kept for the record. */
  source: string;
};

/** The largest encoded payload we read: a v2 payload with a long Teams URL is well under 3 KB. */
export const MAX_PAYLOAD_CHARS = 8192;

const SOURCE = /^[a-z0-9][a-z0-9_/-]{0,39}$/;

function checkEmail(value: string, field: string): string {
  const parsed = emailAddress.safeParse(value);
  if (!parsed.success) throw badRequest(`${field}: enter a valid e-mail address.`, 'invalid_payload');
  return parsed.data as string;
}

const NOT_ENCODED = 'The connection payload is not URL-safe base64 JSON.';

/** URL-safe base64 (trailing padding tolerated) of UTF-8 JSON → the JSON value. */
const encodedJson = z
  .string()
  .transform((s) => s.replace(/=+$/, ''))
  .pipe(z.base64url({ error: NOT_ENCODED }))
  .transform((s, ctx) => {
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(s, 'base64url'))) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: NOT_ENCODED });
      return z.NEVER;
    }
  });

/** The decoded payload's shape (shared/connectionPayload.ts builds it): each field's own words when it is wrong. */
export const connectionPayloadSchema = z.object(
  {
    version: z.literal(CONNECTION_PAYLOAD_VERSION, { error: `Unsupported connection payload version (expected ${CONNECTION_PAYLOAD_VERSION}).` }),
    source_type: z.literal('webhook', { error: 'source_type must be "webhook".' }),
    user_email: z.string({ error: 'user_email must be a string.' }),
    source: z.string({ error: 'source must be a string.' }),
    webhook_url: z.string({ error: 'webhook_url must be a string.' }),
    app_id: z.string({ error: 'app_id must be a string.' }).min(1, 'app_id is required.'),
    country: z.string({ error: 'country must be a string.' }).transform((c) => c || DEFAULT_COUNTRY),
    app_store: z.enum(APP_STORES, { error: 'app_store must be apple_app_store or google_play_store.' }),
  },
  { error: 'The connection payload must be a JSON object.' },
) satisfies z.ZodType<ConnectionPayload, unknown>;

export class InvalidConnectionPayloadError extends Error {}

/** Decodes and checks the payload's shape; throws InvalidConnectionPayloadError with words a 400 answer can show. */
export function decodeConnectionPayload(encoded: string): ConnectionPayload {
  const json = encodedJson.safeParse(encoded);
  if (!json.success) throw new InvalidConnectionPayloadError(NOT_ENCODED);
  const parsed = connectionPayloadSchema.safeParse(json.data);
  if (!parsed.success) throw new InvalidConnectionPayloadError(parsed.error.issues[0].message);
  return parsed.data;
}

/**
 * `webhook: 'required'` for a pasted webhook; 'none' when an OAuth install will supply it (the payload's webhook_url
 * must then be empty, so nobody mistakes which one is used).
 */
export function parseConnectionPayload(platform: Platform, encoded: string, webhook: 'required' | 'none' = 'required'): ConnectRequest {
  let p;
  try {
    p = decodeConnectionPayload(encoded);
  } catch (err) {
    if (err instanceof InvalidConnectionPayloadError) throw badRequest(`payload: ${err.message}`, 'invalid_payload');
    throw err;
  }

  const appId = normalizeAppId(p.app_store, p.app_id);
  if (!appId) {
    throw badRequest(
      p.app_store === 'apple_app_store'
        ? 'payload.app_id: an App Store app id is a number, like 1488223190.'
        : 'payload.app_id: a Google Play app id is a package name, like com.example.app.',
      'invalid_payload',
    );
  }

  let country = '';
  if (p.app_store === 'apple_app_store') {
    country = (p.country || 'us').trim().toLowerCase();
    if (country !== ALL_COUNTRIES && !isStorefrontCode(country)) {
      throw badRequest(`payload.country: "${country}" is not an App Store country. Use a two-letter code like "us", or "all".`, 'invalid_payload');
    }
  }

  const userEmail = p.user_email.trim() ? checkEmail(p.user_email, 'payload.user_email') : null;

  let target: ConnectTarget | null = null;
  if (platform === 'email') {
    if (!userEmail) throw badRequest('payload.user_email: enter the e-mail address the reviews should go to.', 'invalid_payload');
    target = { kind: 'email', email: userEmail };
  } else if (webhook === 'required') {
    const check = validateWebhookUrl(platform as WebhookPlatform, p.webhook_url, { allowPrivate: env().ALLOW_PRIVATE_WEBHOOKS });
    if (!check.ok) throw badRequest(`payload.webhook_url: ${check.error}`, 'invalid_webhook_url');
    target = { kind: 'webhook', url: check.url, warning: check.warning ?? null };
  } else if (p.webhook_url.trim()) {
    throw badRequest('payload.webhook_url: leave it empty — the platform creates the webhook when you approve ARB.', 'invalid_payload');
  }

  const source = p.source.trim().toLowerCase();
  return {
    platform,
    target,
    userEmail,
    app: { store: p.app_store, appId },
    country,
    source: SOURCE.test(source) ? source : 'unknown',
  };
}

/** The body of POST v1/oauth/platform/connect (CONTRACT.md). */
export const platformConnectBody = z.object({
  platform: z.enum(ALL_PLATFORMS, { error: `must be one of ${ALL_PLATFORMS.join(', ')}` }),
  payload: z.string({ error: 'is required: the encoded v2 connection payload' }).min(1, 'is required').max(MAX_PAYLOAD_CHARS, 'is too long'),
});
