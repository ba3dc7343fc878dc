/**
 * App Store reviews through the official App Store Connect API, with the owner's API key (issuer id, key id, .p8):
 * every territory in one stream, newest first, published developer responses included.
 *   GET {APPSTORE_CONNECT_BASE_URL}/v1/apps/{id}/customerReviews?sort=-createdDate&limit=200&include=response
 * Auth is a short-lived ES256 JWT (header kid; iss, iat, exp ≤ 20 min, aud appstoreconnect-v1) sent as a Bearer token.
 */
import { isAppStoreAppId } from '@/shared/appIds';
import { importPKCS8, SignJWT } from 'jose';
import { env } from '../env';
import { appStorePageUrl } from './appStoreFeed';
import { cleanReview } from './cleanText';
import { isPastWatermark, newestFirstUnique, parseJson, sourceFetch } from './http';
import { territoryToCountry } from './territories';
import {
  SourceError,
  type NormalizedReview,
  type PollOptions,
  type PollResult,
  type SourceAdapter,
  type SourceConfig,
  type SourceCredentials,
} from './types';

const SERVICE = 'App Store Connect';
const AUDIENCE = 'appstoreconnect-v1';
/** Apple refuses tokens that live longer than 20 minutes; stay well inside so clock skew never trips it. */
const TOKEN_LIFETIME_SECONDS = 15 * 60;
export const CONNECT_PAGE_SIZE = 200;
/** Without a watermark (first poll) 1,000 reviews are plenty: the engine only welcomes with a few of them. */
const DEFAULT_MAX_PAGES = 5;
/** Apple's limit on a response body. */
export const CONNECT_REPLY_MAX_CHARS = 5970;

export type AppStoreConnectCredentials = Extract<SourceCredentials, { kind: 'appstore_connect' }>;

type JsonApiRef = { type: string; id: string };
export type CustomerReviewResource = {
  type: 'customerReviews';
  id: string;
  attributes?: {
    rating?: number;
    title?: string | null;
    body?: string | null;
    reviewerNickname?: string | null;
    createdDate?: string;
    territory?: string | null;
  };
  relationships?: { response?: { data?: JsonApiRef | null } };
};
export type CustomerReviewResponseResource = {
  type: 'customerReviewResponses';
  id: string;
  attributes?: { responseBody?: string; lastModifiedDate?: string; state?: 'PENDING_PUBLISH' | 'PUBLISHED' | string };
};
export type CustomerReviewsDocument = {
  data?: CustomerReviewResource[];
  included?: Array<CustomerReviewResponseResource | { type: string; id: string }>;
  links?: { self?: string; next?: string };
};

function credentialsOf(config: Pick<SourceConfig, 'credentials'>): AppStoreConnectCredentials {
  const creds = config.credentials;
  if (creds?.kind !== 'appstore_connect' || !creds.issuerId || !creds.keyId || !creds.privateKeyPem) {
    throw new SourceError('App Store Connect needs the issuer id, the key id and the .p8 private key', true);
  }
  return creds;
}

/** The Bearer token Apple expects. A key that cannot be read is the owner's to fix: permanent. */
export async function appStoreConnectToken(creds: AppStoreConnectCredentials, now: Date = new Date()): Promise<string> {
  let key: CryptoKey;
  try {
    key = await importPKCS8(creds.privateKeyPem.trim(), 'ES256');
  } catch {
    throw new SourceError('The App Store Connect private key could not be read: paste the whole .p8 file, BEGIN and END lines included', true);
  }
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: creds.keyId.trim(), typ: 'JWT' })
    .setIssuer(creds.issuerId.trim())
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
    .setAudience(AUDIENCE)
    .sign(key);
}

function baseUrl(): string {
  return env().APPSTORE_CONNECT_BASE_URL.replace(/\/$/, '');
}

/**
 * `links.next` is absolute and names Apple's host. Only its path and query are kept, joined to the configured base, so
 * the Bearer token never goes anywhere but the host we were configured for.
 */
export function resolveNextLink(next: string | undefined): string | null {
  if (!next) return null;
  let url: URL;
  try {
    url = new URL(next, 'https://api.appstoreconnect.apple.com');
  } catch {
    return null;
  }
  if (!url.pathname.startsWith('/v1/')) return null;
  return `${baseUrl()}${url.pathname}${url.search}`;
}

function toReview(
  resource: CustomerReviewResource,
  appId: string,
  responses: Map<string, CustomerReviewResponseResource>,
): NormalizedReview | null {
  const a = resource.attributes ?? {};
  const createdAt = new Date(a.createdDate ?? '');
  const rating = Number(a.rating);
  if (!resource.id || !(rating >= 1 && rating <= 5) || Number.isNaN(createdAt.getTime())) return null;
  const country = territoryToCountry(a.territory);
  const responseRef = resource.relationships?.response?.data;
  const response = responseRef ? responses.get(responseRef.id) : undefined;
  // A response still PENDING_PUBLISH is not visible on the store yet: only a published one counts as the reply.
  const published = response && (response.attributes?.state ?? 'PUBLISHED') === 'PUBLISHED' ? response.attributes : undefined;
  const replyUpdatedAt = published?.lastModifiedDate ? new Date(published.lastModifiedDate) : null;
  return cleanReview({
    store: 'apple_app_store',
    appId,
    storeReviewId: resource.id,
    country,
    language: null,
    authorName: a.reviewerNickname ?? '',
    title: a.title || null,
    body: a.body ?? '',
    rating,
    appVersion: null, // the API does not say which version was reviewed
    createdAt,
    updatedAt: createdAt, // Apple exposes no modification time: the creation time is the watermark
    replyText: published?.responseBody ?? null,
    replyUpdatedAt: replyUpdatedAt && !Number.isNaN(replyUpdatedAt.getTime()) ? replyUpdatedAt : null,
    permalink: appStorePageUrl(appId, country ?? 'us'),
  });
}

export function parseCustomerReviews(doc: CustomerReviewsDocument, appId: string): NormalizedReview[] {
  const responses = new Map<string, CustomerReviewResponseResource>();
  for (const inc of doc.included ?? []) {
    if (inc.type === 'customerReviewResponses') responses.set(inc.id, inc as CustomerReviewResponseResource);
  }
  return (doc.data ?? []).flatMap((r) => toReview(r, appId, responses) ?? []);
}

export const appStoreConnectAdapter: SourceAdapter = {
  kind: 'appstore_connect',
  async poll(config: SourceConfig, options: PollOptions = {}): Promise<PollResult> {
    const creds = credentialsOf(config);
    const appId = config.appId.trim();
    if (!isAppStoreAppId(appId)) throw new SourceError(`"${config.appId}" is not an App Store app id (digits)`, true);
    const since = options.since ?? null;
    const maxPages = Math.max(options.maxPages ?? DEFAULT_MAX_PAGES, 1);
    // One token serves the whole poll: it lives far longer than a few pages take.
    const token = await appStoreConnectToken(creds);

    const collected: NormalizedReview[] = [];
    let url: string | null =
      `${baseUrl()}/v1/apps/${appId}/customerReviews?sort=-createdDate&limit=${CONNECT_PAGE_SIZE}&include=response`;
    let pages = 0;
    let reachedWatermark = false;
    while (url && pages < maxPages) {
      const res = await sourceFetch(url, {
        service: SERVICE,
        signal: options.signal,
        headers: { Authorization: `Bearer ${token}` },
        permanentStatuses: [404], // no such app for this key
      });
      pages++;
      const doc = parseJson<CustomerReviewsDocument>(res.text, SERVICE);
      const reviews = parseCustomerReviews(doc, appId);
      collected.push(...reviews);
      if (reviews.some((r) => isPastWatermark(r.updatedAt, since))) {
        reachedWatermark = true;
        break;
      }
      url = resolveNextLink(doc.links?.next);
    }
    // Stopping on the page budget with more pages left and the watermark not reached leaves a gap behind.
    const complete = since == null || reachedWatermark || url == null;
    return { reviews: newestFirstUnique(collected), complete };
  },
};

/** How long the credentials check waits for Apple: someone is looking at a spinning button meanwhile. */
const CHECK_TIMEOUT_MS = 15_000;

/**
 * The credentials check before a key is saved: one request that reads this app's newest customer review, exactly what
 * the engine's polls will need. Resolves when Apple answers 2xx; otherwise the SourceError carries Apple's status
 * (401 unknown key or issuer, 403 a role that may not read reviews, 404 an app outside the key's account).
 */
export async function checkAppStoreConnectAccess(credentials: SourceCredentials, appId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
  const creds = credentialsOf({ credentials });
  const token = await appStoreConnectToken(creds);
  await sourceFetch(`${baseUrl()}/v1/apps/${encodeURIComponent(appId.trim())}/customerReviews?sort=-createdDate&limit=1`, {
    service: SERVICE,
    signal: options.signal,
    timeoutMs: CHECK_TIMEOUT_MS,
    headers: { Authorization: `Bearer ${token}` },
    permanentStatuses: [404],
  });
}

export type AppStoreReply = {
  id: string;
  responseBody: string;
  state: string | null;
  lastModifiedDate: Date | null;
  /** What is left of the key's hourly allowance, from the answer's X-Rate-Limit header (null when absent). */
  rateLimit: AppStoreRateLimit | null;
};
export type AppStoreRateLimit = { limit: number; remaining: number };

/** Apple's `X-Rate-Limit: user-hour-lim:3600;user-hour-rem:3599;` → { limit, remaining }; null when absent or unreadable. */
export function parseRateLimitHeader(value: string | string[] | undefined): AppStoreRateLimit | null {
  const text = Array.isArray(value) ? value.join(';') : value;
  if (!text) return null;
  const parts = new Map(
    text
      .split(';')
      .map((p) => p.split(':').map((x) => x.trim()))
      .filter((kv) => kv.length === 2)
      .map(([k, v]) => [k.toLowerCase(), Number(v)] as const),
  );
  const limit = parts.get('user-hour-lim');
  const remaining = parts.get('user-hour-rem');
  return Number.isFinite(limit) && Number.isFinite(remaining) ? { limit: limit!, remaining: remaining! } : null;
}

function toReply(resource: CustomerReviewResponseResource | null | undefined, fallbackBody: string, rateLimit: AppStoreRateLimit | null): AppStoreReply {
  const attrs = resource?.attributes ?? {};
  const modified = attrs.lastModifiedDate ? new Date(attrs.lastModifiedDate) : null;
  return {
    id: resource?.id ?? '',
    responseBody: attrs.responseBody ?? fallbackBody,
    state: attrs.state ?? null,
    lastModifiedDate: modified && !Number.isNaN(modified.getTime()) ? modified : null,
    rateLimit,
  };
}

/** The JSON:API body of POST /v1/customerReviewResponses (pure). */
export function customerReviewResponseBody(reviewId: string, responseBody: string) {
  return {
    data: {
      type: 'customerReviewResponses',
      attributes: { responseBody },
      relationships: { review: { data: { type: 'customerReviews', id: reviewId } } },
    },
  };
}

/**
 * Publishes (or replaces: one response per review) the developer response to a review.
 * POST /v1/customerReviewResponses — Apple shows it once its state turns from PENDING_PUBLISH to PUBLISHED.
 */
export async function replyToReview(
  credentials: SourceCredentials,
  reviewId: string,
  text: string,
  options: { signal?: AbortSignal } = {},
): Promise<AppStoreReply> {
  const creds = credentialsOf({ credentials });
  const responseBody = text.trim();
  if (!responseBody) throw new SourceError('A reply cannot be empty', true, 400);
  if ([...responseBody].length > CONNECT_REPLY_MAX_CHARS) {
    throw new SourceError(`An App Store reply can be at most ${CONNECT_REPLY_MAX_CHARS} characters`, true, 400);
  }
  const token = await appStoreConnectToken(creds);
  const res = await sourceFetch(`${baseUrl()}/v1/customerReviewResponses`, {
    method: 'POST',
    service: SERVICE,
    signal: options.signal,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(customerReviewResponseBody(reviewId, responseBody)),
    permanentStatuses: [404, 409, 422],
  });
  const doc = parseJson<{ data?: CustomerReviewResponseResource }>(res.text, SERVICE);
  return toReply(doc.data, responseBody, parseRateLimitHeader(res.headers['x-rate-limit']));
}

/**
 * The review's current response, or null when it has none: GET /v1/customerReviews/{id}/response. Read before sending
 * again after an attempt whose outcome is unknown, so a response that did reach Apple is recorded, not posted twice.
 */
export async function currentResponse(credentials: SourceCredentials, reviewId: string, options: { signal?: AbortSignal } = {}): Promise<AppStoreReply | null> {
  const creds = credentialsOf({ credentials });
  const token = await appStoreConnectToken(creds);
  try {
    const res = await sourceFetch(`${baseUrl()}/v1/customerReviews/${encodeURIComponent(reviewId)}/response`, {
      service: SERVICE,
      signal: options.signal,
      headers: { Authorization: `Bearer ${token}` },
      permanentStatuses: [404],
    });
    const doc = parseJson<{ data?: CustomerReviewResponseResource | null }>(res.text, SERVICE);
    return doc.data ? toReply(doc.data, '', parseRateLimitHeader(res.headers['x-rate-limit'])) : null;
  } catch (err) {
    // No response yet is a 404 of the related resource.
    if (err instanceof SourceError && err.status === 404) return null;
    throw err;
  }
}

/** Removes the developer response (DELETE /v1/customerReviewResponses/{id}); an already removed one is not an error. */
export async function deleteResponse(credentials: SourceCredentials, responseId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
  const creds = credentialsOf({ credentials });
  const token = await appStoreConnectToken(creds);
  try {
    await sourceFetch(`${baseUrl()}/v1/customerReviewResponses/${encodeURIComponent(responseId)}`, {
      method: 'DELETE',
      service: SERVICE,
      signal: options.signal,
      headers: { Authorization: `Bearer ${token}` },
      permanentStatuses: [404],
    });
  } catch (err) {
    if (err instanceof SourceError && err.status === 404) return;
    throw err;
  }
}
